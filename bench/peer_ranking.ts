/**
 * The ranking stage on the peer corpus (`fixtures/corpus` with the retrieval
 * gate's judged queries): nDCG@10 and Recall@10 overall and per group for
 * each mode under each ranking, beside the committed baseline and the gate's
 * tolerances (recall .05, nDCG .03), so a ranking change is measured where
 * `tests/compare_embeddings_test.ts` will judge it.
 *
 *   deno run -A bench/peer_ranking.ts [--runs "lexical=-fileSaturation;hybrid=definitions"]
 *     [--model GGUF|STATIC] [--data DIR] [--detail] [--max-chunk-chars N]
 *     [--static STATIC [--static-share X]]   (joint vectors, as a static model beside the GGUF gives)
 *
 * A run is `mode=ranking` (`mode` alone: the default the corpus searcher
 * uses); mode is dense, lexical or hybrid (`hybrid:blend` blends,
 * `hybrid:ranked`, `hybrid:early` and `hybrid:adaptive` fuse as `Fusion` says,
 * `hybrid:k20` fuses with RRF's k = 20);
 * ranking is as `code_search_bench.ts` takes it. `--detail` lists the
 * queries whose nDCG differs between the first run and each later one. The index is kept in
 * `--data` (default: a folder under the system's temporary folder) and reused.
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { BUILD_DEFAULTS } from "../src/build_defaults.ts";
import { liveIndex, openCorpus } from "../src/corpus/mod.ts";
import { loadGroups, loadJudgments, loadQueries, runEvaluation } from "../src/eval/mod.ts";
import {
  type Fusion,
  indexSearcher,
  isRankedFusion,
  type RankingOptions,
  type SearchMode,
} from "../src/search/mod.ts";
import { codeRanking } from "../src/corpus/search_assembly.ts";
import { rankingOption } from "./_code_search.ts";
import { openBenchEmbedder } from "./_model.ts";

const REPO = new URL("..", import.meta.url).pathname;
const EVAL = join(REPO, "fixtures", "eval");

const { values } = parseArgs({
  args: Deno.args,
  options: {
    runs: { type: "string", default: "dense;lexical;hybrid" },
    model: { type: "string", default: join(REPO, ".cache/models/minilm-f16.gguf") },
    data: { type: "string", default: join(tmpdir(), "wayfinder-peer-ranking") },
    detail: { type: "boolean", default: false },
    "max-chunk-chars": { type: "string", default: String(BUILD_DEFAULTS.maxChunkChars) },
    static: { type: "string" },
    "static-share": { type: "string", default: String(BUILD_DEFAULTS.staticShare) },
  },
});

const runs = values.runs.split(";").map((spec) => {
  const [name, steps] = spec.split("=");
  const [mode, option] = name!.split(":");
  const k = /^k(\d+)$/.exec(option ?? "")?.[1];
  // A bare mode is searched as a corpus searches a source tree in it.
  const bare = option === undefined && steps === undefined;
  const defaults = codeRanking(mode as SearchMode, false);
  const ranking: boolean | RankingOptions = steps === undefined
    ? defaults.ranking
    : rankingOption(steps);
  return {
    label: spec,
    mode: mode as SearchMode,
    fusion: option === "blend" || isRankedFusion(option)
      ? option as Fusion
      : bare
      ? defaults.fusion
      : undefined,
    rrfK: k === undefined ? undefined : Number(k),
    ranking,
  };
});

// A `.static` model is measured as the GGUF is; `--static` joins one to the GGUF's vectors.
const embedder = await openBenchEmbedder(
  values.model,
  Number(Deno.env.get("WAYFINDER_THREADS") ?? 1),
  values.static ? { staticModel: values.static, share: Number(values["static-share"]) } : undefined,
);
const corpus = await openCorpus(join(REPO, "fixtures", "corpus"), {
  dataDir: values.data,
  embedder,
  maxChunkChars: Number(values["max-chunk-chars"]),
});
try {
  await corpus.index();
  const index = await liveIndex(corpus);
  const queries = await loadQueries(join(EVAL, "retrieval_queries.json"));
  const { match, judgments } = await loadJudgments(join(EVAL, "span_qrels.json"));
  const groups = await loadGroups(join(EVAL, "retrieval_query_groups.json"));
  const baseline = JSON.parse(await Deno.readTextFile(join(EVAL, "baseline_metrics.json")));
  const report = await runEvaluation({
    queries,
    judgments,
    match,
    groups,
    k: 10,
    runs: runs.map((run) => {
      const searcher = indexSearcher(index, {
        mode: run.mode,
        fusion: run.fusion,
        rrfK: run.rrfK,
        ranking: run.ranking,
        embedQuery: (q) => embedder.embedQuery(q),
      });
      return {
        name: run.label,
        search: async (query: string, k: number) =>
          (await searcher.search({ query, limit: k })).matches,
      };
    }),
  });
  const f4 = (n: number) => n.toFixed(4);
  for (const [i, run] of report.runs.entries()) {
    const mode = runs[i]!.mode;
    const base = baseline.runs.find((r: { name: string }) =>
      r.name === (mode === "lexical" ? "bm25" : mode)
    );
    const failures: string[] = [];
    const cells = [
      ["overall", run.metrics, base.metrics] as const,
      ...Object.entries(run.queryGroups ?? {})
        .map(([g, v]) => [g, v.metrics, base.queryGroups[g].metrics] as const),
    ]
      .map(([g, m, b]) => {
        if (b.recall - m.recall > 0.05 + 1e-9) failures.push(`${g} recall`);
        if (b.ndcg - m.ndcg > 0.03 + 1e-9) failures.push(`${g} ndcg`);
        return `${g} ${f4(m.ndcg)} (R ${f4(m.recall)})`;
      });
    console.log(
      `${run.name.padEnd(40)} ${cells.join("  ")}  gate: ${
        failures.length ? "FAILS " + failures.join(", ") : "passes"
      }`,
    );
  }
  if (values.detail) {
    const [first, ...later] = report.runs;
    for (const run of later) {
      for (const [qid, score] of Object.entries(run.queries)) {
        const before = first!.queries[qid]!;
        if (Math.abs(before.ndcg - score.ndcg) < 1e-9) continue;
        console.log(
          `${run.name} ${qid} ${f4(before.ndcg)} → ${f4(score.ndcg)} (R ${f4(before.recall)} → ${
            f4(score.recall)
          }) ${queries[qid]}`,
        );
      }
    }
  }
} finally {
  await corpus.close();
  await embedder.close();
}
