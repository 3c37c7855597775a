import { WayfinderError } from "../error.ts";
import type { Metrics } from "./score_query.ts";

/** The part of a report the gate reads; a `Report` is one. */
export interface BaselineReport {
  k?: number;
  match?: string;
  unit?: string;
  runs: {
    name: string;
    metrics: Metrics;
    queryGroups?: Record<string, { queryCount?: number; metrics: Metrics }>;
  }[];
}

/** Largest drops tolerated, in absolute metric points (0..1). */
export interface GateOptions {
  /** @default 0.05 */
  maxRecallDrop?: number;
  /** @default 0.03 */
  maxNdcgDrop?: number;
  /** MRR is gated only when this is set. @default undefined */
  maxMrrDrop?: number;
}

/** A metric that fell further than allowed, or a run or group that went missing. */
export interface Regression {
  run: string;
  /** A query group, or "overall". */
  group: string;
  metric: keyof Metrics;
  baseline: number;
  /** null when the run or group is absent from the current report. */
  current: number | null;
  /** baseline − current (the whole baseline when absent). */
  drop: number;
  allowed: number;
}

/** Room for float noise, so a drop exactly at the tolerance passes. */
const EPSILON = 1e-9;

/**
 * Compares a report with a baseline run by run (matched by name) and group
 * by group. A run or group of the baseline missing from the report is a
 * regression of each gated metric. Runs only in the report are new and pass.
 *
 * @param report The current report.
 * @param baseline A report from before.
 * @param options Tolerated drops.
 * @returns The regressions; empty when the gate passes.
 * @throws {WayfinderError} "input" when the two were made at different k, match or unit.
 *
 * @example A small drop within tolerance passes
 * ```ts
 * import assert from "node:assert/strict";
 * import { compareToBaseline } from "./mod.ts";
 * const at = (recall: number) => ({ runs: [{ name: "dense", metrics: { recall, ndcg: 0.8, mrr: 0.9 } }] });
 * assert.deepEqual(compareToBaseline(at(0.88), at(0.9)), []);
 * assert.equal(compareToBaseline(at(0.8), at(0.9))[0].metric, "recall");
 * ```
 */
export function compareToBaseline(
  report: BaselineReport,
  baseline: BaselineReport,
  options: GateOptions = {},
): Regression[] {
  for (const field of ["k", "match", "unit"] as const) {
    const [now, before] = [report[field], baseline[field]];
    if (now !== undefined && before !== undefined && now !== before) {
      throw new WayfinderError(
        "input",
        `Cannot compare with the baseline: it has ${field} ${before}, this report ${now}`,
      );
    }
  }
  const allowed: [keyof Metrics, number][] = [
    ["recall", options.maxRecallDrop ?? 0.05],
    ["ndcg", options.maxNdcgDrop ?? 0.03],
  ];
  if (options.maxMrrDrop !== undefined) allowed.push(["mrr", options.maxMrrDrop]);

  const regressions: Regression[] = [];
  const check = (run: string, group: string, before: Metrics, now: Metrics | undefined) => {
    for (const [metric, limit] of allowed) {
      const current = now ? now[metric] : null;
      const drop = before[metric] - (current ?? 0);
      if (current === null || drop > limit + EPSILON) {
        regressions.push({
          run,
          group,
          metric,
          baseline: before[metric],
          current,
          drop,
          allowed: limit,
        });
      }
    }
  };
  for (const before of baseline.runs) {
    const now = report.runs.find((r) => sameRun(r.name, before.name));
    check(before.name, "overall", before.metrics, now?.metrics);
    for (const [group, g] of Object.entries(before.queryGroups ?? {})) {
      check(before.name, group, g.metrics, now?.queryGroups?.[group]?.metrics);
    }
  }
  return regressions;
}

/** Run names as the gate matches them: `bm25` is another word for `lexical`. */
function sameRun(a: string, b: string): boolean {
  const canonical = (name: string) => name.replace(/(^|:)bm25$/, "$1lexical");
  return canonical(a) === canonical(b);
}
