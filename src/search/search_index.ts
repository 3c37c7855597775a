import { WayfinderError } from "../error.ts";
import { rowsIn } from "../row_ranges.ts";
import { denseRanking, hasVector } from "./dense_ranking.ts";
import { rowDot } from "./dense_scores.ts";
import { keptRows, matchFilter, noMatchNotice } from "./match_filter.ts";
import { rankCode, rankingActs, type RankingOptions } from "./code_ranking.ts";
import { denseDepth, fuseHybrid, isRankedFusion, type RankedFusion } from "./ranked_fusion.ts";
import { fileSimilarity } from "./file_similarity.ts";
import { blend, type Candidate, fuse } from "./score_fusion.ts";
import type { Fusion, SearchableIndex, SearchOptions, SearchResult } from "./search_types.ts";

/** The candidate window grows limit × 1, 2, 4, … up to this factor while filters starve it. */
const MAX_WIDEN = 32;

function lexicalOf(index: SearchableIndex, query: string, depth: number, only?: Uint8Array) {
  if (!index.lexical) {
    throw new WayfinderError("usage", "Cannot search lexically: this index has no lexical index");
  }
  const hits = index.lexical(query, depth, only ? { rows: (row) => only[row] === 1 } : undefined);
  return hits.slice().sort((a, b) => b.score - a.score || a.index - b.index).slice(0, depth);
}

function needVector(queryVector: Float32Array | null, mode: string): Float32Array {
  if (!queryVector) {
    throw new WayfinderError("usage", `Cannot search in ${mode} mode: no query vector was given`);
  }
  return queryVector;
}

/** The share of rows with a vector: less than 1 while a generation is still embedding. */
export function embeddedShare(index: SearchableIndex): number {
  return 1 - rowsIn(index.pending) / Math.max(1, index.chunks.length);
}

/**
 * Ranks up to `depth` candidates, among the rows `only` marks 1 when given.
 * `complete` says the ranking holds every chunk that could ever match, so
 * widening further would find nothing new.
 */
function rank(
  index: SearchableIndex,
  queryVector: Float32Array | null,
  query: string,
  mode: "dense" | "lexical" | "hybrid",
  depth: number,
  rrfK: number,
  only?: Uint8Array,
  fusion: Fusion = "rrf",
): { candidates: Candidate[]; complete: boolean } {
  const rows = only ? only.reduce((sum, kept) => sum + kept, 0) : index.chunks.length;
  const dot = (row: number) =>
    queryVector && hasVector(index, row)
      ? rowDot(index.vectors, index.dimensions, row, queryVector)
      : undefined;
  if (mode === "lexical") {
    const hits = lexicalOf(index, query, depth, only);
    return {
      candidates: hits.map((h) => ({
        row: h.index,
        similarity: h.score,
        scores: { dense: dot(h.index), lexical: h.score },
      })),
      complete: hits.length < depth,
    };
  }
  const vector = needVector(queryVector, mode);
  const { top: denseTop, score } = denseRanking(index, vector, depth, only);
  const dense = (row: number) => hasVector(index, row) ? score(row) : undefined;
  if (mode === "dense") {
    return {
      candidates: denseTop.map((row) => ({
        row,
        similarity: score(row),
        scores: { dense: score(row) },
      })),
      complete: depth >= rows,
    };
  }
  const lexical = lexicalOf(index, query, depth, only);
  // A dense ranking of a generation still embedding has seen only part of the passages: its
  // rank i among them is about rank i / seen among all of them.
  const seen = embeddedShare(index);
  const candidates = fusion === "blend"
    ? blend(denseTop, dense, lexical, depth, query, seen)
    : fuse(denseTop, dense, lexical, depth, rrfK, seen);
  return { candidates, complete: depth >= rows };
}

/**
 * Takes the top `limit × w` candidates, w doubling 1, 2, 4, … 32, until
 * `limit` of them pass `keep`. `exhausted` says no wider window could add
 * a hit: every candidate was seen, or (dense ranking by the very score
 * `minScore` cuts on) the window's last one already fell below the cut.
 */
