/**
 * The static tier: with a static model beside the GGUF, an index run keeps a
 * static index up to date, and while the transformer's vectors fill in, dense
 * search ranks the files it has not embedded with the static model.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { type Corpus, openCorpus } from "../src/mod.ts";
import { copyTree, REPO, tinyModel, tinyModelsWithStatic, wayfinder } from "./_run.ts";

const CORPUS = join(REPO, "fixtures", "corpus");
const QUERY = "encrypt sensitive data";

/** A copy of the corpus, a data root, and the tiny GGUF with a static model distilled beside it. */
async function setup() {
  const root = await copyTree(CORPUS);
  const dataDir = await Deno.makeTempDir({ prefix: "wayfinder-data-" });
  const { gguf } = await tinyModelsWithStatic();
  return { root, dataDir, gguf };
}

/** Indexes until the first batch is embedded, then stops: a live generation with rows to embed. */
async function indexPartly(corpus: Corpus): Promise<void> {
  const stop = new AbortController();
  await assert.rejects(
    corpus.index(
      {
        signal: stop.signal,
        onEvent: (event: { event: string }) => {
          if (event.event === "batch") stop.abort();
        },
      } as Parameters<Corpus["index"]>[0],
    ),
  );
}

Deno.test({
  name:
    "static tier: files the transformer has not embedded are ranked by the static model meanwhile",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const { root, dataDir, gguf } = await setup();
    const embedder = { model: gguf, threads: 1 };
    const corpus = await openCorpus(root, { dataDir, embedder });
    const plain = await openCorpus(root, { dataDir, embedder, staticTier: false });
    try {
      await indexPartly(corpus);
      const { dense } = await corpus.status();
      assert.ok(dense && dense.covered < dense.total, "rows still to embed");
      assert.ok(existsSync(`${corpus.indexDir}-static`), "the tier was built first");

      // Wide enough that both lists reach the result whatever the tiny model's scores.
      const tiered = await corpus.search(QUERY, { limit: 50, mode: "dense" });
      const alone = await plain.search(QUERY, { limit: 50, mode: "dense" });
      assert.ok(tiered.notices.some((n) => /ranked with the static model meanwhile/.test(n)));
      assert.ok(!alone.notices.some((n) => /static model/.test(n)));
      // Without the tier, dense search sees only the embedded rows' files.
      const seen = new Set(alone.matches.map((hit) => hit.chunk.sourcePath));
      const added = tiered.matches.filter((hit) => !seen.has(hit.chunk.sourcePath));
      assert.ok(added.length > 0, "the tier brings hits from files not embedded yet");
      for (const hit of tiered.matches) assert.equal(hit.score, hit.scores.fused);

      // Once every passage has its transformer vector, the tier is not read.
      await corpus.index();
      const done = await corpus.search(QUERY, { limit: 10, mode: "dense" });
      const reference = await plain.search(QUERY, { limit: 10, mode: "dense" });
      assert.ok(!done.notices.some((n) => /static model/.test(n)));
      assert.deepEqual(
        done.matches.map((hit) => hit.chunk.id),
        reference.matches.map((hit) => hit.chunk.id),
      );
    } finally {
      await corpus.close();
      await plain.close();
    }
  },
});

Deno.test("static tier: none without a static model beside the GGUF, or when turned off", async () => {
  const root = await copyTree(join(CORPUS, "services"));
  const dataDir = await Deno.makeTempDir({ prefix: "wayfinder-data-" });
  const corpus = await openCorpus(root, { dataDir, embedder: { model: tinyModel(), threads: 1 } });
  try {
    await corpus.index();
    assert.ok(!existsSync(`${corpus.indexDir}-static`));
  } finally {
    await corpus.close();
  }
  const { root: other, dataDir: data, gguf } = await setup();
  const off = await wayfinder(
    ["index", other, "--model", gguf, "--no-static-tier", "--output", "json"],
    { WAYFINDER_DATA_DIR: data, WAYFINDER_THREADS: "1" },
  );
  assert.equal(off.code, 0, off.stderr);
  assert.ok(!existsSync(`${JSON.parse(off.stdout).index}-static`));
});

Deno.test({
  name: "static tier: a static model distilled again rebuilds the tier; the run and search go on",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const { root, dataDir, gguf } = await setup();
    const env = { WAYFINDER_DATA_DIR: dataDir, WAYFINDER_THREADS: "1" };
    const first = await wayfinder(["index", root, "--model", gguf], env);
    assert.equal(first.code, 0, first.stderr);
    // Another static model in its place: other dimensions, another identity.
    const again = await wayfinder(["model", "distill", "--from", gguf, "--dims", "8"]);
    assert.equal(again.code, 0, again.stderr);
    await Deno.writeTextFile(join(root, "added.dart"), "void rotateKeys() {}\n");
    const second = await wayfinder(["index", root, "--model", gguf, "--output", "json"], env);
    assert.equal(second.code, 0, second.stderr);
    // The main index's joint vectors hold the static model's too: every file is embedded again.
    const summary = JSON.parse(second.stdout);
    assert.equal(summary.files.changed, summary.files.seen);
    const found = await wayfinder(["search", root, QUERY, "--model", gguf], env);
    assert.equal(found.code, 0, found.stderr);
    const status = await wayfinder(["status", root, "--model", gguf, "--output", "json"], env);
    assert.equal(JSON.parse(status.stdout).model.provider, "llama+static 0.2");
  },
});
