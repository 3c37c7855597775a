/**
 * The public code-search benchmark (MinishLab/semble's `benchmarks/`) read
 * from a folder laid out as that repository's data plus checkouts:
 *
 *   <folder>/repos.json               [{name, language, url, revision, benchmark_root?}]
 *   <folder>/annotations/<name>.json  [{query, relevant, secondary, category}]
 *   <folder>/results/*.json           published runs: {tool?, repos: [{repo, mode?, ndcg10, …}]}
 *   <folder>/repos/<name>/            a checkout at the pinned revision
 *
 * and scored per repository with `runEvaluation` (the benchmark's metric:
 * see `loadAnnotations`), then per category and per language.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { type Annotations, type EvalRun, loadAnnotations, runEvaluation } from "../src/eval/mod.ts";
import { RANKING_STEPS, type RankingOptions } from "../src/search/mod.ts";
import type { Hit } from "../src/types.ts";

/** Held back for independent measurement: never tuned on (issue 20). */
export const HELD_BACK = new Set([
  "axum",
  "chi",
  "cobra",
  "express",
  "fastapi",
  "fmtlib",
  "gson",
  "libuv",
  "model2vec",
  "rack",
  "serde",
  "zod",
]);

/** Which repositories a run covers. */
export type Split = "dev" | "held" | "all";

/** One repository of `repos.json`. */
export interface RepoSpec {
  name: string;
  language: string;
  revision: string;
  /** The folder inside the checkout that is indexed; annotation paths stay relative to the checkout. */
  benchmark_root?: string | null;
}

/** A repository ready to run: its spec, the folder to index and its annotations. */
export interface BenchRepo {
  spec: RepoSpec;
  root: string;
  annotations: Annotations;
}

/**
 * The benchmark folder (`given`, else `$WAYFINDER_CODE_SEARCH_BENCH`); without
 * one holding repos.json, the bench named `bench` says it is skipping and exits 0.
 */
export function benchFolder(given: string | undefined, bench: string): string {
  const folder = given ?? Deno.env.get("WAYFINDER_CODE_SEARCH_BENCH");
  if (folder && existsSync(join(folder, "repos.json"))) return folder;
  console.log(
    `${bench}: skipping, no benchmark folder${
      folder ? ` at ${folder}` : ""
    } (give FOLDER or $WAYFINDER_CODE_SEARCH_BENCH: repos.json, annotations/, results/, repos/<name>/)`,
  );
  Deno.exit(0);
}

/** The repositories of `folder` in `split` with a checkout and annotations, by name; `only` narrows them. */
export async function benchRepos(
  folder: string,
  split: Split,
  only: string[] = [],
): Promise<{ repos: BenchRepo[]; missing: string[] }> {
  const specs = JSON.parse(readFileSync(join(folder, "repos.json"), "utf8")) as RepoSpec[];
  const repos: BenchRepo[] = [];
  const missing: string[] = [];
  for (const spec of specs.sort((a, b) => a.name < b.name ? -1 : 1)) {
    const held = HELD_BACK.has(spec.name);
    if ((split === "dev" && held) || (split === "held" && !held)) continue;
    if (only.length && !only.includes(spec.name)) continue;
    const checkout = join(folder, "repos", spec.name);
    const file = join(folder, "annotations", `${spec.name}.json`);
    if (!existsSync(checkout) || !existsSync(file)) {
      missing.push(spec.name);
      continue;
    }
    const annotations = await loadAnnotations(file);
    if (!annotations) throw new Error(`${file} is not in the annotation format`);
    repos.push({ spec, root: join(checkout, spec.benchmark_root ?? ""), annotations });
  }
  return { repos, missing };
}

/** One repository's scores. */
export interface RepoScore {
  repo: string;
  language: string;
  queries: number;
  chunks: number;
  ndcg10: number;
  byCategory: Record<string, number>;
  indexMs: number;
  p50Ms: number;
  /** nDCG@10 of each query, by its text, for inspection. */
  perQuery: Record<string, number>;
}

