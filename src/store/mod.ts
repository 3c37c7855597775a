/**
 * The store: one corpus's index on disk as immutable segments (chunks, a
 * compact full-text index of our own, raw float32 vectors) listed by small
 * generations (a manifest and deletion marks) published by an atomic switch
 * of `current`, reader leases that keep what readers use, plus the lock that
 * serialises index runs.
 *
 * @example Write, open and search an index
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * import { openIndex, writeGeneration } from "./mod.ts";
 *
 * const dir = await Deno.makeTempDir();
 * const identity = {
 *   name: "fake", provider: "fake", sha256: "0", dimensions: 2, queryPrefix: "",
 *   pooling: "none", normalize: true, maxTokens: 512, longInput: "reject", inputFormat: 1,
 * };
 * const chunk = {
 *   id: "a", sourcePath: "auth.ts", lineStart: 1, lineEnd: 1, startOffset: 0, endOffset: 20,
 *   type: "function", language: "typescript", content: "function refreshAuthToken() {}",
 *   metadata: {},
 * };
 * await writeGeneration(dir, {
 *   manifest: { root: "/src", identity, fingerprint: "f", files: {} },
 *   chunks: [chunk],
 *   vectors: [new Float32Array([0.6, 0.8])],
 * });
 * const index = (await openIndex(dir))!;
 * deepEqual(index.vectors, new Float32Array([0.6, 0.8]));
 * deepEqual(index.lexical("refresh token", 5).map((hit) => hit.index), [0]);
 * deepEqual(index.lexical("refresh token", 5, { languages: ["markdown"] }), []);
 * await Deno.remove(dir, { recursive: true });
 * ```
 * @module
 */
export { tokenizeCode } from "./code_tokenizer.ts";
export { unitMean } from "./unit_mean.ts";
export { INDEX_MARKER, indexDirFor, isIndexDir, mayHoldIndex } from "./index_dir.ts";
export {
  acquireIndexLock,
  type IndexLock,
  type LockHolder,
  processAlive,
  readIndexLock,
} from "./index_lock.ts";
export type { LexicalFilter } from "./lexical_filter.ts";
export type { LexicalHit } from "./lexical_index.ts";
export {
  assertSameModel,
  type FileRecord,
  FORMAT_VERSION,
  identityChanges,
  type IndexManifest,
  type IndexManifestInput,
  type RecordedSettings,
  type SegmentRecord,
} from "./manifest.ts";
export {
  currentGeneration,
  openIndex,
  type OpenOptions,
  readManifest,
  type StoredIndex,
  UnusableIndexError,
} from "./open_index.ts";
export type { SegmentView } from "./read_segments.ts";
export {
  type Edit,
  type GenerationData,
  publishEdit,
  publishGeneration,
  type PublishOptions,
  writeGeneration,
  writeSegment,
} from "./write_generation.ts";
export { folderBytes, LocalStore, type LocalStoreOptions } from "./local_store.ts";
export {
  type EmbeddingCache,
  type FileChange,
  hasEmbeddingCache,
  type Publication,
  type Store,
  type StoreFilter,
  type StoreHit,
  type StoreQuery,
  type StoreReader,
  type StoreStatus,
} from "./store.ts";
export {
  openRemoteStore,
  parseStoreUrl,
  type RemoteStoreOptions,
  type StoreUrl,
} from "./store_url.ts";
export { planSync, type StoreSync, syncStore } from "./sync_store.ts";
export { MERGE_POLICY, type MergePolicy, mergeSegments, segmentsToMerge } from "./merge.ts";
export { type Lease, leasedGenerations, READERS_DIR, reclaim, takeLease } from "./reclaim.ts";
export { retainLexical } from "./retain_lexical.ts";
export { openForEdit } from "./open_for_edit.ts";
export { verifyGeneration } from "./verify_generation.ts";
export { CACHE_FILE, readVectorCache, writeVectorCache } from "./vector_cache.ts";
export {
  clearRunFailure,
  clearRunProgress,
  readRunFailure,
  readRunProgress,
  recordRunFailure,
  RUN_FILES,
  type RunFailure,
  type RunProgress,
  writeRunProgress,
} from "./run_state.ts";
export {
  exportToOrama,
  openOramaStore,
  type OramaExport,
  type OramaStore,
  type OramaStoreOptions,
} from "./orama/mod.ts";
export { _replaceJsonFile as replaceJsonFile } from "./_durable.ts";
