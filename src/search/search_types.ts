/** What search reads (an index) and what it returns (hits, their scores, notices). */
import type { Chunk, QuantizedVectors, RowColumns, RowRange } from "../types.ts";
import type { SearchFilter } from "./match_filter.ts";
import type { RankingOptions } from "./code_ranking.ts";

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