function widen(
  candidates: Candidate[],
  complete: boolean,
  keep: (c: Candidate) => boolean,
  limit: number,
  denseCut: number | undefined,
): { survivors: Candidate[]; window: number; exhausted: boolean } {
  let window = 0;
  let survivors: Candidate[] = [];
  for (let w = 1; w <= MAX_WIDEN; w *= 2) {
    window = Math.min(limit * w, candidates.length);
    survivors = candidates.slice(0, window).filter(keep);
    if (survivors.length >= limit || window >= candidates.length) break;
    if (denseCut !== undefined && candidates[window - 1].similarity < denseCut) {
      return { survivors, window, exhausted: true };
    }
  }
  return { survivors, window, exhausted: window >= candidates.length && complete };
}

/**
 * Hybrid candidates by a `RankedFusion` (see `fuseHybrid`), the dense share
 * shrinking with the share of rows embedded, as in `fuse`.
 */
function rankedHybrid(
  index: SearchableIndex,
  queryVector: Float32Array | null,
  query: string,
  limit: number,
  steps: RankingOptions | undefined,
  fusion: RankedFusion,
  only?: Uint8Array,
): { candidates: Candidate[]; complete: boolean } {
  const depth = limit * MAX_WIDEN;
  const lexical = rank(index, queryVector, query, "lexical", depth, 0, only);
  const dense = rank(index, queryVector, query, "dense", depth, 0, only);
  const byRow = new Map<number, Candidate>();
  for (const c of [...dense.candidates, ...lexical.candidates]) {
    byRow.set(c.row, { ...c, scores: { ...byRow.get(c.row)?.scores, ...c.scores } });
  }
  const denseTop = denseDepth(limit);
  const rows = (candidates: Candidate[]) =>
    candidates.map((c) => ({ row: c.row, score: c.similarity }));
  const fused = fuseHybrid(
    fusion,
    query,
    rows(lexical.candidates),
    rows(dense.candidates),
    (row) => index.chunks[row]!,
    steps,
    denseTop,
    embeddedShare(index),
    queryVector && index.dimensions ? { fileSimilarity: fileSimilarity(index, queryVector) } : {},
  );
  return {
    candidates: fused.slice(0, depth).map(({ row, score }) => {
      const { scores } = byRow.get(row)!;
      // Ranked: the stage ran on both halves, so the fused score is a code ranking score too.
      return {
        row,
        similarity: score,
        scores: { dense: scores.dense, lexical: scores.lexical, fused: score, ranked: score },
      };
    }),
    // Complete only when every dense candidate took part: else a starving filter must rank
    // the rows it keeps on their own, where the dense ones it keeps make the top.
    complete: lexical.complete && dense.complete && dense.candidates.length <= denseTop,
  };
}

/** Candidates in the ranking stage's order, each with the score it ranked them by. */
function reorder(
  index: SearchableIndex,
  query: string,
  candidates: Candidate[],
  steps: RankingOptions,
): Candidate[] {
  const byRow = new Map(candidates.map((c) => [c.row, c]));
  const ranked = rankCode(
    candidates.map((c) => ({ row: c.row, score: c.similarity })),
    (row) => index.chunks[row]!,
    query,
    steps,
  );
  return ranked.map(({ row, score }) => {
    const candidate = byRow.get(row)!;
    return { ...candidate, similarity: score, scores: { ...candidate.scores, ranked: score } };
  });
}

/** Rejects options no search can honour, with a one-line reason. */
function checkOptions(limit: number, mode: string, rrfK: number): void {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new WayfinderError(
      "usage",
      `Cannot search: limit must be a positive integer, got ${limit}`,
    );
  }
  if (!["dense", "lexical", "hybrid"].includes(mode)) {
    throw new WayfinderError("usage", `Cannot search: unknown mode '${mode}'`);
  }
  if (!(rrfK >= 0)) {
    throw new WayfinderError("usage", `Cannot search: rrfK must be ≥ 0, got ${rrfK}`);
  }
}

