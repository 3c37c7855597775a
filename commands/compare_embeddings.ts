import { WayfinderError } from "../src/mod.ts";
import {
  compareToBaseline,
  type Config,
  escapeLine,
  evaluateCorpus,
  loadAnnotations,
  loadGroups,
  loadJudgments,
  loadQueries,
  loadReport,
  parseRun,
  plural,
  type Report,
  type TruncatedQuery,
  type UnmatchedJudgment,
} from "../src/cli/mod.ts";
import { writeFile } from "node:fs/promises";
import { type Command, type CommandContext, printResult } from "./_command.ts";
import {
  CHUNKING_SETTINGS,
  corpusOptions,
  EMBEDDER_SETTINGS,
  embedderSettings,
  INDEX_SETTINGS,
  rerankerSettings,
} from "./_wiring.ts";

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
      ...CHUNKING_SETTINGS,
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
    ],
  },
  async run(config, context) {
    const s = config.settings;
    const { baseline, ...inputs } = await readInputs(config);
    const own = corpusConfig(config, context);
    const { embedder: _embedder, reranker: _reranker, ...corpus } = corpusOptions(own, context);
    const report = await evaluateCorpus(s.corpus!, {
      ...inputs,
      k: s.top,
      unit: s.unit,
      corpus,
      embedder: embedderSettings(own, context),
      reranker: rerankerSettings(own),
    });
    // The baseline was read before this write: the same file may be both (commit the new report).
    if (s.metricsOutput) await writeFile(s.metricsOutput, JSON.stringify(report, null, 2) + "\n");
    const regressions = baseline
      ? compareToBaseline(report, baseline, {
        maxRecallDrop: s.maxRecallDrop,
        maxNdcgDrop: s.maxNdcgDrop,
        maxMrrDrop: s.maxMrrDrop,
      })
      : [];
    printResult(context, s.output, { ...report, regressions }, () => formatTable(report));
    warnUnmatched(context, report.unmatchedJudgments);
    warnTruncated(context, report.truncatedQueries);
    for (const r of regressions) {
      const current = r.current === null ? "missing" : r.current.toFixed(4);
      context.stderr(
        `regression: ${r.run} ${r.group} ${r.metric} ${r.baseline.toFixed(4)} → ${current} ` +
          `(drop ${r.drop.toFixed(4)} > allowed ${r.allowed})\n`,
      );
    }
    if (baseline) {
      context.stderr(
        regressions.length
          ? `Gate failed: ${plural(regressions.length, "regression")}\n`
          : "Gate passed\n",
      );
    }
    return regressions.length ? 1 : 0;
  },
};

/**
 * The settings over the corpus's own wayfinder.json, as `index <corpus>`
 * reads them: the evaluation indexes exactly what `index` would (its
 * include and exclude globs keep a judged-queries folder out, say).
 */
function corpusConfig(config: Config, context: CommandContext): Config {
  const own = config.forTarget(config.settings.corpus!);
  if (own.configFile !== config.configFile) {
    for (const warning of own.warnings) {
      context.stderr(`wayfinder: warning: ${escapeLine(warning)}\n`);
    }
  }
  return own;
}

