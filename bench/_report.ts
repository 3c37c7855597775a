/**
 * How bench suites report: one line per measurement on stdout for a person,
 * and, when `bench/run.ts` runs the suite, the same measurement as a JSON
 * row appended to the file `$WAYFINDER_BENCH_REPORT` names, for its table.
 */
import { appendFileSync } from "node:fs";

/** One measurement of a suite, or why it (or a part of it) could not run. */
export interface ReportRow {
  target: string;
  value?: { label: string; amount: number; unit: string };
  baseline?: { label: string; amount: number };
  ratio?: number;
  goal?: string;
  /** Whether the ratio meets the goal's leading `target ≤ N` or `target ≥ N`, when it has one. */
  met?: boolean;
  /** Why this measurement, or with `suite`, the whole suite, was skipped. */
  skipped?: string;
  suite?: boolean;
}

const REPORT_FILE = Deno.env.get("WAYFINDER_BENCH_REPORT");

function record(row: ReportRow): void {
  if (REPORT_FILE) appendFileSync(REPORT_FILE, `${JSON.stringify(row)}\n`);
}

/** Median of a list of numbers. */
export function median(values: number[]): number {
  const sorted = values.slice().sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Whether `ratio` meets a goal that starts `target ≤ N` or `target ≥ N`; undefined for others. */
export function meetsGoal(goal: string, ratio: number): boolean | undefined {
  const found = /^target ([≤≥]) ([\d.]+)/.exec(goal);
  if (!found) return undefined;
  return found[1] === "≤" ? ratio <= Number(found[2]) : ratio >= Number(found[2]);
}

/** A number with three significant digits or so, as the table and the lines print it. */
export function formatAmount(n: number): string {
  if (n >= 1000) return Math.round(n).toLocaleString("en");
  return n.toFixed(n >= 100 ? 0 : n >= 10 ? 1 : n >= 1 ? 2 : 3);
}

/** An amount and its unit, as the lines and the table print it. */
export function withUnit(amount: number, unit: string): string {
  return unit ? `${formatAmount(amount)} ${unit}` : formatAmount(amount);
}

/**
 * One result: the value, its baseline and their ratio, against the goal.
 * A goal starting `target ≤ N` or `target ≥ N` is checked against the ratio.
 */
export function report(
  target: string,
  value: { label: string; amount: number; unit: string },
  baseline: { label: string; amount: number },
  goal: string,
): void {
  const ratio = value.amount / baseline.amount;
  console.log(
    `${target}: ${value.label} ${withUnit(value.amount, value.unit)}, baseline ` +
      `${baseline.label} ${withUnit(baseline.amount, value.unit)}, ratio ${ratio.toFixed(2)} ` +
      `(${goal})`,
  );
  record({ target, value, baseline, ratio, goal, met: meetsGoal(goal, ratio) });
}

/** A measurement this machine cannot make (no real index, say), and why. */
export function skipped(target: string, reason: string): void {
  console.log(`${target}: skipped, ${reason}`);
  record({ target, skipped: reason });
}

/**
 * Ends a suite that cannot run here (no model, no python3): the runner lists
 * it as skipped, not failed. Throws, since a bench module cannot return.
 */
export function skipSuite(reason: string): never {
  record({ target: "(suite)", skipped: reason, suite: true });
  throw new Error(`skipped: ${reason}`);
}
