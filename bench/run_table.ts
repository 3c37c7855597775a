/**
 * The table `bench/run.ts` prints: one row per measurement of every suite,
 * from the rows its `report()` calls wrote, else from its `Deno.bench`
 * results (each against its group's baseline), plus a row for each suite
 * skipped on this machine or crashed.
 */
import { formatAmount, type ReportRow, withUnit } from "./_report.ts";

/** One `Deno.bench` result, as `deno bench --json` gives it. */
export interface BenchResult {
  name: string;
  group: string | null;
  baseline: boolean;
  /** Mean time per iteration; absent when the bench failed. */
  avgNs?: number;
}

/** What one suite's process left behind. */
export interface SuiteOutcome {
  suite: string;
  rows: ReportRow[];
  benches: BenchResult[];
  /** How the process failed (`exit code 1`, `signal SIGABRT`), when it did. */
  failure?: string;
}

const HEADER = ["suite", "target", "measured", "baseline", "ratio", "goal", "met?"];

/** `deno bench --json` output: the benches of its last JSON document. */
export function parseBenchJson(json: string): BenchResult[] {
  type Raw = {
    name: string;
    group: string | null;
    baseline: boolean;
    results: { ok?: { avg: number } }[];
  };
  const { benches } = JSON.parse(json) as { benches: Raw[] };
  return benches.map(({ name, group, baseline, results }) => ({
    name,
    group,
    baseline,
    avgNs: results[0]?.ok?.avg,
  }));
}

/** Whether a suite skipped itself (`skipSuite`): listed as skipped, not as a crash. */
export function skippedSuite(outcome: SuiteOutcome): string | undefined {
  return outcome.rows.find((row) => row.suite)?.skipped;
}

function duration(ns: number): string {
  if (ns >= 1e9) return `${formatAmount(ns / 1e9)} s`;
  if (ns >= 1e6) return `${formatAmount(ns / 1e6)} ms`;
  return `${formatAmount(ns / 1e3)} µs`;
}

function reportCells(row: ReportRow): string[] {
  if (row.skipped !== undefined) return [row.target, `skipped: ${row.skipped}`, "", "", "", ""];
  const { value, baseline, ratio } = row;
  const met = row.met === undefined ? "" : row.met ? "yes" : "no";
  return [
    row.target,
    value ? `${value.label} ${withUnit(value.amount, value.unit)}` : "",
    baseline && value ? `${baseline.label} ${withUnit(baseline.amount, value.unit)}` : "",
    ratio === undefined ? "" : ratio.toFixed(2),
    row.goal ?? "",
    met,
  ];
}

/** Each bench against its group's baseline; benches without one stand alone. */
function benchCells(benches: readonly BenchResult[]): string[][] {
  return benches.filter((bench) => !bench.baseline).map((bench) => {
    const base = benches.find((b) => b.baseline && b.group !== null && b.group === bench.group);
    const time = (b: BenchResult) => b.avgNs === undefined ? "failed" : duration(b.avgNs);
    const ratio = base?.avgNs && bench.avgNs !== undefined ? bench.avgNs / base.avgNs : undefined;
    return [
      bench.group && !bench.name.startsWith(`${bench.group}:`)
        ? `${bench.group}: ${bench.name}`
        : bench.name,
      time(bench),
      base ? `${base.name} ${time(base)}` : "",
      ratio === undefined ? "" : ratio.toFixed(2),
      "",
      "",
    ];
  });
}

/** The rows of one suite, each starting with the suite's name. */
export function suiteRows(outcome: SuiteOutcome): string[][] {
  const skip = skippedSuite(outcome);
  if (skip !== undefined) return [[outcome.suite, "", `skipped: ${skip}`, "", "", "", ""]];
  const reported = outcome.rows.map(reportCells);
  const cells = reported.length > 0 ? reported : benchCells(outcome.benches);
  if (outcome.failure) cells.push(["", `crashed: ${outcome.failure}`, "", "", "", ""]);
  else if (cells.length === 0) cells.push(["", "nothing measured", "", "", "", ""]);
  return cells.map((row) => [outcome.suite, ...row]);
}

/** One Markdown table over every suite, in the order they ran. */
export function benchTable(outcomes: readonly SuiteOutcome[]): string {
  const escape = (cell: string) => cell.replaceAll("|", "\\|");
  const lines = [HEADER, HEADER.map(() => "---"), ...outcomes.flatMap(suiteRows)];
  return lines.map((cells) => `| ${cells.map(escape).join(" | ")} |`).join("\n");
}