/** The runs, queries, judgments and groups, read and checked against each other before any model loads. */
async function readInputs(config: Config) {
  const s = config.settings;
  for (const key of ["corpus", "queries"] as const) {
    if (!s[key]) throw new WayfinderError("usage", `compare-embeddings needs --${key}`);
  }
  // A repeated flag arrives as a list without comma splitting (globs elsewhere hold commas).
  const runs = s.embedders.flatMap((names) => names.split(",")).map((name) => name.trim())
    .filter(Boolean).map(parseRun);
  if (runs.length === 0) throw new WayfinderError("usage", "--embedders names no run");
  // The benchmark's annotations carry queries, judgments and categories in one file.
  const annotations = await loadAnnotations(s.queries!);
  if (annotations && s.qrels) {
    throw new WayfinderError(
      "usage",
      `--qrels is not taken with '${s.queries}': its annotations hold the judgments`,
    );
  }
  if (!annotations && !s.qrels) {
    throw new WayfinderError("usage", "compare-embeddings needs --qrels");
  }
  const queries = annotations?.queries ?? await loadQueries(s.queries!);
  const { match: shape, judgments } = annotations
    ? { match: "span-overlap" as const, judgments: annotations.judgments }
    : await loadJudgments(s.qrels!);
  const match = s.qrelsMatch ?? shape;
  if (match !== shape) {
    throw new WayfinderError(
      "input",
      `Cannot use --qrels-match ${match} with '${s.qrels}': it holds ${
        shape === "span-overlap" ? "span" : "chunk-id"
      } judgments`,
    );
  }
  const groups = s.queryGroups ? await loadGroups(s.queryGroups) : annotations?.groups;
  const baseline = s.baselineMetrics ? await loadReport(s.baselineMetrics) : undefined;
  if (baseline?.k !== undefined && baseline.k !== s.top) {
    throw new WayfinderError(
      "input",
      `Cannot compare with the baseline: it has k ${baseline.k}, this run --top ${s.top}`,
    );
  }
  return { runs, queries, judgments, match, groups, baseline };
}

/** How many unmatched judgments or cut queries a warning names before summarising the rest. */
const LISTED = 5;

/** The first few items, then how many more. */
function listed(items: string[]): string {
  const shown = items.slice(0, LISTED);
  if (items.length > LISTED) shown.push(`and ${items.length - LISTED} more`);
  return escapeLine(shown.join(", "));
}

/**
 * One warning for judgments nothing in the corpus matches: each counts as a
 * miss, so a renamed or excluded file must not lower the scores unnoticed.
 */
function warnUnmatched(context: CommandContext, unmatched: readonly UnmatchedJudgment[]): void {
  if (unmatched.length === 0) return;
  const what = unmatched.length === 1
    ? "relevant judgment matches nothing in the corpus and counts as a miss"
    : "relevant judgments match nothing in the corpus and count as misses";
  context.stderr(
    `wayfinder: warning: ${unmatched.length} ${what} (renamed, moved or excluded?): ` +
      `${listed(unmatched.map((u) => `${u.query} ${u.judgment}`))}\n`,
  );
}

/**
 * One warning for queries cut to the model's budget (`--long-input
 * truncate`): dense and hybrid runs score them by their start only.
 */
function warnTruncated(context: CommandContext, truncated: readonly TruncatedQuery[]): void {
  if (truncated.length === 0) return;
  const what = truncated.length === 1 ? "query is longer" : "queries are longer";
  const cut = truncated.length === 1 ? "was cut" : "were cut";
  context.stderr(
    `wayfinder: warning: ${truncated.length} ${what} than the ${truncated[0]!.maxTokens} tokens ` +
      `the model takes and ${cut} to them for embedding: ` +
      `${listed(truncated.map((t) => `${t.query} (${t.tokens} tokens)`))}\n`,
  );
}

function formatTable(report: Report): string {
  const width = Math.max(
    10,
    ...report.runs.flatMap((
      run,
    ) => [run.name, ...Object.keys(run.queryGroups).map((g) => `  ${g}`)])
      .map((name) => name.length),
  );
  const lines = [
    `k=${report.k}  match=${report.match}  unit=${report.unit}`,
    `${"run".padEnd(width)} queries  recall   ndcg     mrr`,
  ];
  const row = (name: string, count: number, m: Report["runs"][number]["metrics"]) =>
    `${name.padEnd(width)} ${String(count).padStart(7)}  ${m.recall.toFixed(4)}  ${
      m.ndcg.toFixed(4)
    }  ${m.mrr.toFixed(4)}`;
  for (const run of report.runs) {
    lines.push(row(run.name, run.queryCount, run.metrics));
    // Per query group (the benchmark's categories), indented under the run.
    for (const [group, g] of Object.entries(run.queryGroups).sort(([a], [b]) => a < b ? -1 : 1)) {
      lines.push(row(`  ${group}`, g.queryCount, g.metrics));
    }
  }
  return lines.join("\n") + "\n";
}
