/**
 * Search: ranks an index's chunks for a query by dense cosine, BM25 or their
 * reciprocal rank fusion, with path/type/language filters.
 *
 * @module
 */
export {
  type SearchableIndex,
  type SearchHit,
  searchIndex,
  type SearchOptions,
  type SearchResult,
  type SearchScores,
} from "./search_index.ts";
export type { SearchFilter } from "./match_filter.ts";
export { buildContext, type ContextOptions } from "./build_context.ts";
export { type PassageScorer, rerankHits, type RerankOptions } from "./rerank.ts";
