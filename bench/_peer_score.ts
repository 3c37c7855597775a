/**
 * Scores ranked hits the way the peer's knowledge fixtures judge them: a hit
 * supports a query when it is the judged passage. Every metric is per query
 * and then summed or averaged over the answerable queries.
 */

/** A path+fragment judged question of embedding_comparison or okf_retrieval. */
export interface SupportQuery {
  id: string;
  query: string;
  split: string;
  group?: string;
  /** True for a question about superseded procedure. */
  history?: boolean;
  /** Path prefixes the caller restricts the search to. */
  scope?: string[];
  /** What supports an answer: a path and a fragment its passage must contain. */
  support: { path: string; contains: string }[];
}

/** Outcome of one answerable query. */
export interface QueryOutcome {
  id: string;
  group?: string;
  /** 1-based rank of the first supporting hit, or null when none was returned. */
  firstRank: number | null;
  /** Fraction of the query's support items found within the first k hits, per k. */
  recall: Record<number, number>;
  /** The top hits as `path:lines`, for inspection. */
  top: string[];
}

/** Aggregates over answerable queries. */
export interface Summary {
  answerable: number;
  firstCorrect: number;
  /** Mean recall per k (0..1). */
  recall: Record<number, number>;
  /** Mean reciprocal rank of the first supporting hit within the returned list. */
  mrr: number;
}

/** Collapses whitespace so a fragment matches across line wraps. */
export function squash(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * Scores one query. `supports[i]` lists which support items hit i satisfies
 * (indexes into the query's support list).
 */
export function scoreQuery(
  id: string,
  supports: number[][],
  supportCount: number,
  ks: number[],
  top: string[],
  group?: string,
): QueryOutcome {
  const first = supports.findIndex((s) => s.length > 0);
  const recall: Record<number, number> = {};
  for (const k of ks) {
    const found = new Set(supports.slice(0, k).flat());
    recall[k] = supportCount === 0 ? 0 : found.size / supportCount;
  }
  return { id, group, firstRank: first < 0 ? null : first + 1, recall, top };
}

/** Sums and means over outcomes. */
export function summarize(outcomes: QueryOutcome[], ks: number[]): Summary {
  const n = outcomes.length;
  const recall: Record<number, number> = {};
  for (const k of ks) recall[k] = outcomes.reduce((s, o) => s + o.recall[k], 0) / n;
  return {
    answerable: n,
    firstCorrect: outcomes.filter((o) => o.firstRank === 1).length,
    recall,
    mrr: outcomes.reduce((s, o) => s + (o.firstRank ? 1 / o.firstRank : 0), 0) / n,
  };
}

/** Median of a list of numbers. */
export function median(values: number[]): number {
  const sorted = values.slice().sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
