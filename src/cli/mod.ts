/**
 * What the command line and the MCP server need beyond the library
 * (`src/mod.ts`): their configuration, the JSON and text they print, and the
 * stages only a command runs (evaluation, model preparation, the validate
 * and get reports). Not part of the package's exports: nothing here is
 * promised to library users, and nothing the library exports is repeated here.
 * @module
 */
export * from "../config/mod.ts";
export { escapeLine, escapeText } from "../escape.ts";
export { plural } from "../plural.ts";
export { hintsFor, worded } from "../hints.ts";
export { projectRoot } from "../project_root.ts";
export {
  type BuildSettingName,
  type ConfiguredCorpus,
  type ConfiguredCorpusOptions,
  type ConfiguredIndexOptions,
  type ConfiguredSearchOptions,
  type ConfiguredSearchResult,
  type CorpusState,
  evaluateCorpus,
  type FileLines,
  hitJson,
  liveIndex,
  type Locations,
  openConfiguredCorpus,
  parseRun,
  type RerankerSettings,
  resultJson,
  type Staleness,
  type StatusReport,
  type TruncatedQuery,
  watchCorpus,
  type WatchUpdate,
} from "../corpus/mod.ts";
export {
  applyIndexFixes,
  checkQualifiers,
  describeConcept,
  diffIndexFixes,
  formatReportText,
  // The command prints each Profile's chain and lock, which the library's `getProfiles` leaves out.
  getProfiles as getLockedProfiles,
  type GetResult as LockedProfiles,
  locateBinding,
  parseGoverning,
  planIndexFixes,
  repoRootOf,
  type RuleInfo,
  toSarif,
  validateProject,
} from "../okf/mod.ts";
export {
  compareToBaseline,
  loadAnnotations,
  loadGroups,
  loadJudgments,
  loadQueries,
  loadReport,
  type Report,
  type UnmatchedJudgment,
} from "../eval/mod.ts";
export { openLlamaTokenOutputs } from "../embed/mod.ts";
export {
  DEFAULT_MODEL,
  type DistilledModel,
  distillStaticModel,
  importCheckpoint,
  prepareFromPip,
  prepareModel,
  readStaticModel,
  readVerifiedManifest,
  staticModelPathFor,
} from "../model/mod.ts";
export type {
  FitInput,
  FitInputsReport,
  IndexEvent,
  IndexProgress,
  PartialEvent,
} from "../pipeline/mod.ts";
export { contentHasher, embeddingInput } from "../pipeline/mod.ts";
export {
  describeParent,
  parentIsWider,
  type SearchMode,
  shownPassage,
  type SourceReader,
  sourceReader,
} from "../search/mod.ts";
export { exportToOrama, type OramaExport } from "../store/mod.ts";
