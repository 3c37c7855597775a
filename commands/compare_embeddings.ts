import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { WayfinderError } from "../src/error.ts";
import {
  compareToBaseline,
  type EvalRun,
  loadGroups,
  loadJudgments,
  loadQueries,
  loadReport,
  type Report,
  runEvaluation,
} from "../src/eval/mod.ts";
import { embeddingInput, indexCorpus } from "../src/pipeline/mod.ts";
import { rerankHits, searchIndex } from "../src/search/mod.ts";
import { dataRootFrom, indexDirFor, openIndex } from "../src/store/mod.ts";
import { type Embedder, identityFingerprint } from "../src/embed/mod.ts";
import type { Config } from "../src/config/mod.ts";
import { type Command, type CommandContext, printJson } from "./_command.ts";
import {
  EMBEDDER_SETTINGS,
  INDEX_SETTINGS,
  openCodeChunker,
  openEmbedder,
  openReranker,
} from "./_wiring.ts";

/** Run names users may ask for, and the search mode behind each. */
const RUN_MODES = { dense: "dense", bm25: "lexical", hybrid: "hybrid" } as const;
type RunName = keyof typeof RUN_MODES;
/** A run as asked for: `dense`, or `rerank:dense` for dense candidates reranked by the cross-encoder. */
interface Run {
  name: string;
  base: RunName;
  rerank: boolean;
}
/** Candidates a rerank run's cross-encoder rescores (at least k). */
const RERANK_DEPTH = 50;

/** `wayfinder compare-embeddings`: retrieval metrics on judged queries, and the regression gate. */
export const compareEmbeddingsCommand: Command = {
  spec: {
    name: "compare-embeddings",
    summary:
      "Measure Recall@k, nDCG@k and MRR on judged queries; with a baseline, fail (exit 1) on regressions",
    positionals: [],
    settings: [
      ...INDEX_SETTINGS,
      ...EMBEDDER_SETTINGS,
      "corpus",
      "queries",
      "qrels",
      "queryGroups",
      "top",
      "embedders",
      "reranker",
      "qrelsMatch",
      "unit",
      "metricsOutput",
      "baselineMetrics",
      "maxRecallDrop",
      "maxNdcgDrop",
      "maxMrrDrop",
      "maxChunkChars",
    ],
  },
  async run(config, context) {
    const s = config.settings;
    for (const key of ["corpus", "queries", "qrels"] as const) {
      if (!s[key]) throw new WayfinderError("usage", `compare-embeddings needs --${key}`);
    }
    // A repeated flag arrives as a list without comma splitting (globs elsewhere hold commas).
    const runs = s.embedders.flatMap((names) => names.split(",")).map((name) => name.trim())
      .filter(Boolean).map(parseRun);
    const queries = await loadQueries(s.queries!);
    const { match: shape, judgments } = await loadJudgments(s.qrels!);
    const match = s.qrelsMatch ?? shape;
    if (match !== shape) {
      throw new WayfinderError(
        "input",
        `Cannot use --qrels-match ${match} with '${s.qrels}': it holds ${
          shape === "span-overlap" ? "span" : "chunk-id"
        } judgments`,
      );
    }
    const groups = s.queryGroups ? await loadGroups(s.queryGroups) : undefined;
    const baseline = s.baselineMetrics ? await loadReport(s.baselineMetrics) : undefined;

    // Opened before the embedder, so a missing --reranker fails before any indexing.
    const rerankRun = runs.find((run) => run.rerank);
    const reranker = rerankRun ? await openReranker(config, rerankRun.name) : null;
    const embedder = await openEmbedder(config, context).catch(async (error) => {
      await reranker?.close();
      throw error;
    });
    let report: Report;
    try {
      const index = await indexForEvaluation(config, context, embedder);
      const chunkPaths = new Map(index.chunks.map((c) => [c.id, c.sourcePath]));
      // Every dense-based run asks for the same query vector: embed each query once.
      const vectors = new Map<string, Promise<Float32Array>>();
      const vectorOf = (query: string) => {
        if (!vectors.has(query)) vectors.set(query, embedder.embedQuery(query));
        return vectors.get(query)!;
      };
      const evalRuns: EvalRun[] = runs.map((run) => ({
        name: run.name,
        search: async (query, k) => {
          const mode = RUN_MODES[run.base];
          const vector = mode === "lexical" ? null : await vectorOf(query);
          const limit = run.rerank ? Math.max(k, RERANK_DEPTH) : k;
          const hits = searchIndex(index, vector, query, { limit, mode }).matches;
          if (!reranker || !run.rerank) return hits;
          const reranked = await rerankHits(hits, query, reranker, {
            top: limit,
            text: embeddingInput,
          });
          return reranked.slice(0, k);
        },
      }));
      report = await runEvaluation({
        queries,
        judgments,
        runs: evalRuns,
        k: s.top,
        match,
        unit: s.unit,
        groups,
        pathOf: (id) => chunkPaths.get(id),
      });
    } finally {
      await reranker?.close();
      await embedder.close();
    }

    if (s.metricsOutput) await writeFile(s.metricsOutput, JSON.stringify(report, null, 2) + "\n");
    const regressions = baseline
      ? compareToBaseline(report, baseline, {
        maxRecallDrop: s.maxRecallDrop,
        maxNdcgDrop: s.maxNdcgDrop,
        maxMrrDrop: s.maxMrrDrop,
      })
      : [];
    if (s.output !== "text") printJson(context, { ...report, regressions });
    else context.stdout(formatTable(report));
    for (const r of regressions) {
      const current = r.current === null ? "missing" : r.current.toFixed(4);
      context.stderr(
        `regression: ${r.run} ${r.group} ${r.metric} ${r.baseline.toFixed(4)} → ${current} ` +
          `(drop ${r.drop.toFixed(4)} > allowed ${r.allowed})\n`,
      );
    }
    if (baseline) {
      context.stderr(
        regressions.length ? `Gate failed: ${regressions.length} regressions\n` : "Gate passed\n",
      );
    }
    return regressions.length ? 1 : 0;
  },
};

