/**
 * The quantization setting end to end: recorded in the index, used by search
 * without being repeated, changed by the next index run without embedding
 * anything; and a damaged index file refused with one line and exit 2.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readManifest } from "../src/store/mod.ts";
import { copyTree, firstLineThenStop, tinyModel, wayfinder } from "./_run.ts";
import { SERVICES } from "./_env.ts";

async function setup() {
  const root = await copyTree(SERVICES);
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
  const { segments } = JSON.parse(
    await Deno.readTextFile(join(indexDir, generation, "manifest.json")),
  );
  const path = join(indexDir, segments[0].name, "text.bin");
  const bytes = await Deno.readFile(path);
  bytes[bytes.length >> 1]! ^= 0x20;
  await Deno.writeFile(path, bytes);
  const run = await wayfinder(["search", root, "token"], env);
  assert.equal(run.code, 2);
  assert.match(
    run.stderr,
    /^wayfinder: Cannot use index at \S+: seg-\d+-[0-9a-f]+\/text\.bin fails its checksum; run 'wayfinder index \S+' to rebuild it\n$/,
  );
});

Deno.test("status and watch take every flag index does but --rebuild and --events, --quantization too", async () => {
  const { indexCommand } = await import("../commands/index.ts");
  const { statusCommand } = await import("../commands/status.ts");
  const { watchCommand } = await import("../commands/watch.ts");
  const indexFlags = indexCommand.spec.settings.filter((s) => s !== "rebuild" && s !== "events");
  for (const command of [statusCommand, watchCommand]) {
    const missing = indexFlags.filter((s) => !command.spec.settings.includes(s));
    assert.deepEqual(missing, [], command.spec.name);
  }

  const { root, indexDir, env } = await setup();
  assert.equal((await wayfinder(["index", root], env)).code, 0);
  const status = await wayfinder(
    ["status", root, "--quantization", "int8", "--output", "json"],
    env,
  );
  assert.equal(status.code, 0, status.stderr);
  assert.deepEqual(JSON.parse(status.stdout).stale.reasons, ["quantization none → int8"]);

  const watch = await firstLineThenStop(["watch", root, "--quantization", "int8"], env);
  assert.equal(watch.code, 0, watch.stderr);
  const { first } = watch;
  assert.match(first, / watching: /);
  assert.equal((await readManifest(indexDir))!.quantization, "int8", "watch's update kept codes");
});
