import type { BaselineReport } from "./compare_to_baseline.ts";
import { isRecord, malformed, readJson } from "./read_json.ts";
import type { Metrics } from "./score_query.ts";

/**
 * Reads a report written earlier, to serve as a gate's baseline. Besides our
 * own format it accepts query groups given as a list of `{name, queryCount,
 * metrics}`, as the peer project writes them.
 *
 * @param path The JSON report.
 * @returns The runs' overall and per-group metrics.
 * @throws {WayfinderError} "io" when unreadable, "input" when it is not a report.
 */
export async function loadReport(path: string): Promise<BaselineReport> {
  const data = await readJson(path, "baseline");
  const fail = malformed("baseline", path);
  if (!isRecord(data) || !Array.isArray(data.runs)) fail("expected a report with a list of runs");
  const report = data as Record<string, unknown>;
  const metricsOf = (value: unknown, where: string): Metrics => {
    if (!isRecord(value)) fail(`${where} has no metrics`);
    const m = value as Record<string, unknown>;
    for (const name of ["recall", "ndcg", "mrr"]) {
      if (typeof m[name] !== "number") fail(`${where} has no numeric ${name}`);
    }
    return { recall: m.recall as number, ndcg: m.ndcg as number, mrr: m.mrr as number };
  };
  const runs = (report.runs as unknown[]).map((value, i) => {
    if (!isRecord(value) || typeof value.name !== "string") fail(`run ${i + 1} has no name`);
    const run = value as Record<string, unknown>;
    const name = run.name as string;
    const groups: Record<string, { queryCount?: number; metrics: Metrics }> = {};
    const entries: [string, unknown][] = Array.isArray(run.queryGroups)
      ? run.queryGroups.map((g: unknown) => [isRecord(g) ? String(g.name) : "", g])
      : isRecord(run.queryGroups)
      ? Object.entries(run.queryGroups)
      : [];
    for (const [group, g] of entries) {
      const where = `run '${name}' group '${group}'`;
      if (!isRecord(g)) fail(`${where} is not an object`);
      const count = (g as Record<string, unknown>).queryCount;
      groups[group] = {
        queryCount: typeof count === "number" ? count : undefined,
        metrics: metricsOf((g as Record<string, unknown>).metrics, where),
      };
    }
    return { name, metrics: metricsOf(run.metrics, `run '${name}'`), queryGroups: groups };
  });
  return {
    k: typeof report.k === "number" ? report.k : undefined,
    match: typeof report.match === "string" ? report.match : undefined,
    unit: typeof report.unit === "string" ? report.unit : undefined,
    runs,
  };
}
