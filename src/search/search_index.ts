import { WayfinderError } from "../error.ts";
import { rowsIn } from "../row_ranges.ts";
import type { Chunk, QuantizedVectors, RowColumns, RowRange } from "../types.ts";
import { denseRanking, hasVector } from "./dense_ranking.ts";
import { rowDot } from "./dense_scores.ts";
import { keptRows, matchFilter, noMatchNotice, type SearchFilter } from "./match_filter.ts";
import { queriedIdentifiers, rankCode, rankingActs, type RankingOptions } from "./code_ranking.ts";
import { denseDepth, fuseHybrid, isRankedFusion, type RankedFusion } from "./ranked_fusion.ts";
import { fileSimilarity } from "./file_similarity.ts";

/**
 * What search needs from an index. The store's `StoredIndex` satisfies it;
 * tests build one by hand.
 */
export interface SearchableIndex {
  chunks: Chunk[];
  /** n × dimensions, row-major, each row L2-normalised. */
  vectors: Float32Array;
  dimensions: number;
  /** Compact codes of the vectors: dense search scans these first, then rescores exactly. */
  quantized?: QuantizedVectors;
  /** Rows without a vector yet: searchable lexically, skipped by dense ranking. */
  pending?: readonly RowRange[];
  /** Each row's path, type and language: a narrow filter then tests values, not chunks. */
  columns?: RowColumns;
  /** The row of the chunk with this id, or -1, without building chunks (a stored index has it). */
  rowOf?(id: string): number;
  /**
   * BM25 over the chunks, best first; required by "lexical" and "hybrid"
   * modes. `filter.rows`, when given, says which rows may be returned.
   */
  lexical?(
    query: string,
    limit: number,
    filter?: { rows?: (row: number) => boolean },
  ): { index: number; score: number }[];
}

/** How "hybrid" fuses its dense and lexical rankings (see `SearchOptions.fusion`). */
export type Fusion = "rrf" | "blend" | "ranked" | "early" | "adaptive";

/** How to rank and which chunks to return. */
export interface SearchOptions {
  /** Hits wanted. @default 10 */
  limit?: number;
  /**
   * Drops hits whose dense cosine similarity (`scores.dense`) is below this,
   * whatever score ranks them; ignored, with a notice, in "lexical" mode.
   */
  minScore?: number;
  /** "dense" cosine, "lexical" BM25, or "hybrid", both fused as `fusion` says. @default "dense" */
  mode?: "dense" | "lexical" | "hybrid";
  /** Restricts hits by path glob, chunk type and language. */
  filter?: SearchFilter;
  /** The k of reciprocal rank fusion. @default 60 */
  rrfK?: number;
  /**
   * How "hybrid" fuses its two rankings: reciprocal rank fusion; a blend of
   * both scores, each min-max normalised over its candidates (see `blend`);
   * "ranked", each ranking first ordered by its own ranking stage (BM25's
   * by `ranking`, the dense one's by the definition boost) and the lexical
   * order leading (see `fuseRanked`); "early", both raw rankings fused by
   * score first (dense share `EARLY_DENSE_SHARE`) and the ranking stage run
   * once over the union; or "adaptive", "ranked" when BM25's best passage
   * holds every query word (`lexicalCovers`) and "early" otherwise, what a
   * corpus searches a source tree with (src/search/ranked_fusion.ts).
   * @default "rrf"
   */
  fusion?: Fusion;
  /**
   * The ranking stage after retrieval (see `rankCode`): true for all its
   * steps, or the steps to run. @default false
   */
  ranking?: boolean | RankingOptions;
}

/**
 * A hit with its component scores.
 *
 * @example What a lexical hit carries
 * ```ts
 * import assert from "node:assert/strict";
 * import { FakeEmbedder, openCorpus } from "../mod.ts";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/auth.ts`, "export function refreshToken() {\n  return fetchToken();\n}\n");
 * await Deno.writeTextFile(`${root}/README.md`, "# Auth\n\nRefresh the token before it expires.\n");
 * const dataDir = await Deno.makeTempDir();
 * const corpus = await openCorpus(root, { dataDir, embedder: new FakeEmbedder() });
 * await corpus.index();
 * const [hit] = (await corpus.search("refreshToken", { mode: "lexical", limit: 1 })).matches;
 * assert.equal(hit!.chunk.symbol, "refreshToken");
 * // On a source tree, lexical hits are ordered by the code ranking stage over BM25.
 * assert.equal(hit!.score, hit!.scores.ranked);
 * assert.ok(hit!.scores.lexical! > 0);
 * await corpus.close();
 * await Deno.remove(root, { recursive: true });
 * await Deno.remove(dataDir, { recursive: true });
 * ```
 */
