/**
 * Ranking quality of the lexical index against Orama's public search, on the
 * peer corpus and its judged queries (the suite's gate inputs): nDCG@10,
 * Recall@10 and MRR of the bm25 and hybrid runs, scored by `runEvaluation`
 * exactly as `compare-embeddings` scores them. "ours" is the store's own
 * lexical index; the `orama …` rows rank with `_orama_public.ts` over the
 * same chunks and vectors.
 *
 *   deno run -A bench/lexical_probe.ts [--model .cache/models/minilm-f16.gguf]
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { LlamaEmbedder } from "../src/embed/mod.ts";
import { loadGroups, loadJudgments, loadQueries, runEvaluation } from "../src/eval/mod.ts";
import { indexCorpus, INPUT_FORMAT } from "../src/pipeline/mod.ts";
import { searchIndex } from "../src/search/mod.ts";
import { createCodeChunker } from "../src/chunk/mod.ts";
import { openIndex, type StoredIndex } from "../src/store/mod.ts";
import { buildOrama, loadOrama, type OramaConfig } from "./_orama_public.ts";

const REPO = new URL("..", import.meta.url).pathname;
const EVAL = join(REPO, "fixtures", "eval");

/**
 * Orama settings tried, from its defaults (prefix matching, k 1.2, b 0.75,
 * d 0.5) towards the best found: whole words, a symbol boost of 2–3, little
 * length normalisation and a large `d` (Orama's tf is count / field length,
 * so `b` normalises twice and `d` makes a match count more than its tf).
 */
const CONFIGS: [string, OramaConfig][] = (
  [
    [false, 1, 0.75, 0.5],
    [false, 3, 0.3, 0.5],
    [true, 1, 0.75, 0.5],
    [true, 3, 0.75, 0.5],
    [true, 3, 0.75, 0],
    [true, 3, 0.3, 0.5],
    [true, 5, 0.1, 0.5],
    [true, 3, 0, 1],
    [true, 3, 0.1, 1],
    [true, 2, 0.1, 1.5],
    [true, 3, 0.1, 1.5],
    [true, 2, 0.1, 2],
    [true, 3, 0.1, 2],
  ] as const
).map(([wholeWords, symbol, b, d]) => [
  `orama ${wholeWords ? "whole" : "prefix"} symbol×${symbol} b=${b} d=${d}`,
  { wholeWords, boost: { content: 1, symbol, sourcePath: 1 }, relevance: { k: 1.2, b, d } },
]);

const { values } = parseArgs({
  args: Deno.args,
  options: { model: { type: "string", default: join(REPO, ".cache/models/minilm-f16.gguf") } },
});

const embedder = await LlamaEmbedder.create({
  modelPath: values.model,
  threads: Number(Deno.env.get("WAYFINDER_THREADS") ?? 1),
  inputFormat: INPUT_FORMAT,
});
const dataDir = await Deno.makeTempDir({ prefix: "wayfinder-probe-" });
try {
  const root = join(REPO, "fixtures", "corpus");
  await indexCorpus({
    root,
    indexDir: dataDir,
    embedder,
    chunker: await createCodeChunker(),
    longInput: "reject",
  });
  const index = (await openIndex(dataDir))!;
  const queries = await loadQueries(join(EVAL, "retrieval_queries.json"));
  const { match, judgments } = await loadJudgments(join(EVAL, "span_qrels.json"));
  const groups = await loadGroups(join(EVAL, "retrieval_query_groups.json"));
  const vectors = new Map<string, Float32Array>();
  for (const text of Object.values(queries)) vectors.set(text, await embedder.embedQuery(text));

  const evaluate = async (name: string, lexical: StoredIndex["lexical"]) => {
    const searchable = { ...index, lexical };
    const runs = (["lexical", "hybrid"] as const).map((mode) => ({
      name: mode === "lexical" ? "bm25" : "hybrid",
      search: (query: string, k: number) =>
        Promise.resolve(
          searchIndex(searchable, vectors.get(query)!, query, { limit: k, mode }).matches,
        ),
    }));
    const report = await runEvaluation({ queries, judgments, runs, k: 10, match, groups });
    const cells = report.runs.map(({ metrics: m }) =>
      `${m.ndcg.toFixed(4)} ${m.recall.toFixed(4)} ${m.mrr.toFixed(4)}`
    );
    console.log(`| ${name.padEnd(44)} | ${cells.join(" | ")} |`);
  };

  console.log(`| ${"ranking".padEnd(44)} | bm25 nDCG R@10 MRR   | hybrid nDCG R@10 MRR |`);
  await evaluate("ours", (query, limit) => index.lexical(query, limit));
  for (const [name, config] of CONFIGS) {
    await evaluate(name, loadOrama(buildOrama(index.chunks, config), config));
  }
} finally {
  await embedder.close();
  await Deno.remove(dataDir, { recursive: true });
}