/**
 * Searches an index: exact dense cosine over every row, BM25, or their
 * reciprocal rank fusion. Filters are applied to a window of the top
 * `limit × w` candidates, with w doubling 1, 2, 4, … 32 until `limit` hits
 * survive; a filter that keeps too few of even the widest window is then
 * applied first, and only the rows it keeps are ranked, so a narrow filter
 * gets the same hits a search of just those rows would.
 *
 * @param index The chunks, their vectors and optionally a lexical index.
 * @param queryVector The embedded query; required for "dense" and "hybrid".
 * @param query The query text, for "lexical" and "hybrid".
 * @param options Limit, mode, filters, minScore and RRF k.
 * @returns Hits best first, and notices for the user.
 * @throws {WayfinderError} "usage" on a bad option or a missing query vector
 * or lexical index; "stale_index" when the query vector's dimension differs.
 *
 * @example Nearest chunk by cosine
 * ```ts
 * import assert from "node:assert/strict";
 * import { searchIndex } from "./mod.ts";
 * const chunk = (id: string) => ({
 *   id, sourcePath: `${id}.ts`, lineStart: 1, lineEnd: 1, startOffset: 0, endOffset: 1,
 *   type: "function", language: "typescript", content: id, metadata: {},
 * });
 * const index = { chunks: [chunk("a"), chunk("b")], vectors: new Float32Array([1, 0, 0, 1]), dimensions: 2 };
 * const { matches } = searchIndex(index, new Float32Array([0, 1]), "b", { limit: 1 });
 * assert.equal(matches[0].chunk.id, "b");
 * ```
 */
export function searchIndex(
  index: SearchableIndex,
  queryVector: Float32Array | null,
  query: string,
  options: SearchOptions = {},
): SearchResult {
  const limit = options.limit ?? 10;
  const mode = options.mode ?? "dense";
  const rrfK = options.rrfK ?? 60;
  const { minScore } = options;
  checkOptions(limit, mode, rrfK);
  const notices: string[] = [];
  const byFilter = matchFilter(options.filter);
  const useMinScore = minScore !== undefined && mode !== "lexical";
  // minScore is a floor on cosine: fused and BM25 scores do not compare across queries.
  if (minScore !== undefined && mode === "lexical") {
    notices.push("minScore applies to dense similarity and was ignored in lexical mode");
  } else if (minScore !== undefined && mode === "hybrid") {
    notices.push(
      `minScore ${minScore} kept hits by dense similarity (scores.dense), not by the fused score they are ranked by`,
    );
  }
  const keep = (c: Candidate) =>
    (!useMinScore || (c.scores.dense ?? -Infinity) >= minScore!) &&
    (!byFilter || byFilter(index.chunks[c.row]));
  const asked = options.ranking === true ? {} : options.ranking || undefined;
  const steps = asked && rankingActs(query, asked) ? asked : undefined;
  // Reordered candidates are no longer sorted by the similarity minScore cuts on.
  const denseCut = mode === "dense" && useMinScore && !steps ? minScore : undefined;
  const settle = (only?: Uint8Array) => {
    if (mode === "hybrid" && isRankedFusion(options.fusion)) {
      const fused = rankedHybrid(index, queryVector, query, limit, steps, options.fusion, only);
      return widen(fused.candidates, fused.complete, keep, limit, undefined);
    }
    const ranking = rank(
      index,
      queryVector,
      query,
      mode,
      limit * MAX_WIDEN,
      rrfK,
      only,
      options.fusion,
    );
    const candidates = steps
      ? reorder(index, query, ranking.candidates, steps)
      : ranking.candidates;
    return widen(candidates, ranking.complete, keep, limit, denseCut);
  };

  let picked = settle();
  let only: Uint8Array | undefined;
  if (byFilter && picked.survivors.length < limit && !picked.exhausted) {
    // The filter starved even the widest window: rank only the rows it keeps.
    only = keptRows(index, options.filter!);
    picked = settle(only);
  }
  if (byFilter && picked.survivors.length === 0) {
    only ??= keptRows(index, options.filter!);
    if (!only.includes(1)) notices.push(noMatchNotice(index, options.filter!));
  }
  const { survivors, window } = picked;
  return {
    matches: survivors.slice(0, limit).map((c) => ({
      chunk: index.chunks[c.row],
      score: c.similarity,
      similarity: c.similarity,
      scores: c.scores,
    })),
    notices,
    examined: window,
  };
}