/** Median of a non-empty list. */
export function median(values: number[]): number {
  const sorted = values.slice().sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Scores one repository's annotated queries with `search`, timing each query. */
export async function scoreRepo(
  repo: BenchRepo,
  search: (query: string, k: number) => Promise<Hit[]>,
  extra: { chunks: number; indexMs: number },
): Promise<RepoScore> {
  const latencies: number[] = [];
  const run: EvalRun = {
    name: "run",
    search: async (query, k) => {
      const started = performance.now();
      const hits = await search(query, k);
      latencies.push(performance.now() - started);
      return hits;
    },
  };
  const report = await runEvaluation({
    ...repo.annotations,
    match: "span-overlap",
    unit: "chunk",
    k: 10,
    runs: [run],
  });
  const result = report.runs[0]!;
  return {
    repo: repo.spec.name,
    language: repo.spec.language,
    queries: result.queryCount,
    chunks: extra.chunks,
    ndcg10: result.metrics.ndcg,
    byCategory: Object.fromEntries(
      Object.entries(result.queryGroups).map(([group, g]) => [group, g.metrics.ndcg]),
    ),
    indexMs: extra.indexMs,
    p50Ms: median(latencies),
    perQuery: Object.fromEntries(
      Object.entries(result.queries).map(([id, q]) => [repo.annotations.queries[id]!, q.ndcg]),
    ),
  };
}

/**
 * Published runs by name (`semble-hybrid`, `semble-ablations:semble-bm25`,
 * `coderankembed:hybrid`, …), each as nDCG@10 and per-category scores by
 * repository. A file's name without its trailing `-<sha>` names it when it has no `tool`.
 */
export function publishedRuns(
  folder: string,
): Map<string, Map<string, { ndcg10: number; byCategory: Record<string, number> }>> {
  const runs = new Map<
    string,
    Map<string, { ndcg10: number; byCategory: Record<string, number> }>
  >();
  const dir = join(folder, "results");
  if (!existsSync(dir)) return runs;
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
    let data: { tool?: string; repos?: unknown };
    try {
      data = JSON.parse(readFileSync(join(dir, file), "utf8"));
    } catch {
      continue;
    }
    if (!Array.isArray(data.repos)) continue;
    const tool = data.tool ?? (basename(file, ".json").replace(/-[0-9a-f]{12}$/, "") || "semble");
    for (const row of data.repos as Record<string, unknown>[]) {
      if (typeof row.repo !== "string" || typeof row.ndcg10 !== "number") continue;
      const name = typeof row.mode === "string" ? `${tool}:${row.mode}` : tool;
      if (!runs.has(name)) runs.set(name, new Map());
      runs.get(name)!.set(row.repo, {
        ndcg10: row.ndcg10,
        byCategory: (row.by_category ?? {}) as Record<string, number>,
      });
    }
  }
  return runs;
}

/** Mean of the values, or NaN for none. */
export function mean(values: number[]): number {
  return values.length ? values.reduce((s, v) => s + v, 0) / values.length : NaN;
}

/** Per-category means over repositories, as the benchmark summarises them (a repo's category mean counts once). */
export function categoryMeans(
  rows: { byCategory: Record<string, number> }[],
): Record<string, number> {
  const categories = [...new Set(rows.flatMap((r) => Object.keys(r.byCategory)))].sort();
  return Object.fromEntries(
    categories.map((c) => [
      c,
      mean(rows.map((r) => r.byCategory[c]).filter((v): v is number => v !== undefined)),
    ]),
  );
}

/** A published run's column name without its tool prefix: `semble-bm25`, not `semble-ablations:semble-bm25`. */
const shortName = (name: string) => name.replace(/^[^:]*:/, "");

const f3 = (v: number | undefined) => v === undefined || Number.isNaN(v) ? "    —" : v.toFixed(3);

/**
 * The table: one row per repository with our runs' nDCG@10, the published
 * runs' on the same repository, index time and query p50; then the means
 * over repositories, per category and per language.
 */
