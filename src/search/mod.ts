/**
 * Search: ranks an index's chunks for a query by dense cosine, BM25 or a
 * fusion of both, with path/type/language filters; and searchers
 * that stack on any other (rerank, diversity, parent/child), plus prompt
 * context building.
 *
 * @module
 */
export { embeddedShare, searchIndex } from "./search_index.ts";
export type {
  Fusion,
  SearchableIndex,
  SearchHit,
  SearchOptions,
  SearchResult,
  SearchScores,
} from "./search_types.ts";
export type { SearchFilter } from "./match_filter.ts";
export {
  EMBEDDING_RANKING,
  LEXICAL_RANKING,
  rankCode,
  RANKING_STEPS,
  type RankingOptions,
} from "./code_ranking.ts";
export { queriedIdentifiers } from "./named_definitions.ts";
export { pathPrior } from "./path_signals.ts";
export { DENSE_SHARE, fuseRanked, isRankedFusion, type RankedFusion } from "./ranked_fusion.ts";
export {
  indexSearcher,
  type IndexSearcherOptions,
  type Searcher,
  type SearchMode,
  type SearchRequest,
} from "./searcher.ts";
export {
  type Candidate,
  type CandidateFilter,
  type CandidateSource,
  storeSearcher,
} from "./store_searcher.ts";
export {
  type PassageScorer,
  rerankHits,
  type RerankingOptions,
  rerankingSearcher,
  type RerankOptions,
} from "./rerank.ts";
export {
  diversifyingSearcher,
  type DiversifyOptions,
  maximalMarginalRelevance,
} from "./diversify.ts";
export { expandingSearcher, type FoldedHit, type ParentContext, parentOf } from "./expand.ts";
export { describeParent, parentIsWider } from "./describe_parent.ts";
export { shownPassage, type SourceReader, sourceReader } from "./source_text.ts";
export { buildContext, type ContextOptions } from "./build_context.ts";
