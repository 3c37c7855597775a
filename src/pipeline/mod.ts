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
} from "./index_corpus.ts";
export { embeddingInput, INPUT_FORMAT } from "./embedding_input.ts";
export type {
  BatchEvent,
  FailedEvent,
  FileEvent,
  IndexEvent,
  PublishedEvent,
  StartedEvent,
} from "./index_events.ts";
export { type TreeChanges, treeChanges } from "./tree_changes.ts";
