import { WayfinderError } from "../error.ts";
import type { Hit } from "../types.ts";
import type { QueryGroups } from "./load_groups.ts";
import type { Qrels } from "./load_qrels.ts";
import type { Queries } from "./load_queries.ts";
import type { SpanQrels } from "./load_span_qrels.ts";
import {
  type EvalUnit,
  type Metrics,
  type QrelsMatch,
  type QueryScore,
  scoreQuery,
} from "./score_query.ts";
import { validateEvalInput } from "./validate_eval_input.ts";

/** A named retrieval system under evaluation. */
export interface EvalRun {
  name: string;
  /** Returns up to `k` hits for a query, best first. */
  search: (query: string, k: number) => Promise<Hit[]>;
}

/** What to evaluate and how. */
export interface EvaluationInput {
  queries: Queries;
  /** Chunk-id qrels for "stable-id", span qrels for "span-overlap". */
  judgments: Qrels | SpanQrels;
  runs: EvalRun[];
  /** Cut-off rank. @default 10 */
  k?: number;
  /** @default "stable-id" */
  match?: QrelsMatch;
  /** @default "chunk" */
  unit?: EvalUnit;
  /** Group of each query; metrics are then also averaged per group. */
  groups?: QueryGroups;
  /** Source path of a judged chunk id; required for stable-id matching in file unit. */
  pathOf?: (chunkId: string) => string | undefined;
  /**
   * In file unit each run is asked for k × this many chunks, so that k
   * distinct files can still be ranked when a file has several hits. @default 4
   */
  fileDepth?: number;
}

/** Mean metrics over a set of queries. */
export interface GroupReport {
  queryCount: number;
  metrics: Metrics;
}

/** One run's results. */
export interface RunReport {
  name: string;
  queryCount: number;
  /** Means over all queries. */
  metrics: Metrics;
  queries: Record<string, QueryScore>;
  /** Means per query group; empty without groups. */
  queryGroups: Record<string, GroupReport>;
}

/** The evaluation report, written as JSON and read back as a gate's baseline. */
export interface Report {
  k: number;
  match: QrelsMatch;
  unit: EvalUnit;
  runs: RunReport[];
}

function mean(scores: Metrics[]): Metrics {
  const n = scores.length || 1;
  const sum = (f: (m: Metrics) => number) => scores.reduce((s, m) => s + f(m), 0) / n;
  return { recall: sum((m) => m.recall), ndcg: sum((m) => m.ndcg), mrr: sum((m) => m.mrr) };
}

/**
 * Runs every query through every run and scores the rankings: Recall@k,
 * nDCG@k (linear gain) and MRR@k, per query, overall and per query group.
 * Queries run one at a time, in file order, so runs may share an embedder.
 *
 * @param input Queries, judgments, runs and the matching settings.
 * @returns The report.
 * @throws {WayfinderError} "input" when queries, judgments and groups disagree
 * or judgments do not fit the match; "usage" on a bad k or run names.
 *
 * @example Score a run that finds the judged chunk first
 * ```ts
 * import assert from "node:assert/strict";
 * import { runEvaluation } from "./mod.ts";
 * const chunk = {
 *   id: "c1", sourcePath: "a.ts", lineStart: 1, lineEnd: 3, startOffset: 0, endOffset: 1,
 *   type: "function", language: "typescript", content: "x", metadata: {},
 * };
 * const report = await runEvaluation({
 *   queries: { q1: "find x" },
 *   judgments: { q1: { c1: 2 } },
 *   runs: [{ name: "fixed", search: () => Promise.resolve([{ chunk, score: 1, similarity: 1 }]) }],
 * });
 * assert.deepEqual(report.runs[0].metrics, { recall: 1, ndcg: 1, mrr: 1 });
 * ```
 */
export async function runEvaluation(input: EvaluationInput): Promise<Report> {
  const k = input.k ?? 10;
  const match = input.match ?? "stable-id";
  const unit = input.unit ?? "chunk";
  const fileDepth = input.fileDepth ?? 4;
  if (!Number.isInteger(k) || k < 1) {
    throw new WayfinderError("usage", `Cannot evaluate: k must be a positive integer, got ${k}`);
  }
  const names = input.runs.map((r) => r.name);
  const twice = names.filter((name, i) => names.indexOf(name) !== i);
  if (twice.length) {
    throw new WayfinderError(
      "usage",
      `Cannot evaluate: run names must differ, '${twice[0]}' repeats`,
    );
  }
  validateEvalInput(input.queries, input.judgments, input.groups);
  const judged = input.judgments as Record<string, Record<string, number> | SpanJudgmentList>;
  const depth = unit === "file" ? k * fileDepth : k;
  const runs: RunReport[] = [];
  for (const run of input.runs) {
    const queries: Record<string, QueryScore> = {};
    for (const [qid, text] of Object.entries(input.queries)) {
      const hits = await run.search(text, depth);
      queries[qid] = scoreQuery(hits, judged[qid], { k, match, unit, pathOf: input.pathOf });
    }
    const byGroup = new Map<string, Metrics[]>();
    if (input.groups) {
      for (const [qid, score] of Object.entries(queries)) {
        const group = input.groups[qid];
        byGroup.set(group, [...(byGroup.get(group) ?? []), score]);
      }
    }
    const scores = Object.values(queries);
    runs.push({
      name: run.name,
      queryCount: scores.length,
      metrics: mean(scores),
      queries,
      queryGroups: Object.fromEntries(
        [...byGroup].map(([group, s]) => [group, { queryCount: s.length, metrics: mean(s) }]),
      ),
    });
  }
  return { k, match, unit, runs };
}

type SpanJudgmentList = SpanQrels[string];
