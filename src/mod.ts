/**
 * wayfinder as a library: open a source tree, index it, search it.
 *
 * ```ts ignore
 * import { openCorpus } from "./src/mod.ts";
 *
 * const corpus = await openCorpus("./my-repo");
 * await corpus.index();
 * const { matches, contextText } = await corpus.search("refresh the auth token", {
 *   mode: "hybrid",
 *   expand: true,
 *   contextChars: 6000,
 * });
 * await corpus.close();
 * ```
 *
 * The stages below the front door (walk, chunk, embed, store, search, eval)
 * are exported from their own `mod.ts` for callers who compose them.
 * @module
 */
export * from "./corpus/mod.ts";
export type { Chunk, Hit } from "./types.ts";
export type {
  FitInput,
  FitInputsOptions,
  FitInputsReport,
  IndexEvent,
  IndexProgress,
  IndexSummary,
  PartialEvent,
} from "./pipeline/mod.ts";
export {
  type FitBudget,
  type FitDiagnostic,
  type FitDiagnosticCode,
  type FitFragment,
  type FitPassage,
  fitPassage,
  type FittedPassage,
  type UnfitPassage,
} from "./fit/mod.ts";
export {
  buildContext,
  diversifyingSearcher,
  expandingSearcher,
  indexSearcher,
  type ParentContext,
  type PassageScorer,
  rerankingSearcher,
  type Searcher,
  type SearchFilter,
  type SearchHit,
  type SearchMode,
  type SearchRequest,
  type SearchResult,
} from "./search/mod.ts";
export {
  type Embedder,
  FakeEmbedder,
  HttpEmbedder,
  HttpReranker,
  LlamaEmbedder,
  LlamaReranker,
  type ModelIdentity,
  StaticEmbedder,
} from "./embed/mod.ts";
export type { Metrics, Report, RunReport } from "./eval/mod.ts";
export { WayfinderError } from "./error.ts";
