/**
 * Score-level fusion of a dense and a lexical ranking into hybrid candidates:
 * reciprocal rank fusion, and min-max score blending.
 */
import { queriedIdentifiers } from "./named_definitions.ts";
import type { SearchScores } from "./search_types.ts";

/** A candidate hit: its row, the score it ranks by, and the scores behind it. */
export interface Candidate {
  row: number;
  similarity: number;
  scores: SearchScores;
}

/**
 * The `depth` best rows of a fusion, best first (equal fused scores by dense
 * similarity, then by row), each with the scores behind it.
 */
function fusedCandidates(
  fused: Map<number, number>,
  dense: (row: number) => number | undefined,
  lexicalScore: Map<number, number>,
  depth: number,
): Candidate[] {
  const tieBreak = (row: number) => dense(row) ?? -Infinity;
  return [...fused.keys()]
    .sort((a, b) => fused.get(b)! - fused.get(a)! || tieBreak(b) - tieBreak(a) || a - b)
    .slice(0, depth)
    .map((row) => ({
      row,
      similarity: fused.get(row)!,
      scores: { dense: dense(row), lexical: lexicalScore.get(row), fused: fused.get(row)! },
    }));
}

/**
 * Reciprocal rank fusion (Cormack et al. 2009): for each chunk d,
 *   fused(d) = Σ over rankings r that contain d of 1 / (k + rank_r(d)),
 * with 1-based ranks, rankings cut at `depth`, k = rrfK (60). A chunk in
 * only one ranking gets only that term. Equal fused scores (common: ranks
 * i and j in one list, j and i in the other) break by dense similarity.
 * A dense rank counts as rank / `seen`, the share of rows with a vector:
 * where it would fall among all of them (the same rank once all have one).
 */
export function fuse(
  denseTop: number[],
  dense: (row: number) => number | undefined,
  lexical: { index: number; score: number }[],
  depth: number,
  rrfK: number,
  seen: number,
): Candidate[] {
  const fused = new Map<number, number>();
  const lexicalScore = new Map<number, number>();
  denseTop.forEach((row, i) => fused.set(row, 1 / (rrfK + (i + 1) / seen)));
  lexical.forEach((h, i) => {
    fused.set(h.index, (fused.get(h.index) ?? 0) + 1 / (rrfK + i + 1));
    lexicalScore.set(h.index, h.score);
  });
  return fusedCandidates(fused, dense, lexicalScore, depth);
}

/** A query that is just an identifier leans on BM25, which matches names exactly. */
const SYMBOL_DENSE_WEIGHT = 0.3;
const DENSE_WEIGHT = 0.5;
/** Candidates each ranking brings to a blend: scores far down a list are noise. */
const BLEND_DEPTH = 50;

/**
 * Score blending: each ranking's scores min-max normalised over its own
 * top candidates, then w · dense + (1 − w) · lexical, w = 0.3 when the
 * query is a bare identifier and 0.5 otherwise, times `seen`, the share of
 * rows with a vector. A chunk missing from one
 * ranking gets 0 there. Unlike RRF it keeps how far apart scores are, so a
 * clear BM25 winner (an exact name) is not levelled with dense near-misses.
 */
export function blend(
  denseTop: number[],
  dense: (row: number) => number | undefined,
  lexical: { index: number; score: number }[],
  depth: number,
  query: string,
  seen: number,
): Candidate[] {
  const w = seen * (queriedIdentifiers(query).whole ? SYMBOL_DENSE_WEIGHT : DENSE_WEIGHT);
  const normalised = (scores: [number, number][]) => {
    const values = scores.map(([, v]) => v);
    const low = Math.min(...values);
    const span = Math.max(...values) - low || 1;
    return new Map(scores.map(([row, v]) => [row, (v - low) / span]));
  };
  const d = normalised(denseTop.slice(0, BLEND_DEPTH).map((row) => [row, dense(row) ?? 0]));
  const l = normalised(lexical.slice(0, BLEND_DEPTH).map((h) => [h.index, h.score]));
  const lexicalScore = new Map(lexical.map((h) => [h.index, h.score]));
  const blended = new Map<number, number>();
  for (const row of new Set([...d.keys(), ...l.keys()])) {
    // A small floor keeps every candidate's score positive for the ranking stage.
    blended.set(row, 0.01 + w * (d.get(row) ?? 0) + (1 - w) * (l.get(row) ?? 0));
  }
  return fusedCandidates(blended, dense, lexicalScore, depth);
}
