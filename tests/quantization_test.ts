/**
 * The quantization setting end to end: recorded in the index, used by search
 * without being repeated, changed by the next index run without embedding
 * anything; and a damaged index file refused with one line and exit 2.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readManifest } from "../src/store/mod.ts";
import { copyTree, REPO, tinyModel, wayfinder } from "./_run.ts";

const CORPUS = join(REPO, "fixtures", "corpus", "services");

async function setup() {
  const root = await copyTree(CORPUS);
  const indexDir = join(await Deno.makeTempDir(), "index");
  const env = { WAYFINDER_EMBEDDING_MODEL: tinyModel(), WAYFINDER_INDEX_DIR: indexDir };
  return { root, indexDir, env };
}

async function topIds(root: string, env: Record<string, string>): Promise<string[]> {
  const run = await wayfinder(
    ["search", root, "refresh the session token", "--output", "json"],
    env,
  );
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout).matches.map((m: { chunk: { id: string } }) => m.chunk.id);
}

Deno.test("index --quantization is recorded; search uses it; a change rewrites without embedding", async () => {
  const { root, indexDir, env } = await setup();
  assert.equal((await wayfinder(["index", root], env)).code, 0);
  const exact = await topIds(root, env);

  for (const kind of ["int8", "binary"]) {
    const run = await wayfinder(["index", root, "--quantization", kind, "--output", "json"], env);
    assert.equal(run.code, 0, run.stderr);
    const summary = JSON.parse(run.stdout);
    assert.equal(summary.current, false, "a new generation holds the codes");
    assert.equal(summary.embeddedChunks, 0);
    const manifest = (await readManifest(indexDir))!;
    assert.equal(manifest.quantization, kind);
    assert.equal(manifest.settings?.quantization, kind);
    // A small index: the first pass hands every row to exact rescoring.
    assert.deepEqual(await topIds(root, env), exact);
    const again = await wayfinder(["index", root, "--output", "json"], env);
    assert.equal(JSON.parse(again.stdout).current, true, "the recorded choice is kept");
  }
});

Deno.test("search refuses an index with a flipped byte: exit 2, one line", async () => {
  const { root, indexDir, env } = await setup();
  assert.equal((await wayfinder(["index", root], env)).code, 0);
  const generation = (await Deno.readTextFile(join(indexDir, "current"))).trim();
  const path = join(indexDir, generation, "text.bin");
  const bytes = await Deno.readFile(path);
  bytes[bytes.length >> 1]! ^= 0x20;
  await Deno.writeFile(path, bytes);
  const run = await wayfinder(["search", root, "token"], env);
  assert.equal(run.code, 2);
  assert.match(
    run.stderr,
    /^wayfinder: Cannot use index at \S+: text\.bin fails its checksum; run 'wayfinder index \S+ --rebuild'\n$/,
  );
});
