/** Vectors are reused by embedding input, not only by chunk id. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { copyTree, wayfinder } from "./_run.ts";
import { CORPUS, tinyEnv } from "./_env.ts";

async function indexJson(root: string, env: Record<string, string>) {
  const run = await wayfinder(["index", root, "--output", "json"], env);
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout);
}

Deno.test("index reuses vectors when only line numbers move, and embeds identical inputs once", async () => {
  const root = await copyTree(join(CORPUS, "utils"));
  await Deno.writeTextFile(
    join(root, "notes.md"),
    "# Notes\n\nThe same sentence twice.\n\nSomething else.\n\nThe same sentence twice.\n",
  );
  const env = await tinyEnv();
  const first = await indexJson(root, env);
  const total = first.embeddedChunks + first.reusedChunks;
  assert.equal(first.reusedChunks, 1, "the repeated paragraph is embedded once");

  // Two blank lines on top: every chunk of the file moves, so its ids change, but not its inputs.
  const path = join(root, "logger.dart");
  await Deno.writeTextFile(path, "\n\n" + await Deno.readTextFile(path));
  const moved = await indexJson(root, env);
  assert.equal(moved.files.changed, 1);
  assert.ok(moved.removedChunks > 0, "the moved chunks have new ids");
  assert.equal(moved.embeddedChunks, 0, "no input changed, so nothing is embedded");
  assert.equal(moved.reusedChunks, total);
});

Deno.test("a file deleted in one run and restored in a later one embeds nothing; a damaged cache only costs embedding", async () => {
  const root = await copyTree(join(CORPUS, "utils"));
  const env = await tinyEnv();
  const first = await indexJson(root, env);
  const path = join(root, "logger.dart");
  const text = await Deno.readTextFile(path);
  await Deno.remove(path);
  const dropped = await indexJson(root, env);
  assert.ok(dropped.removedChunks > 0);
  // Another run in between: what was dropped stays cached.
  await Deno.writeTextFile(join(root, "extra.txt"), "An unrelated note.\n");
  assert.equal((await indexJson(root, env)).embeddedChunks, 1);
  await Deno.writeTextFile(path, text);
  const restored = await indexJson(root, env);
  assert.equal(restored.files.changed, 1);
  assert.equal(restored.embeddedChunks, 0, "the restored file's inputs come from the cache");
  assert.equal(restored.reusedChunks, first.embeddedChunks + first.reusedChunks + 1);

  // Dropped again, then a byte of the cache flipped: it is ignored, never fatal.
  await Deno.remove(path);
  await indexJson(root, env);
  const cache = join(first.index, "dropped-vectors.bin");
  const bytes = await Deno.readFile(cache);
  bytes[bytes.length - 3]! ^= 0x01;
  await Deno.writeFile(cache, bytes);
  await Deno.writeTextFile(path, text);
  assert.equal((await indexJson(root, env)).embeddedChunks, dropped.removedChunks);
});
