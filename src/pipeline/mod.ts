/**
 * The index pipeline: walk → chunk → fit → embed → store, incremental.
 * @module
 */
export {
  CHUNKER_VERSION,
  indexCorpus,
  type IndexOptions,
  type IndexProgress,
  type IndexSummary,
  type SharedVectors,
} from "./index_corpus.ts";
export {
  embeddingContext,
  embeddingInput,
  INPUT_FORMAT,
  KNOWLEDGE_INPUT_FORMAT,
} from "./embedding_input.ts";
export {
  fitCorpus,
  type FitCorpusOptions,
  type FitInput,
  type FitInputsOptions,
  type FitInputsReport,
} from "./fit_corpus.ts";
export { fitChunks, type FittedChunk, tokenBudget } from "./fit_chunks.ts";
export type {
  BatchEvent,
  FailedEvent,
  FileEvent,
  IndexEvent,
  PartialEvent,
  PublishedEvent,
  StartedEvent,
} from "./index_events.ts";
export { PARTIAL_PUBLISHING, type PartialPublishing } from "./partial_publish.ts";
export { contentHasher, type TreeChanges, treeChanges } from "./tree_changes.ts";
export { emitSkipped, eventEmitter, publishedEvent } from "./index_events.ts";
