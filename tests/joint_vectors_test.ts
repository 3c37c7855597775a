/**
 * Joint vectors: with a static model beside the GGUF, `index` embeds each
 * passage with both (src/embed/joint.ts). An index of the GGUF alone keeps
 * answering, says it is stale, and a plain `index` run rebuilds it joined;
 * `--static-share 0` goes back the other way.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { copyTree, REPO, tinyModelAlone, wayfinder } from "./_run.ts";

const CORPUS = join(REPO, "fixtures", "corpus");

async function status(root: string, env: Record<string, string>, model: string) {
  const run = await wayfinder(["status", root, "--model", model, "--output", "json"], env);
  assert.ok(run.code === 0 || run.code === 1, run.stderr);
  return JSON.parse(run.stdout);
}

async function search(root: string, env: Record<string, string>, model: string) {
  const run = await wayfinder(
    [
      "search",
      root,
      "encrypt sensitive data",
      "--model",
      model,
      "--mode",
      "dense",
      "--output",
      "json",
    ],
    env,
  );
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout).matches as { scores: { dense: number } }[];
}

Deno.test("joint vectors: a static model beside the GGUF joins the index's vectors, and leaving it rebuilds", async () => {
  const root = await copyTree(CORPUS);
  const env = { WAYFINDER_DATA_DIR: await Deno.makeTempDir({ prefix: "wayfinder-data-" }) };
  const { gguf } = await tinyModelAlone();
  const index = (...flags: string[]) =>
    wayfinder(["index", root, "--model", gguf, "--threads", "1", ...flags], env);

  // The GGUF alone: its own vectors.
  assert.equal((await index()).code, 0);
  const alone = await status(root, env, gguf);
  assert.equal(alone.model.provider, "llama");
  const width = alone.model.dimensions;

  // A static model arrives beside it: the index still answers, as it was built, and is stale.
  const distilled = await wayfinder(["model", "distill", "--from", gguf, "--dims", "16"]);
  assert.equal(distilled.code, 0, distilled.stderr);
  assert.ok((await search(root, env, gguf)).length > 0);
  const stale = await status(root, env, gguf);
  assert.equal(stale.state, "stale");
  assert.ok(
    stale.stale.reasons.some((r: string) => /static model .* joined/.test(r)),
    stale.stale.reasons,
  );

  // A plain run rebuilds it joined: no --rebuild needed, the same model was chosen.
  const joined = await index();
  assert.equal(joined.code, 0, joined.stderr);
  const now = await status(root, env, gguf);
  assert.equal(now.state, "ready");
  assert.equal(now.model.provider, "llama+static 0.2");
  assert.equal(now.model.dimensions, width + 16);
  const hits = await search(root, env, gguf);
  assert.ok(hits.length > 0 && hits.every((hit) => Math.abs(hit.scores.dense) <= 1 + 1e-6));

  // Another share is another index; 0 is the GGUF alone again.
  assert.equal((await index("--static-share", "0.5")).code, 0);
  assert.equal((await status(root, env, gguf)).model.provider, "llama+static 0.5");
  assert.equal((await index("--static-share", "0")).code, 0);
  assert.equal((await status(root, env, gguf)).model.provider, "llama");
  // The share the index was built with is recorded: search needs no flag.
  assert.ok((await search(root, env, gguf)).length > 0);

  const bad = await index("--static-share", "2");
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^wayfinder: .*static-share.*at most 1/);
});
