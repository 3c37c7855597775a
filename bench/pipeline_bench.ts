/**
 * Whole-pipeline timings on the bundled peer corpus (fixtures/corpus, 20
 * files) with a real model: a full index build against re-indexing an
 * unchanged tree, and query latency of each search mode against embedding
 * the query alone.
 *
 *   WAYFINDER_BENCH_MODEL=.cache/models/minilm-f16.gguf deno bench -A bench/pipeline_bench.ts
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createCodeChunker } from "../src/chunk/mod.ts";
import { LlamaEmbedder } from "../src/embed/mod.ts";
import { indexCorpus, INPUT_FORMAT } from "../src/pipeline/mod.ts";
import { searchIndex } from "../src/search/mod.ts";
import { openIndex } from "../src/store/mod.ts";

const CORPUS = new URL("../fixtures/corpus", import.meta.url).pathname;
const model = Deno.env.get("WAYFINDER_BENCH_MODEL") ?? ".cache/models/minilm-f16.gguf";
if (!existsSync(model)) {
  throw new Error(
    `${model} not found: run 'deno run -A tests/setup.ts' or set WAYFINDER_BENCH_MODEL`,
  );
}

const threads = Number(Deno.env.get("WAYFINDER_THREADS") ?? 2);
const embedder = await LlamaEmbedder.create({
  modelPath: model,
  threads,
  inputFormat: INPUT_FORMAT,
});
const chunker = await createCodeChunker();
const dataDir = await Deno.makeTempDir({ prefix: "wayfinder-bench-" });
const indexDir = join(dataDir, "index");
const build = (rebuild: boolean) =>
  indexCorpus({ root: CORPUS, indexDir, embedder, chunker, longInput: "reject", rebuild });
await build(true);
// Opened after the index benches have rebuilt it: an opened index reads its
// full-text file lazily, and rebuilds collect old generations.
let opened: Awaited<ReturnType<typeof openIndex>> = null;
async function index() {
  return opened ??= await openIndex(indexDir);
}
const queries = [
  "encrypt sensitive data",
  "refresh auth token",
  "list users",
  "cancel order",
  "parse payment method",
];
let next = 0;
const query = () => queries[next++ % queries.length]!;

Deno.bench("index: full build", { group: "index", n: 2, warmup: 0 }, async () => {
  await build(true);
});
Deno.bench(
  "index: unchanged tree",
  { group: "index", baseline: true, n: 5, warmup: 1 },
  async () => {
    await build(false);
  },
);

Deno.bench("query: embed only", { group: "query", baseline: true }, async () => {
  await embedder.embedQuery(query());
});
Deno.bench("query: dense search", { group: "query" }, async () => {
  const text = query();
  searchIndex((await index())!, await embedder.embedQuery(text), text, {
    limit: 10,
    mode: "dense",
  });
});
Deno.bench("query: hybrid search", { group: "query" }, async () => {
  const text = query();
  searchIndex((await index())!, await embedder.embedQuery(text), text, {
    limit: 10,
    mode: "hybrid",
  });
});
Deno.bench("query: lexical search", { group: "query" }, async () => {
  const text = query();
  searchIndex((await index())!, null, text, { limit: 10, mode: "lexical" });
});
