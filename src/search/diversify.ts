import { WayfinderError } from "../error.ts";
import { rowDot } from "./dense_scores.ts";
import type { SearchableIndex, SearchHit } from "./search_types.ts";
import { rowOf, type Searcher } from "./searcher.ts";

/** Options of {@linkcode diversifyingSearcher}. */
export interface DiversifyOptions {
  /** 1 is pure relevance, 0 pure diversity. @default 0.5 */
  lambda?: number;
  /**
   * Candidates fetched from the inner searcher to choose from, at least twice
   * the limit asked for: a searcher above that over-fetches (expansion asks for
   * 4 × its limit) still leaves a choice. @default limit × 4
   */
  fetchK?: number;
}

/**
 * Greedy maximal marginal relevance (Carbonell & Goldstein 1998) over a
 * pool: each pick maximises λ·relevance − (1−λ)·(highest cosine to anything
 * already picked). Relevance is the ranking score divided by the best one,
 * so BM25, fused and rerank scores weigh against cosine on the same 0..1 scale.
 */
export function maximalMarginalRelevance(
  index: SearchableIndex,
  pool: SearchHit[],
  limit: number,
  lambda: number,
): SearchHit[] {
  if (pool.length === 0) return [];
  const top = Math.max(...pool.map((h) => h.score));
  const bottom = Math.min(...pool.map((h) => h.score));
  const relevance = (h: SearchHit) =>
    top > 0 ? h.score / top : top > bottom ? (h.score - bottom) / (top - bottom) : 1;
  const { vectors, dimensions } = index;
  const rest = pool.map((hit) => ({ hit, row: rowOf(index, hit), closest: -Infinity }));
  const chosen: SearchHit[] = [];
  while (chosen.length < limit && rest.length > 0) {
    let best = 0;
    let bestValue = -Infinity;
    rest.forEach((c, i) => {
      const penalty = chosen.length === 0 ? 0 : c.closest;
      const value = lambda * relevance(c.hit) - (1 - lambda) * penalty;
      if (value > bestValue) [best, bestValue] = [i, value];
    });
    const [picked] = rest.splice(best, 1);
    chosen.push(picked.hit);
    if (picked.row < 0) continue;
    const pickedVector = vectors.subarray(picked.row * dimensions, (picked.row + 1) * dimensions);
    for (const c of rest) {
      if (c.row >= 0) {
        c.closest = Math.max(c.closest, rowDot(vectors, dimensions, c.row, pickedVector));
      }
    }
  }
  return chosen;
}

/**
 * Diversity over any searcher: fetches `fetchK` candidates (at least 2 × `limit`), keeps `limit` of
 * them by maximal marginal relevance, and returns those most relevant first,
 * each with its own query score. Near-copies of a passage give way to the
 * next different one.
 */
export function diversifyingSearcher(
  inner: Searcher,
  index: SearchableIndex,
  options: DiversifyOptions = {},
): Searcher {
  const lambda = options.lambda ?? 0.5;
  if (!(lambda >= 0 && lambda <= 1)) {
    throw new WayfinderError(
      "usage",
      `Cannot diversify: lambda must be within 0..1, got ${lambda}`,
    );
  }
  const asked = options.fetchK;
  if (asked !== undefined && !(Number.isInteger(asked) && asked >= 1)) {
    throw new WayfinderError(
      "usage",
      `Cannot diversify: fetchK must be a positive integer, got ${asked}`,
    );
  }
  return {
    async search(request) {
      const fetchK = Math.max(request.limit * 2, options.fetchK ?? request.limit * 4);
      const result = await inner.search({ ...request, limit: fetchK });
      const picked = maximalMarginalRelevance(index, result.matches, request.limit, lambda);
      const order = new Map(result.matches.map((hit, i) => [hit, i]));
      picked.sort((a, b) => order.get(a)! - order.get(b)!);
      return { ...result, matches: picked };
    },
  };
}
