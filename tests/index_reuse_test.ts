/** Vectors are reused by embedding input, not only by chunk id. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { copyTree, REPO, tinyModel, wayfinder } from "./_run.ts";

async function indexJson(root: string, env: Record<string, string>) {
  const run = await wayfinder(["index", root, "--output", "json"], env);
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout);
}

Deno.test("index reuses vectors when only line numbers move, and embeds identical inputs once", async () => {
  const root = await copyTree(join(REPO, "fixtures", "corpus", "utils"));
  await Deno.writeTextFile(
    join(root, "notes.md"),
    "# Notes\n\nThe same sentence twice.\n\nSomething else.\n\nThe same sentence twice.\n",
  );
  const env = {
    WAYFINDER_DATA_DIR: await Deno.makeTempDir(),
    WAYFINDER_EMBEDDING_MODEL: tinyModel(),
  };
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