/** `dense`, `bm25`, `hybrid`, or `rerank:` followed by one of them. */
function parseRun(name: string): Run {
  const base = name.startsWith("rerank:") ? name.slice("rerank:".length) : name;
  if (!(base in RUN_MODES)) {
    throw new WayfinderError(
      "usage",
      `Unknown run '${name}' in --embedders; expected ${
        Object.keys(RUN_MODES).join(", ")
      }, or rerank:<one of them>`,
    );
  }
  return { name, base: base as RunName, rerank: base !== name };
}

/**
 * Indexes the corpus with the real pipeline and opens it. Evaluation indexes
 * live apart from `index`'s, one per model identity, so comparing models
 * never invalidates the user's index and repeated runs reuse vectors.
 */
async function indexForEvaluation(config: Config, context: CommandContext, embedder: Embedder) {
  const s = config.settings;
  const root = s.corpus!;
  const fingerprint = identityFingerprint(embedder.identity).slice(0, 12);
  const indexDir = s.indexDir ??
    indexDirFor(join(s.dataDir ?? dataRootFrom(context.env), "eval", fingerprint), root);
  await indexCorpus({
    root,
    indexDir,
    embedder,
    chunker: await openCodeChunker(context),
    maxChunkChars: s.maxChunkChars,
    longInput: s.longInput,
  });
  const index = await openIndex(indexDir);
  if (!index) throw new WayfinderError("io", `Cannot open the index just built at '${indexDir}'`);
  return index;
}

function formatTable(report: Report): string {
  const width = Math.max(10, ...report.runs.map((run) => run.name.length));
  const lines = [
    `k=${report.k}  match=${report.match}  unit=${report.unit}`,
    `${"run".padEnd(width)} queries  recall   ndcg     mrr`,
  ];
  for (const run of report.runs) {
    const m = run.metrics;
    lines.push(
      `${run.name.padEnd(width)} ${String(run.queryCount).padStart(7)}  ${m.recall.toFixed(4)}  ${
        m.ndcg.toFixed(4)
      }  ${m.mrr.toFixed(4)}`,
    );
  }
  return lines.join("\n") + "\n";
}
