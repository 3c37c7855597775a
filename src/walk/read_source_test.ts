import assert from "node:assert/strict";
import { join } from "node:path";
import { readSource } from "./read_source.ts";

Deno.test("readSource() drops a file swapped for a link out of the root after the walk checked it", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir());
  const outside = await Deno.makeTempDir();
  await Deno.writeTextFile(join(outside, "secret.txt"), "SECRET\n");
  await Deno.writeTextFile(join(root, "a.txt"), "inside\n");
  const read = await readSource(join(root, "a.txt"), "a.txt", 1000, root);
  assert.ok("content" in read && read.content === "inside\n");
  // What the walk saw as a file is a link out of the root by the time it is read.
  await Deno.remove(join(root, "a.txt"));
  await Deno.symlink(join(outside, "secret.txt"), join(root, "a.txt"));
  assert.deepEqual(await readSource(join(root, "a.txt"), "a.txt", 1000, root), {
    path: "a.txt",
    reason: "symlink_outside_root",
  });
});