export function formatTable(
  ours: Map<string, RepoScore[]>,
  published: Map<string, Map<string, { ndcg10: number; byCategory: Record<string, number> }>>,
  compare: string[],
): string {
  const modes = [...ours.keys()];
  const first = ours.get(modes[0]!) ?? [];
  const names = first.map((r) => r.repo);
  const shown = compare.filter((c) => published.has(c));
  const cols = [...modes, ...shown];
  const width = Math.max(7, ...cols.map((c) => shortName(c).length));
  const head = (label: string) => shortName(label).padStart(width);
  const lines = [
    `${"repo".padEnd(20)} ${"lang".padEnd(11)} ${"q".padStart(4)} ${"chunks".padStart(6)} ${
      cols.map(head).join(" ")
    } ${"index ms".padStart(9)} ${"p50 ms".padStart(7)}`,
  ];
  const scoreOf = (col: string, repo: string) =>
    ours.get(col)?.find((r) => r.repo === repo)?.ndcg10 ?? published.get(col)?.get(repo)?.ndcg10;
  for (const repo of first) {
    lines.push(
      `${repo.repo.padEnd(20)} ${repo.language.padEnd(11)} ${String(repo.queries).padStart(4)} ${
        String(repo.chunks).padStart(6)
      } ${cols.map((c) => f3(scoreOf(c, repo.repo)).padStart(width)).join(" ")} ${
        repo.indexMs.toFixed(0).padStart(9)
      } ${repo.p50Ms.toFixed(2).padStart(7)}`,
    );
  }
  const meanOf = (col: string, repos: string[]) =>
    mean(repos.map((r) => scoreOf(col, r)).filter((v): v is number => v !== undefined));
  lines.push("");
  lines.push(
    `${"mean (repos)".padEnd(20)} ${"".padEnd(11)} ${
      String(first.reduce((s, r) => s + r.queries, 0)).padStart(4)
    } ${"".padStart(6)} ${cols.map((c) => f3(meanOf(c, names)).padStart(width)).join(" ")} ${
      mean(first.map((r) => r.indexMs)).toFixed(0).padStart(9)
    } ${mean(first.map((r) => r.p50Ms)).toFixed(2).padStart(7)}`,
  );
  const categories = [...new Set(first.flatMap((r) => Object.keys(r.byCategory)))].sort();
  for (const category of categories) {
    const of = (col: string) => {
      const rows = names.map((repo) =>
        ours.get(col)?.find((r) => r.repo === repo)?.byCategory[category] ??
          published.get(col)?.get(repo)?.byCategory[category]
      ).filter((v): v is number => v !== undefined);
      return mean(rows);
    };
    lines.push(
      `${`  ${category}`.padEnd(20)} ${"".padEnd(11)} ${"".padStart(4)} ${"".padStart(6)} ${
        cols.map((c) => f3(of(c)).padStart(width)).join(" ")
      }`,
    );
  }
  const languages = [...new Set(first.map((r) => r.language))].sort();
  lines.push("");
  for (const language of languages) {
    const repos = first.filter((r) => r.language === language).map((r) => r.repo);
    lines.push(
      `${`  ${language}`.padEnd(20)} ${"".padEnd(11)} ${"".padStart(4)} ${"".padStart(6)} ${
        cols.map((c) => f3(meanOf(c, repos)).padStart(width)).join(" ")
      }`,
    );
  }
  return lines.join("\n") + "\n";
}

/** `off`, `all`, the steps to run (`a,b`) or to leave out (`-a,-b`) (see `RANKING_STEPS`). */
export function rankingOption(value: string): boolean | RankingOptions {
  if (value === "off" || value === "all") return value === "all";
  const named = value.split(",");
  // `-step,…` is every step but those; `step,…` only those.
  if (named.every((n) => n.startsWith("-"))) {
    return Object.fromEntries(RANKING_STEPS.map((step) => [step, !named.includes(`-${step}`)]));
  }
  return Object.fromEntries(RANKING_STEPS.map((step) => [step, named.includes(step)]));
}
