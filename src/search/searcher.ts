import type { SearchFilter } from "./match_filter.ts";
import type { RankingOptions } from "./code_ranking.ts";
import { searchIndex } from "./search_index.ts";
import type { Fusion, SearchableIndex, SearchHit, SearchResult } from "./search_types.ts";

/**
 * What one search asks for; every searcher in a stack passes it on, adjusted.
 *
 * @example A request with a filter and a floor
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
 * const searcher = await corpus.searcher({ mode: "hybrid" });
 * const { matches } = await searcher.search({ query: "refresh token", limit: 5, filter: { paths: ["*.ts"] }, minScore: 0 });
 * assert.ok(matches.every((hit) => hit.chunk.sourcePath === "auth.ts"));
 * await corpus.close();
 * await Deno.remove(root, { recursive: true });
 * await Deno.remove(dataDir, { recursive: true });
 * ```
 */
export interface SearchRequest {
  /** The question, as the user asked it. */
  query: string;
  /** Hits wanted. */
  limit: number;
  /** Restricts hits by path glob, chunk type and language. */
  filter?: SearchFilter;
  /** Drops hits whose dense cosine similarity (`scores.dense`) is below this, whatever ranks them. */
  minScore?: number;
}

/**
 * Anything that answers a query with ranked hits. Searchers stack without
 * adapters: a reranker over a hybrid retriever, diversity over that, and
 * parent/child expansion over any of them, each taking an inner `Searcher`.
 *
 * @example A searcher that keeps only one folder's hits, over any other
 * ```ts
 * import assert from "node:assert/strict";
 * import type { Searcher } from "./mod.ts";
 *
 * function onlyUnder(folder: string, inner: Searcher): Searcher {
 *   return {
 *     async search(request) {
 *       const result = await inner.search(request);
 *       const matches = result.matches.filter((hit) => hit.chunk.sourcePath.startsWith(`${folder}/`));
 *       return { ...result, matches };
 *     },
 *   };
 * }
 * const none: Searcher = { search: () => Promise.resolve({ matches: [], notices: [], examined: 0 }) };
 * assert.deepEqual((await onlyUnder("src", none).search({ query: "q", limit: 5 })).matches, []);
 * ```
 */
export interface Searcher {
  /** Answers one request, best hit first. */
  search(request: SearchRequest): Promise<SearchResult>;
}

/** Retrieval modes of {@linkcode indexSearcher}. */
export type SearchMode = "dense" | "lexical" | "hybrid";

/** Options of {@linkcode indexSearcher}. */
export interface IndexSearcherOptions {
  /** "dense" cosine, "lexical" BM25, or "hybrid", both fused as `fusion` says. */
  mode: SearchMode;
  /** Embeds the query; needed by "dense" and "hybrid". */
  embedQuery?: (query: string) => Promise<Float32Array>;
  /** The k of reciprocal rank fusion. @default 60 */
  rrfK?: number;
  /** How "hybrid" fuses dense and BM25 (see `SearchOptions.fusion`). */
  fusion?: Fusion;
  /** The ranking stage after retrieval (see `SearchOptions.ranking`). */
  ranking?: boolean | RankingOptions;
}

/**
 * The retriever at the bottom of every stack: ranks an index's chunks by
 * dense similarity, BM25 or both (see `searchIndex`).
 */
export function indexSearcher(
  index: SearchableIndex,
  options: IndexSearcherOptions,
): Searcher {
  return {
    async search(request) {
      const vector = options.mode === "lexical" || !options.embedQuery
        ? null
        : await options.embedQuery(request.query);
      return searchIndex(index, vector, request.query, {
        limit: request.limit,
        minScore: request.minScore,
        filter: request.filter,
        mode: options.mode,
        rrfK: options.rrfK,
        ranking: options.ranking,
        fusion: options.fusion,
      });
    },
  };
}

/** Row of each chunk id, computed once per index. */
const rowsOf = new WeakMap<SearchableIndex, Map<string, number>>();

/** The row of a hit's chunk in `index`, for searchers that read its vector. */
export function rowOf(index: SearchableIndex, hit: SearchHit): number {
  if (index.rowOf) return index.rowOf(hit.chunk.id);
  let rows = rowsOf.get(index);
  if (!rows) {
    rows = new Map(index.chunks.map((chunk, row) => [chunk.id, row]));
    rowsOf.set(index, rows);
  }
  return rows.get(hit.chunk.id) ?? -1;
}
