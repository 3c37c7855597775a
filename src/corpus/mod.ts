/**
 * The front door: a source tree and its index, opened once, indexed and
 * searched through one object that every command shares.
 * @module
 */
export type {
  ConfiguredCorpus,
  ConfiguredCorpusOptions,
  ConfiguredIndexOptions,
  ConfiguredSearchOptions,
  ConfiguredSearchResult,
  Corpus,
  CorpusIndexOptions,
  CorpusOptions,
  CorpusSearchOptions,
  CorpusSearchResult,
} from "./corpus.ts";
export { indexHoldingLock, liveIndex, openConfiguredCorpus, openCorpus } from "./open_corpus.ts";
export type { FileLines } from "./read_lines.ts";
export type { IndexSettings } from "./corpus_settings.ts";
export { type BuildSettingName } from "./rebuild_command.ts";
export {
  type CorpusReport,
  evaluateCorpus,
  type EvaluateOptions,
  parseRun,
  type RunSpec,
  type TruncatedQuery,
} from "./evaluate_corpus.ts";
export {
  type EmbedderSettings,
  type Locations,
  openCodeChunker,
  openEmbedder,
  openReranker,
  type RerankerSettings,
} from "./open_models.ts";
export { type HitJson, hitJson, type ResultJson, resultJson } from "./result_json.ts";
export {
  type CorpusState,
  type CorpusStatus,
  type Staleness,
  type StatusReport,
} from "./corpus_status.ts";
export { watchCorpus, type WatchOptions, type WatchUpdate } from "./watch.ts";
