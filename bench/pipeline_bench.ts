/**
 * Whole-pipeline timings on the bundled peer corpus (fixtures/corpus, 20
 * files) with a real model: a full index build against re-indexing an
 * unchanged tree, and query latency of each search mode against embedding
 * the query alone.
 *
 *   WAYFINDER_BENCH_MODEL=.cache/models/minilm-f16.gguf deno bench -A bench/pipeline_bench.ts
 *
 * Each iteration loads the model and closes it outside the timed part (see
 * _fixture.ts for why). A query iteration runs every query in QUERIES once:
 * divide its time by their count for the latency of one query.
 */
import { join } from "node:path";
import { createCodeChunker } from "../src/chunk/mod.ts";
import { LlamaEmbedder } from "../src/embed/mod.ts";
import { indexCorpus, INPUT_FORMAT } from "../src/pipeline/mod.ts";
import { searchIndex } from "../src/search/mod.ts";
import { openIndex } from "../src/store/mod.ts";
import { benchWithFixture } from "./_fixture.ts";
import { requireModel } from "./_model.ts";

const CORPUS = new URL("../fixtures/corpus", import.meta.url).pathname;
const model = requireModel();

const threads = Number(Deno.env.get("WAYFINDER_THREADS") ?? 2);
const chunker = await createCodeChunker();
const dataDir = await Deno.makeTempDir({ prefix: "wayfinder-bench-" });
const indexDir = join(dataDir, "index");
const QUERIES = [
  "encrypt sensitive data",
  "refresh auth token",
  "list users",
  "cancel order",
  "parse payment method",
];
const per = `×${QUERIES.length} queries`;

function openEmbedder() {
  return LlamaEmbedder.create({ modelPath: model, threads, inputFormat: INPUT_FORMAT });
}

function build(embedder: LlamaEmbedder, rebuild: boolean) {
  return indexCorpus({ root: CORPUS, indexDir, embedder, chunker, longInput: "reject", rebuild });
}

/** An embedder and an index that is current, both warmed by one query. */
async function openCurrent() {
  const embedder = await openEmbedder();
  await build(embedder, false);
  const index = (await openIndex(indexDir))!;
  // An opened index reads its full-text file on the first lexical search.
  searchIndex(index, await embedder.embedQuery(QUERIES[0]!), QUERIES[0]!, { mode: "hybrid" });
  return { embedder, index };
}

type Current = Awaited<ReturnType<typeof openCurrent>>;
const closeCurrent = (current: Current) => current.embedder.close();

/** A query bench over the current index; `search` runs once per query. */
function queryBench(
  name: string,
  options: { baseline?: boolean },
  search: (current: Current, query: string) => Promise<unknown>,
) {
  benchWithFixture(`query: ${name} (${per})`, { group: "query", n: 10, warmup: 1, ...options }, {
    open: openCurrent,
    run: async (current) => {
      for (const query of QUERIES) await search(current, query);
    },
    close: closeCurrent,
  });
}

// A full build takes minutes on two shared cores: one timed build is enough.
benchWithFixture("index: full build", { group: "index", n: 1, warmup: 0 }, {
  open: openEmbedder,
  run: async (embedder) => {
    await build(embedder, true);
  },
  close: (embedder) => embedder.close(),
});
benchWithFixture("index: unchanged tree", { group: "index", baseline: true, n: 5, warmup: 1 }, {
  open: openCurrent,
  run: async ({ embedder }) => {
    await build(embedder, false);
  },
  close: closeCurrent,
});

queryBench("embed only", { baseline: true }, ({ embedder }, text) => embedder.embedQuery(text));
queryBench("dense search", {}, async ({ embedder, index }, text) => {
  searchIndex(index, await embedder.embedQuery(text), text, { limit: 10, mode: "dense" });
});
queryBench("hybrid search", {}, async ({ embedder, index }, text) => {
  searchIndex(index, await embedder.embedQuery(text), text, { limit: 10, mode: "hybrid" });
});
// Lexical search needs no model: the index is opened once, built first if need be.
let lexicalIndex: Promise<Current["index"]> | null = null;
async function currentIndex() {
  const current = await openCurrent();
  await closeCurrent(current);
  return current.index;
}
Deno.bench(`query: lexical search (${per})`, { group: "query" }, async (b) => {
  const index = await (lexicalIndex ??= currentIndex());
  b.start();
  for (const query of QUERIES) searchIndex(index, null, query, { limit: 10, mode: "lexical" });
  b.end();
});
