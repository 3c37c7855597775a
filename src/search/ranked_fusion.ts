/**
 * Hybrid search's fusions on a source tree. Each ranks with the code ranking
 * stage; they differ in when the two rankings meet.
 *
 * - "ranked": each ranking first goes through its own stage (BM25's
 *   candidates through every step, the dense ones through the definition
 *   boost), then the two orders are combined by score, the lexical one
 *   leading. BM25 with the stage finds the right file more often than a
 *   small embedding model does, and a small dense share still reorders near
 *   ties and brings in passages no query word names ("Round three").
 * - "early": the raw rankings are combined first and the stage runs once over
 *   the union, so the cosine takes part in the stage's file decisions (which
 *   file is coherent, which passage is its best). It ranks files in real
 *   repositories better, and costs first places where BM25 was right.
 * - "adaptive", the default: "ranked" when BM25's best passage holds every
 *   word of the query (the query is asked in the code's own words, and BM25
 *   is then right), else "early" ("Round six").
 *
 * docs/code-search-benchmark.md has the measurements behind each.
 */
import type { Chunk } from "../types.ts";
import { tokenizeCode } from "../store/mod.ts";
import {
  EMBEDDING_RANKING,
  rankCode,
  type RankedRow,
  rankingActs,
  type RankingOptions,
  type RankingSignals,
} from "./code_ranking.ts";

/** The fusions this module makes, each running the code ranking stage itself. */
export type RankedFusion = "ranked" | "early" | "adaptive";

/** Whether `fusion` names one of the `RankedFusion`s. */
export function isRankedFusion(fusion: string | undefined): fusion is RankedFusion {
  return fusion === "ranked" || fusion === "early" || fusion === "adaptive";
}

/** The dense ranking's weight beside the lexical one (0.1–0.3 measured alike; 0.5 lost). */
export const DENSE_SHARE = 0.2;
/**
 * The dense share of "early" fusion, where the raw rankings are fused before
 * the ranking stage: 0.5 ranked files best (0.2 and 1.0 a little lower), and
 * every share cost the peer corpus's chunk-level judgments about .03.
 */
export const EARLY_DENSE_SHARE = 0.5;
/** Dense candidates that take part, at least: further down, cosines are noise. */
export const DENSE_DEPTH = 50;

/** Dense candidates that take part when `limit` hits are wanted: five per hit, at least DENSE_DEPTH. */
export function denseDepth(limit: number): number {
  return Math.max(DENSE_DEPTH, limit * 5);
}

/**
 * Fuses two rankings, each best first with positive scores: a row's score
 * is its lexical score as a share of the lexical best, plus `denseShare`
 * times its dense score min-max normalised over the dense top `depth`
 * (the last of them gets 0); dense rows further down take no part. Best
 * first; equal scores keep the lexical order, then the dense one.
 *
 * @example A clear BM25 winner stays first; dense breaks the tie behind it
 * ```ts
 * import assert from "node:assert/strict";
 * import { fuseRanked } from "./ranked_fusion.ts";
 * const lexical = [{ row: 1, score: 10 }, { row: 2, score: 5 }, { row: 3, score: 5 }];
 * const dense = [{ row: 3, score: 0.9 }, { row: 4, score: 0.8 }, { row: 1, score: 0.1 }];
 * assert.deepEqual(fuseRanked(lexical, dense).map((r) => r.row), [1, 3, 2, 4]);
 * ```
 */
export function fuseRanked(
  lexical: readonly RankedRow[],
  dense: readonly RankedRow[],
  denseShare = DENSE_SHARE,
  depth = DENSE_DEPTH,
): RankedRow[] {
  const fused = new Map<number, { score: number; order: number }>();
  const best = Math.max(0, ...lexical.map((r) => r.score)) || 1;
  lexical.forEach((r, i) => fused.set(r.row, { score: r.score / best, order: i }));
  const top = dense.slice(0, depth);
  const low = Math.min(...top.map((r) => r.score));
  const span = Math.max(...top.map((r) => r.score)) - low || 1;
  top.forEach((r, i) => {
    const share = denseShare * (r.score - low) / span;
    const held = fused.get(r.row);
    if (held) held.score += share;
    else fused.set(r.row, { score: share, order: lexical.length + i });
  });
  return [...fused.entries()]
    .sort(([, a], [, b]) => b.score - a.score || a.order - b.order)
    .map(([row, { score }]) => ({ row, score }));
}

/**
 * Whether `best` holds every word of `query` as the lexical index reads them
 * (`tokenizeCode`: stopwords and one-letter words dropped, plurals folded),
 * in its text, symbol or path: then "adaptive" fusion lets BM25 lead. A query
 * with no such word, or no passage, is not covered.
 *
 * @example A passage that names every word, and one that misses a word
 * ```ts
 * import assert from "node:assert/strict";
 * import { lexicalCovers } from "./ranked_fusion.ts";
 * const passage = (content: string, sourcePath: string) => ({
 *   id: "p", sourcePath, lineStart: 1, lineEnd: 1, startOffset: 0, endOffset: content.length,
 *   type: "function", language: "typescript", content, metadata: {},
 * });
 * const parse = passage("function parsePaymentMethod(raw) {}", "orders.ts");
 * assert.equal(lexicalCovers("parse the payment methods", parse), true);
 * assert.equal(lexicalCovers("wait for several futures", parse), false);
 * ```
 */
export function lexicalCovers(query: string, best: Chunk | undefined): boolean {
  const words = new Set(tokenizeCode(query));
  if (!best || words.size === 0) return false;
  const held = new Set(tokenizeCode(`${best.content}\n${best.symbol ?? ""}\n${best.sourcePath}`));
  for (const word of words) if (!held.has(word)) return false;
  return true;
}

/**
 * Whether `fusion` fuses the raw rankings before the ranking stage for
 * `query`, whose BM25 best passage is `best`: always for "early", and for
 * "adaptive" when that passage lacks a query word. Only then does the stage
 * read `RankingSignals`, so a store asks for them only then.
 */
export function fusesEarly(fusion: RankedFusion, query: string, best: Chunk | undefined): boolean {
  return fusion === "early" || (fusion === "adaptive" && !lexicalCovers(query, best));
}

/**
 * Fuses a hybrid search's two rankings, each best first, as `fusion` says
 * (see this module's comment). `steps` is the ranking stage asked for, or
 * undefined when it does not act on this query; `chunkOf` looks a row up;
 * the dense shares are scaled by `seen`, the share of rows with a vector.
 * `signals` reach the stage where the cosine takes part in choosing files
 * ("early"): a file's similarity to the query ("Round seven"). Best first,
 * scored by the fusion.
 */
export function fuseHybrid(
  fusion: RankedFusion,
  query: string,
  lexical: readonly RankedRow[],
  dense: readonly RankedRow[],
  chunkOf: (row: number) => Chunk,
  steps: RankingOptions | undefined,
  depth: number,
  seen = 1,
  signals: RankingSignals = {},
): RankedRow[] {
  if (fusesEarly(fusion, query, lexical[0] && chunkOf(lexical[0].row))) {
    const raw = fuseRanked(lexical, dense, EARLY_DENSE_SHARE * seen, depth);
    return steps ? rankCode(raw, chunkOf, query, steps, signals) : raw;
  }
  const lexicalOrder = steps ? rankCode(lexical, chunkOf, query, steps) : lexical;
  const denseOrder = rankingActs(query, EMBEDDING_RANKING)
    ? rankCode(dense, chunkOf, query, EMBEDDING_RANKING)
    : dense;
  return fuseRanked(lexicalOrder, denseOrder, DENSE_SHARE * seen, depth);
}