export interface SearchHit {
  /** The passage found. */
  chunk: Chunk;
  /**
   * What the hit was ranked by: cosine similarity for dense search, BM25 for
   * lexical, the fused score for hybrid (each the ranking stage's score when
   * it ran, as on a source tree), the cross-encoder's when reranked.
   */
  score: number;
  /**
   * The same number as `score`, under its former name.
   * @deprecated Read `score`; `similarity` goes with the next JSON format version.
   */
  similarity: number;
  /** Every score behind the rank; `score` is the one it was ranked by. */
  scores: {
    /** Cosine similarity with the query, when a query vector was given. */
    dense?: number;
    /** BM25 score, when the chunk was among the lexical candidates. */
    lexical?: number;
    /**
     * The fused score, in "hybrid" mode: reciprocal rank fusion's (at most
     * about 0.033), a blend's, or the ranked fusion's (about 0 to 1.2; also
     * `ranked`).
     */
    fused?: number;
    /** Cross-encoder score, when the hit was reranked (see `rerankHits`). */
    rerank?: number;
    /** The ranking stage's score, when it ran (lexical search of a source tree, or a query naming an identifier). */
    ranked?: number;
  };
  /**
   * The context the hit sits in, when an expanding searcher asked for it:
   * the declaration that holds it, else the smallest enclosing range, else the file.
   */
  parent?: {
    /** Why this is the context: the declaration the hit is part of, a wider enclosing passage, or the whole file. */
    reason: "declaration" | "enclosing" | "file";
    /** The declaration's or section's symbol, when it has one. */
    symbol?: string;
    /** class, impl, heading, file, … */
    type: string;
    /** First line, 1-based. */
    lineStart: number;
    /** Last line, inclusive. */
    lineEnd: number;
    /** UTF-16 offsets into the file, end exclusive. */
    startOffset: number;
    /** UTF-16 offset where it ends, exclusive. */
    endOffset: number;
    /** Its text, read now. */
    content: string;
    /** Later (worse) hits that lie in this context and were folded into it, best first. */
    matched?: {
      /** The folded hit's chunk id. */
      id: string;
      /** Its symbol, when it has one. */
      symbol?: string;
      /** Its chunk type. */
      type: string;
      /** First line, 1-based. */
      lineStart: number;
      /** Last line, inclusive. */
      lineEnd: number;
      /** Its score. */
      score: number;
    }[];
  };
}

/** The scores behind a hit's rank; `score` is the one it was ranked by. */
export type SearchScores = SearchHit["scores"];

/**
 * Hits, best first, and anything the caller should tell the user.
 *
 * @example Drive the corpus's searcher yourself
 * ```ts
 * import assert from "node:assert/strict";
 * import { FakeEmbedder, openCorpus } from "../mod.ts";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/auth.ts`, "export function refreshToken() {\n  return fetchToken();\n}\n");
 * await Deno.writeTextFile(`${root}/README.md`, "# Auth\n\nRefresh the token before it expires.\n");
 * const dataDir = await Deno.makeTempDir();
 * const corpus = await openCorpus(root, { dataDir, embedder: new FakeEmbedder() });
 * await corpus.index();
 * const searcher = await corpus.searcher({ mode: "lexical" });
 * const result = await searcher.search({ query: "token", limit: 1 });
 * assert.equal(result.matches.length, 1);
 * assert.ok(result.examined >= 1);
 * await corpus.close();
 * await Deno.remove(root, { recursive: true });
 * await Deno.remove(dataDir, { recursive: true });
 * ```
 */
export interface SearchResult {
  /** Hits, best first. */
  matches: SearchHit[];
  /** What the caller should be told (a filter that matched nothing, a floor ignored). */
  notices: string[];
  /**
   * Size of the candidate window the hits were taken from (limit × 1, 2, 4,
   * … 32, or fewer), in a ranking of all rows or, when a filter kept too few
   * of those, of the rows it keeps.
   */
  examined: number;
}

interface Candidate {
  row: number;
  similarity: number;
  scores: SearchScores;
}

/** The candidate window grows limit × 1, 2, 4, … up to this factor while filters starve it. */
const MAX_WIDEN = 32;

/** Rows by score, then by a tie-breaking score when given, then by row. */
function ranked(
  rows: number[],
  score: (row: number) => number,
  tieBreak: (row: number) => number = () => 0,
): number[] {
  return rows.slice().sort((a, b) => score(b) - score(a) || tieBreak(b) - tieBreak(a) || a - b);
}

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
 * Reciprocal rank fusion (Cormack et al. 2009): for each chunk d,
 *   fused(d) = Σ over rankings r that contain d of 1 / (k + rank_r(d)),
 * with 1-based ranks, rankings cut at `depth`, k = rrfK (60). A chunk in
 * only one ranking gets only that term. Equal fused scores (common: ranks
 * i and j in one list, j and i in the other) break by dense similarity.
 * A dense rank counts as rank / `seen`, the share of rows with a vector:
 * where it would fall among all of them (the same rank once all have one).
 */
function fuse(
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
  const order = ranked(
    [...fused.keys()],
    (row) => fused.get(row)!,
    (row) => dense(row) ?? -Infinity,
  )
    .slice(0, depth);
  return order.map((row) => ({
    row,
    similarity: fused.get(row)!,
    scores: { dense: dense(row), lexical: lexicalScore.get(row), fused: fused.get(row)! },
  }));
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
function blend(
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
  return ranked([...blended.keys()], (row) => blended.get(row)!, (row) => dense(row) ?? -Infinity)
    .slice(0, depth)
    .map((row) => ({
      row,
      similarity: blended.get(row)!,
      scores: { dense: dense(row), lexical: lexicalScore.get(row), fused: blended.get(row)! },
    }));
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
