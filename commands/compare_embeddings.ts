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
import {
  type Corpus,
  type CorpusSearchOptions,
  openCorpus,
  openEmbedder,
  openReranker,
} from "../src/corpus/mod.ts";
import { indexDirFor } from "../src/store/mod.ts";
import { type Embedder, identityFingerprint } from "../src/embed/mod.ts";
import type { Config } from "../src/config/mod.ts";
import { type Command, type CommandContext, printResult } from "./_command.ts";
import {
  corpusOptions,
  EMBEDDER_SETTINGS,
  embedderSettings,
  INDEX_SETTINGS,
  locationsOf,
  rerankerSettings,
} from "./_wiring.ts";

/** Base runs users may ask for, and the search mode behind each; `bm25` is an alias of `lexical`. */
const RUN_MODES = {
  dense: "dense",
  lexical: "lexical",
  bm25: "lexical",
  hybrid: "hybrid",
} as const;
/** Prefixes that stack a searcher on a run: `rerank:hybrid`, `diverse:dense`, `expand:rerank:hybrid`. */
const MODIFIERS = ["rerank", "diverse", "expand"] as const;
/** Candidates a rerank run's cross-encoder rescores (at least k). */
const RERANK_DEPTH = 50;

/** A run as asked for: its name, and the searcher stack it stands for. */
interface Run {
  name: string;
  options: CorpusSearchOptions;
}

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
      "rerankerUrl",
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
    const input = await readInputs(config);
    const report = await evaluate(config, context, input);
    if (s.metricsOutput) await writeFile(s.metricsOutput, JSON.stringify(report, null, 2) + "\n");
    const baseline = s.baselineMetrics ? await loadReport(s.baselineMetrics) : undefined;
    const regressions = baseline
      ? compareToBaseline(report, baseline, {
        maxRecallDrop: s.maxRecallDrop,
        maxNdcgDrop: s.maxNdcgDrop,
        maxMrrDrop: s.maxMrrDrop,
      })
      : [];
    printResult(context, s.output, { ...report, regressions }, () => formatTable(report));
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

/** The runs, queries, judgments and groups, read and checked against each other before any model loads. */
async function readInputs(config: Config) {
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
  return { runs, queries, judgments, match, groups };
}

/** Indexes the corpus through the front door and scores every run's searcher. */
async function evaluate(
  config: Config,
  context: CommandContext,
  input: Awaited<ReturnType<typeof readInputs>>,
): Promise<Report> {
  const s = config.settings;
  // Opened before the embedder, so a missing --reranker fails before any indexing.
  const rerankRun = input.runs.find((run) => run.options.rerank);
  const reranker = rerankRun ? await openReranker(rerankerSettings(config), rerankRun.name) : null;
  const embedder = await openEmbedder(embedderSettings(config, context), locationsOf(context))
    .catch(async (error) => {
      await reranker?.close();
      throw error;
    });
  try {
    const corpus = await openCorpus(s.corpus!, {
      ...corpusOptions(config, context),
      indexDir: evaluationIndexDir(config, embedder),
      embedder,
      reranker: reranker ?? undefined,
    });
    try {
      await corpus.index();
      const searchers = await Promise.all(input.runs.map((run) => corpus.searcher(run.options)));
      const chunkPaths = new Map((await corpus.open()).chunks.map((c) => [c.id, c.sourcePath]));
      return await runEvaluation({
        ...input,
        runs: input.runs.map((run, i) => evalRun(run, searchers[i])),
        k: s.top,
        unit: s.unit,
        pathOf: (id) => chunkPaths.get(id),
      });
    } finally {
      await corpus.close();
    }
  } finally {
    await reranker?.close();
    await embedder.close();
  }
}

/** `dense`, `lexical`, `hybrid` (or `bm25`), each optionally behind `rerank:`, `diverse:`, `expand:`. */
function parseRun(name: string): Run {
  const parts = name.split(":");
  const base = parts.pop()!;
  const unknown = parts.find((p) => !(MODIFIERS as readonly string[]).includes(p));
  if (!(base in RUN_MODES) || unknown !== undefined) {
    throw new WayfinderError(
      "usage",
      `Unknown run '${name}' in --embedders; expected ${
        Object.keys(RUN_MODES).join(", ")
      }, optionally prefixed by ${MODIFIERS.map((m) => `${m}:`).join(", ")}`,
    );
  }
  return {
    name,
    options: {
      mode: RUN_MODES[base as keyof typeof RUN_MODES],
      rerank: parts.includes("rerank") ? RERANK_DEPTH : undefined,
      diverse: parts.includes("diverse"),
      expand: parts.includes("expand"),
    },
  };
}

/** A run's searcher as the evaluation calls it. */
function evalRun(run: Run, searcher: Awaited<ReturnType<Corpus["searcher"]>>): EvalRun {
  return {
    name: run.name,
    search: async (query, k) => (await searcher.search({ query, limit: k })).matches,
  };
}

/**
 * Evaluation indexes live apart from `index`'s, one per model identity, so
 * comparing models never invalidates the user's index and repeated runs
 * reuse vectors.
 */
function evaluationIndexDir(config: Config, embedder: Embedder): string {
  const s = config.settings;
  const fingerprint = identityFingerprint(embedder.identity).slice(0, 12);
  return s.indexDir ?? indexDirFor(join(s.dataDir, "eval", fingerprint), s.corpus!);
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
