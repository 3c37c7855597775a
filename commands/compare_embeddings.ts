import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { WayfinderError } from "../src/error.ts";
import { createCodeChunker } from "../src/chunk/mod.ts";
import {
  compareToBaseline,
  type EvalRun,
  loadGroups,
  loadQrels,
  loadQueries,
  loadReport,
  loadSpanQrels,
  type Report,
  runEvaluation,
} from "../src/eval/mod.ts";
import { indexCorpus } from "../src/pipeline/mod.ts";
import { searchIndex } from "../src/search/mod.ts";
import { dataRootFrom, indexDirFor, openIndex } from "../src/store/mod.ts";
import { type Embedder, identityFingerprint } from "../src/embed/mod.ts";
import type { Config } from "../src/config/mod.ts";
import { type Command, type CommandContext, printJson } from "./_command.ts";
import { openEmbedder } from "./_wiring.ts";

/** Run names users may ask for, and the search mode behind each. */
const RUN_MODES = { dense: "dense", bm25: "lexical", hybrid: "hybrid" } as const;
type RunName = keyof typeof RUN_MODES;

/** `wayfinder compare-embeddings`: retrieval metrics on judged queries, and the regression gate. */
export const compareEmbeddingsCommand: Command = {
  spec: {
    name: "compare-embeddings",
    summary:
      "Measure Recall@k, nDCG@k and MRR on judged queries; with a baseline, fail (exit 1) on regressions",
    positionals: [],
    settings: [
      "corpus",
      "queries",
      "qrels",
      "queryGroups",
      "top",
      "embedders",
      "qrelsMatch",
      "unit",
      "metricsOutput",
      "baselineMetrics",
      "maxRecallDrop",
      "maxNdcgDrop",
      "maxMrrDrop",
      "output",
      "debug",
      "dataDir",
      "indexDir",
      "model",
      "embedder",
      "embedderUrl",
      "embedderApiKeyEnv",
      "embedderTimeoutMs",
      "threads",
      "batchSize",
      "longInput",
      "maxChunkChars",
    ],
  },
  async run(config, context) {
    const s = config.settings;
    for (const key of ["corpus", "queries", "qrels"] as const) {
      if (!s[key]) throw new WayfinderError("usage", `compare-embeddings needs --${key}`);
    }
    const runs = s.embedders.map((name) => {
      if (!(name in RUN_MODES)) {
        throw new WayfinderError(
          "usage",
          `Unknown run '${name}' in --embedders; expected ${Object.keys(RUN_MODES).join(", ")}`,
        );
      }
      return name as RunName;
    });
    const queries = await loadQueries(s.queries!);
    const spanShaped = await isSpanQrels(s.qrels!);
    const match = s.qrelsMatch ?? (spanShaped ? "span-overlap" : "stable-id");
    if ((match === "span-overlap") !== spanShaped) {
      throw new WayfinderError(
        "input",
        `Cannot use --qrels-match ${match} with '${s.qrels}': it holds ${
          spanShaped ? "span" : "chunk-id"
        } judgments`,
      );
    }
    const judgments = spanShaped ? await loadSpanQrels(s.qrels!) : await loadQrels(s.qrels!);
    const groups = s.queryGroups ? await loadGroups(s.queryGroups) : undefined;
    const baseline = s.baselineMetrics ? await loadReport(s.baselineMetrics) : undefined;

    const embedder = await openEmbedder(config, context);
    let report: Report;
    try {
      const index = await indexForEvaluation(config, context, embedder);
      const chunkPaths = new Map(index.chunks.map((c) => [c.id, c.sourcePath]));
      const evalRuns: EvalRun[] = runs.map((name) => ({
        name,
        search: async (query, k) => {
          const mode = RUN_MODES[name];
          const vector = mode === "lexical" ? null : await embedder.embedQuery(query);
          return searchIndex(index, vector, query, { limit: k, mode }).matches;
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

async function isSpanQrels(path: string): Promise<boolean> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new WayfinderError("input", `Cannot read qrels '${path}': ${(error as Error).message}`);
  }
  const first = typeof data === "object" && data !== null ? Object.values(data)[0] : undefined;
  return Array.isArray(first);
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
    chunker: await createCodeChunker(),
    maxChunkChars: s.maxChunkChars,
    longInput: s.longInput,
  });
  const index = await openIndex(indexDir);
  if (!index) throw new WayfinderError("io", `Cannot open the index just built at '${indexDir}'`);
  return index;
}

function formatTable(report: Report): string {
  const lines = [
    `k=${report.k}  match=${report.match}  unit=${report.unit}`,
    "run        queries  recall   ndcg     mrr",
  ];
  for (const run of report.runs) {
    const m = run.metrics;
    lines.push(
      `${run.name.padEnd(10)} ${String(run.queryCount).padStart(7)}  ${m.recall.toFixed(4)}  ${
        m.ndcg.toFixed(4)
      }  ${m.mrr.toFixed(4)}`,
    );
  }
  return lines.join("\n") + "\n";
}
