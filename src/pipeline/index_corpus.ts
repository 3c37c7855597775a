// Over 400 lines: one incremental run (plan, reuse, embed, publish) whose steps share its Plan type.
import type { Chunk, Quantization, RowRange, SourceFile } from "../types.ts";
import { inRanges } from "../row_ranges.ts";
import { type Fix, type RebuildCommand, WayfinderError } from "../error.ts";
import type { WalkResult } from "../walk/mod.ts";
import type { CodeChunker } from "../chunk/mod.ts";
import { assertFits, type UnfitPassage } from "../fit/mod.ts";
import {
  type Embedder,
  identityFingerprint,
  type ModelIdentity,
  onlyJoiningDiffers,
} from "../embed/mod.ts";
import {
  acquireIndexLock,
  assertSameModel,
  identityChanges,
  type IndexLock,
  mergeSegments,
  openForEdit,
  publishEdit,
  readManifest,
  readVectorCache,
  reclaim,
  type RecordedSettings,
  type StoredIndex,
  UnusableIndexError,
  writeVectorCache,
} from "../store/mod.ts";
import { embeddingInput, INPUT_FORMAT, KNOWLEDGE_INPUT_FORMAT } from "./embedding_input.ts";
import { chunkSource, walkSources } from "./chunk_source.ts";
import {
  emitSkipped,
  eventEmitter,
  type IndexEvent,
  type IndexEventInput,
} from "./index_events.ts";
import { startJournal } from "./run_journal.ts";
import { contentHasher, unreadableRecorded } from "./tree_changes.ts";
import { PARTIAL_PUBLISHING, partialPublisher, type PartialPublishing } from "./partial_publish.ts";
import { BUILD_DEFAULTS } from "../build_defaults.ts";

/** Bumped when chunking changes, so unchanged files are re-chunked (their vectors still reused by id). */
export const CHUNKER_VERSION = 9;

export interface IndexOptions {
  root: string;
  indexDir: string;
  /** The embedder, or how to open it: opened inside the run, a failure to open is a failed run. */
  embedder: Embedder | (() => Promise<Embedder>);
  chunker: CodeChunker;
  include?: string[];
  exclude?: string[];
  maxFileBytes?: number;
  /** Chunk budget in non-whitespace characters. */
  maxChunkChars?: number;
  /**
   * For a chunk that cannot fit the token budget even one character at a
   * time: fail the run ("reject"), or embed it whole from its first tokens.
   */
  longInput: "reject" | "truncate";
  /** Ignore the previous index (e.g. after a model change). */
  rebuild?: boolean;
  /**
   * The rebuild an error about another model names as the fix, from the
   * previous index's recorded settings. @default `wayfinder index <root> --rebuild`
   */
  rebuildFix?: (recorded: RecordedSettings | undefined) => Promise<RebuildCommand>;
  onProgress?: (progress: IndexProgress) => void;
  /** Written into the manifest, for `search` and later runs to read back. */
  settings?: RecordedSettings;
  /** An OKF bundle: concepts become passages with their metadata; reserved files are skipped. */
  knowledge?: boolean;
  /** One JSON-ready event per step: started, file, batch, partial, published, failed. */
  onEvent?: (event: IndexEvent) => void;
  /** The corpus lock, when the caller holds it already (a watcher holds it while it runs). */
  lock?: IndexLock;
  /** Stops the run between files and batches; nothing is published then. */
  signal?: AbortSignal;
  /** Folders never walked, such as the data and index folders when they lie inside the root. */
  excludeDirs?: string[];
  /** Called with each folder's stat as the run's walk lists it (`freshness` records them). */
  onFolder?: (path: string, info: Deno.FileInfo) => void;
  /** Vector codes to keep for a fast first pass of dense search. @default "none" */
  quantization?: Quantization;
  /**
   * Publish searchable generations while embedding (see `partial_publish.ts`),
   * or `false` to publish once at the end. @default PARTIAL_PUBLISHING
   */
  partial?: Partial<PartialPublishing> | false;
  /**
   * Words an error's fix for whoever reads the run's failure (its event, and
   * `status` later); without it the failure is told without its fix.
   */
  wordFix?: (fix: Fix) => string;
  /**
   * Vectors a shared store already holds for this model, by embedding-input
   * hash (a team's PostgreSQL cache): asked for the inputs nothing local has
   * a vector for, before any is embedded.
   */
  sharedVectors?: SharedVectors;
}

/** Stored vectors of a model (its fingerprint) by embedding-input hash; those it lacks are left out. */
export type SharedVectors = (
  fingerprint: string,
  dimensions: number,
  hashes: readonly string[],
) => Promise<Map<string, Float32Array>>;

/** Where an index run is, for a progress display. */
export interface IndexProgress {
  /** The stage running now. */
  phase: "walk" | "chunk" | "embed" | "write";
  /** Files through the current stage. */
  filesDone: number;
  /** Files the run will go through. */
  filesTotal: number;
  /** Passages embedded so far. */
  chunksDone: number;
  /** Passages the run will embed. */
  chunksTotal: number;
}

/**
 * The summary `index --output json` prints.
 *
 * @example A second run finds nothing to do
 * ```ts
 * import assert from "node:assert/strict";
 * import { FakeEmbedder, openCorpus } from "../mod.ts";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/auth.ts`, "export function refreshToken() {\n  return fetchToken();\n}\n");
 * await Deno.writeTextFile(`${root}/README.md`, "# Auth\n\nRefresh the token before it expires.\n");
 * const dataDir = await Deno.makeTempDir();
 * const corpus = await openCorpus(root, { dataDir, embedder: new FakeEmbedder() });
 * const first = await corpus.index();
 * assert.equal(first.files.changed, 2);
 * const again = await corpus.index();
 * assert.equal(again.current, true);
 * assert.equal(again.embeddedChunks, 0);
 * await corpus.close();
 * await Deno.remove(root, { recursive: true });
 * await Deno.remove(dataDir, { recursive: true });
 * ```
 */
export interface IndexSummary {
  /** The tree's absolute path. */
  root: string;
  /** The index folder. */
  index: string;
  /** Files walked, changed (added included), deleted and skipped. */
  files: { seen: number; changed: number; deleted: number; skipped: number };
  /** Each skipped file (root-relative, `/`-separated) and why. */
  skipped: {
    path: string;
    reason:
      | "binary"
      | "too_large"
      | "unreadable"
      | "symlink_outside_root"
      | "symlink_loop"
      | "symlink_duplicate"
      | "not_utf8"
      | "non_utf8_name";
  }[];
  /** Passages embedded by this run. */
  embeddedChunks: number;
  /** Passages kept from the previous generation. */
  reusedChunks: number;
  /** Passages dropped with their changed or deleted files. */
  removedChunks: number;
  /** Passages cut to the model's budget (`longInput: "truncate"`). */
  truncatedChunks: number;
  /** Wall-clock time of the run. */
  elapsedMs: number;
  /** True when the index was already up to date and nothing was written. */
  current: boolean;
  /** The generation published, or null when nothing changed. */
  generation: string | null;
  /** Why the live generation could not be built on (`vectors.f32 fails its checksum`): the run rebuilt it. */
  rebuilt?: string;
  /** Passages whose vector came from a shared store's cache (`sharedVectors`), among `reusedChunks`. */
  sharedChunks?: number;
  /**
   * With a PostgreSQL or Orama store: where the run published, the store's
   * live generation afterwards, and the files it sent and removed.
   */
  store?: {
    location: string;
    generation: string | null;
    changedFiles: number;
    removedFiles: number;
  };
}

interface FileRecord {
  hash: string;
  bytes: number;
  mtime?: number;
  chunkIds: string[];
}

/**
 * Brings the index of `root` up to date: walks, hashes each file, re-chunks
 * only changed files, embeds only chunks whose ids are new, and publishes a
 * new generation atomically. Holds the corpus lock throughout.
 */
export async function indexCorpus(options: IndexOptions): Promise<IndexSummary> {
  const started = performance.now();
  const emit = eventEmitter(options.onEvent);
  let lock: IndexLock | undefined;
  try {
    lock = options.lock ? undefined : await acquireIndexLock(options.indexDir, options.root);
  } catch (error) {
    // Busy: another run owns the index and its journal, so nothing is recorded.
    emit({
      event: "failed",
      code: error instanceof WayfinderError ? error.code : "internal",
      message: (error as Error).message,
    });
    throw error;
  }
  const journal = startJournal({ ...options, emit });
  try {
    const embedder = typeof options.embedder === "function"
      ? await options.embedder()
      : options.embedder;
    const run = { ...options, embedder, onProgress: journal.progress, emit };
    const summary = await update(run, started);
    await journal.succeeded(summary);
    return summary;
  } catch (error) {
    // The journal keeps the message for events and `status`: worded for the caller's reader first.
    if (error instanceof WayfinderError && options.wordFix) error.wordFix(options.wordFix);
    throw await journal.failed(error);
  } finally {
    await journal.close();
    await lock?.release();
  }
}

/**
 * The same model chosen, its vectors made another way: another input format,
 * or joined with a static model (or no longer). None of the old vectors fit.
 */
function onlyRecipeDiffers(built: ModelIdentity, current: ModelIdentity): boolean {
  const changes = identityChanges(built, current);
  return (changes.length === 1 && changes[0] === "inputFormat") ||
    onlyJoiningDiffers(built, current);
}

/** What the walk found and what of the previous generation carries over. */
interface Plan {
  walked: WalkResult;
  files: Record<string, FileRecord>;
  /**
   * Build the new generation from nothing (no previous one, or its chunks cut
   * or coded another way) instead of editing the previous one.
   */
  fresh: boolean;
  /** Files of the previous generation whose rows leave it (edits only). */
  removedPaths: string[];
  /** The new segment's chunks: changed files' (every file's, when fresh). */
  chunks: Chunk[];
  /** Row i's vector, or null when chunk i still needs embedding. */
  vectors: (Float32Array | null)[];
  /** Rows to embed. */
  toEmbed: number[];
  changed: number;
  reused: number;
  deleted: number;
  removed: number;
  /** Embedded rows of the previous generation whose chunks this run drops. */
  removedRows: number[];
  /** Hashes of the inputs of rows no chunk id carried over: embedded or reused by input. */
  freshInputs: Set<string>;
  /** Rows whose vector came from the cache of dropped inputs. */
  fromCache: number;
  /** Rows whose vector came from a shared store (`sharedVectors`). */
  fromShared: number;
  /** Freshly chunked passages that cannot fit the token budget, kept whole. */
  unfit: UnfitPassage[];
}

/** Vectors of inputs earlier runs dropped, by input hash; read once, when first needed. */
type DroppedCache = () => Promise<Map<string, Float32Array>>;

/** Options inside a run: events already stamped and journaled. */
type RunOptions = IndexOptions & { embedder: Embedder; emit: (event: IndexEventInput) => void };

async function update(options: RunOptions, started: number): Promise<IndexSummary> {
  const opened = await openPrevious(options);
  try {
    return await updateFrom(options, started, opened);
  } finally {
    // The run's lease on the generation it started from goes, and with it what nothing else holds.
    await opened.previous?.close?.();
    await reclaim(options.indexDir);
  }
}

async function updateFrom(
  options: RunOptions,
  started: number,
  opened: { previous: StoredIndex | null; rebuilt?: string },
): Promise<IndexSummary> {
  const { embedder, root } = options;
  const fingerprint = identityFingerprint(embedder.identity);
  let { previous } = opened;
  const { rebuilt } = opened;
  if (previous && onlyRecipeDiffers(previous.manifest.identity, embedder.identity)) {
    // Same model, vectors made another way (a new input format, a folder that became a
    // bundle, a static model joined): none of the old vectors fit, so this run rebuilds.
    previous = null;
  }
  if (previous && previous.manifest.fingerprint !== fingerprint) {
    const command = await options.rebuildFix?.(previous.manifest.settings);
    assertSameModel(previous.manifest, embedder.identity, fingerprint, root, command);
  }
  // A complete live generation for this model keeps answering until the run ends:
  // a partial one in its place would take dense answers away.
  const live = previous?.manifest ??
    (options.rebuild ? await readManifest(options.indexDir, root).catch(() => null) : null);
  const servesDense = live !== null && live.fingerprint === fingerprint && !live.pending?.length;
  // A static model embeds a whole tree in about the time a lexical-first publish takes.
  if (servesDense || embedder.identity.provider === "static") {
    options = { ...options, partial: false };
  }
  const quantization = options.quantization ?? BUILD_DEFAULTS.quantization;
  const sameCodes = (previous?.manifest.quantization ?? "none") === quantization;
  let fresh = previous === null || !sameCodes || previous.segments === undefined;
  if (previous && chunkingChanged(previous, options)) {
    previous = forgetFileRecords(previous);
    fresh = true;
  }
  let read: Promise<Map<string, Float32Array>> | undefined;
  const dropped: DroppedCache = () =>
    read ??= options.rebuild
      ? Promise.resolve(new Map())
      : readVectorCache(options.indexDir, fingerprint, embedder.identity.dimensions);
  const plan = await planUpdate(options, previous, dropped, fresh);
  if (options.longInput === "reject") {
    assertFits(plan.unfit, embedder.identity.maxTokens);
  }
  const summary = (embedded: number, truncated: number, generation: string | null) => ({
    ...summarise(options, plan, { embedded, truncated, generation, started }),
    ...(rebuilt ? { rebuilt } : {}),
  });
  const { changed, deleted, toEmbed, removed } = plan;
  if (
    previous && sameCodes && changed === 0 && deleted === 0 && toEmbed.length === 0 &&
    removed === 0
  ) {
    return summary(0, 0, null);
  }
  const publish = publisher(options, plan, previous, fingerprint);
  const { embedded, truncated } = await embedMissing(options, plan, publish);
  options.signal?.throwIfAborted();
  const total = walkedFiles(plan);
  options.onProgress?.({
    phase: "write",
    filesDone: total,
    filesTotal: total,
    chunksDone: toEmbed.length,
    chunksTotal: toEmbed.length,
  });
  const outcome = summary(embedded, truncated, await publish());
  await keepDropped(options, plan, previous, dropped, fingerprint);
  // The edit is searchable already; merging only tidies, so its failure fails nothing.
  await mergeSegments(options.indexDir, { root }).catch(() => {});
  return outcome;
}

/** Publishes the plan as it stands: rows still to embed as `pending`. */
function publisher(
  options: RunOptions,
  plan: Plan,
  previous: StoredIndex | null,
  fingerprint: string,
): () => Promise<string> {
  const { identity } = options.embedder;
  // Reused passages read their text from the generation this run started from:
  // the run's lease on it keeps it on disk through every publish of the run.
  return () =>
    publishEdit(options.indexDir, plan.fresh ? null : previous, {
      manifest: {
        root: options.root,
        identity,
        fingerprint,
        chunkerVersion: CHUNKER_VERSION,
        inputFormat: options.knowledge ? KNOWLEDGE_INPUT_FORMAT : INPUT_FORMAT,
        settings: options.settings,
        files: plan.files,
        quantization: options.quantization ?? BUILD_DEFAULTS.quantization,
      },
      removed: plan.removedPaths,
      // Rows still to embed are zeros on disk, recorded as pending.
      rows: plan.chunks.map((chunk, i) => [chunk, plan.vectors[i] ?? null]),
    });
}

/**
 * The live generation this run builds on, or null to build afresh: when
 * rebuilding, and when the live one is unusable (written by another format
 * version, or damaged), which only a rebuild from the tree mends.
 */
async function openPrevious(
  options: RunOptions,
): Promise<{ previous: StoredIndex | null; rebuilt?: string }> {
  if (options.rebuild) return { previous: null };
  try {
    // Vectors stay on disk: the run reads only those of the rows it moves.
    const previous = await openForEdit(options.indexDir, options.root);
    return { previous };
  } catch (error) {
    if (!(error instanceof UnusableIndexError)) throw error;
    return { previous: null, rebuilt: error.reason };
  }
}

/**
 * Walks the tree and hashes each file: an unchanged file keeps its rows
 * where they are (no chunk of it is built, no text read), a changed one is
 * chunked again into the new segment; a chunk whose id the previous
 * generation holds keeps its vector. When `fresh`, every file's chunks go
 * into the new segment, unchanged ones copied from the previous generation.
 */
async function planUpdate(
  options: RunOptions,
  previous: StoredIndex | null,
  dropped: DroppedCache,
  fresh: boolean,
): Promise<Plan> {
  const report = (progress: IndexProgress) => options.onProgress?.(progress);
  report({ phase: "walk", filesDone: 0, filesTotal: 0, chunksDone: 0, chunksTotal: 0 });
  // Read whole once: the run asks for every file's record, and one lookup at a time would
  // search the records file for each.
  const previousFiles: Record<string, FileRecord> = { ...previous?.manifest.files };
  // The id column finds a reused chunk's row without building every previous chunk.
  const previousRow = (id: string) => previous?.rowOf(id) ?? -1;
  // A file with rows still to embed is written again, its embedded rows reused by id.
  const waiting = (record: FileRecord) =>
    previous?.pending?.length
      ? record.chunkIds.some((id) => inRanges(previous.pending, previousRow(id)))
      : false;
  // A file of the size and time its record holds is kept unread: the hash stays the
  // authority whenever its stat moved.
  const keep = (path: string, bytes: number, mtime: number) => {
    const before = previousFiles[path];
    return before?.mtime === mtime && before.bytes === bytes && !waiting(before);
  };
  const walked = await walkSources(options, previous && !fresh ? keep : undefined);
  const hashOf = await contentHasher();

  const plan = emptyPlan(walked, fresh);
  // A file there but unreadable now keeps its record and chunks, in path order with the rest.
  const carried = unreadableRecorded(Object.keys(previousFiles), walked.skipped);
  const entries = [...walked.files, ...carried, ...walked.kept ?? []]
    .sort((a, b) => byPath(pathOf(a), pathOf(b)));
  const total = entries.length;
  report({ phase: "chunk", filesDone: 0, filesTotal: total, chunksDone: 0, chunksTotal: 0 });
  for (const [n, entry] of entries.entries()) {
    options.signal?.throwIfAborted();
    const path = pathOf(entry);
    const before = previousFiles[path];
    const hash = typeof entry === "string" ? before!.hash : hashOf(entry.content);
    const unchanged = before?.hash === hash;
    const bytes = typeof entry === "string" ? before!.bytes : entry.bytes;
    const progress = () =>
      report({
        phase: "chunk",
        filesDone: n + 1,
        filesTotal: total,
        chunksDone: 0,
        chunksTotal: 0,
      });
    const mtime = typeof entry === "string" ? before!.mtime : settled(entry.mtime);
    if (unchanged && previous && !fresh && (typeof entry === "string" || !waiting(before))) {
      // Kept where it is: the new generation shares its segment.
      plan.files[path] = { hash, bytes, ...(mtime ? { mtime } : {}), chunkIds: before.chunkIds };
      plan.reused += before.chunkIds.length;
      progress();
      continue;
    }
    if (before && !fresh) plan.removedPaths.push(path);
    let fileChunks: Chunk[];
    if (unchanged && previous) {
      fileChunks = before.chunkIds.map((id) => previous.chunks[previousRow(id)]!);
    } else {
      const file = entry as SourceFile;
      plan.changed++;
      fileChunks = await chunkOne(file, options, plan.unfit);
      const status = before ? "changed" : "added";
      options.emit({ event: "file", path, status, chunks: fileChunks.length });
    }
    plan.files[path] = {
      hash,
      bytes,
      ...(mtime ? { mtime } : {}),
      chunkIds: fileChunks.map((c) => c.id),
    };
    for (const chunk of fileChunks) {
      const at = previousRow(chunk.id);
      plan.chunks.push(chunk);
      if (
        at >= 0 && previous && !inRanges(previous.pending, at) &&
        // An id covers the passage, not the concept title or headings the input adds.
        (unchanged || embeddingInput(previous.chunks[at]!) === embeddingInput(chunk))
      ) {
        plan.vectors.push(vectorOf(previous, at));
        plan.reused++;
      } else {
        plan.vectors.push(null);
        plan.toEmbed.push(plan.chunks.length - 1);
      }
    }
    progress();
  }
  if (!fresh) {
    for (const path of Object.keys(previousFiles)) {
      if (!(path in plan.files)) plan.removedPaths.push(path);
    }
  }
  countDropped(options, plan, previous);
  if (plan.toEmbed.length > 0) reuseByInput(plan, previous, await dropped(), hashOf);
  if (plan.toEmbed.length > 0 && options.sharedVectors) await reuseShared(options, plan, hashOf);
  return plan;
}

/**
 * Gives a chunk still without a vector the one a shared store holds for the
 * same model and embedding input: what another machine (or an earlier run
 * against the store) embedded is not embedded again.
 */
async function reuseShared(
  options: RunOptions,
  plan: Plan,
  hash: (text: string) => string,
): Promise<void> {
  const { identity } = options.embedder;
  const keys = plan.toEmbed.map((i) => hash(embeddingInput(plan.chunks[i]!)));
  const found = await options.sharedVectors!(
    identityFingerprint(identity),
    identity.dimensions,
    [...new Set(keys)],
  );
  if (found.size === 0) return;
  plan.toEmbed = plan.toEmbed.filter((i, n) => {
    const vector = found.get(keys[n]!);
    if (!vector) return true;
    plan.vectors[i] = vector;
    plan.reused++;
    plan.fromShared++;
    return false;
  });
}

/** Row `row`'s vector in the previous generation (read from disk when its vectors were left there). */
function vectorOf(previous: StoredIndex, row: number): Float32Array {
  const d = previous.dimensions;
  return previous.vectorAt?.(row) ?? previous.vectors.subarray(row * d, (row + 1) * d);
}

/**
 * A modification time worth recording: one at least two seconds old, so a
 * write in the same clock tick as the read (same size, same time) cannot hide.
 */
function settled(mtime: number | undefined): number | undefined {
  return mtime !== undefined && Date.now() - mtime > 2_000 ? mtime : undefined;
}

/** A walked file's path, or the path of a recorded file carried over unread. */
function pathOf(entry: SourceFile | string): string {
  return typeof entry === "string" ? entry : entry.path;
}

/** Code-unit order, as the walk sorts. */
function byPath(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Files the walk found: read, and kept unread. */
function walkedFiles(plan: Plan): number {
  return plan.walked.files.length + (plan.walked.kept?.length ?? 0);
}

function emptyPlan(walked: WalkResult, fresh: boolean): Plan {
  return {
    walked,
    fresh,
    removedPaths: [],
    files: {},
    chunks: [],
    vectors: [],
    toEmbed: [],
    changed: 0,
    reused: 0,
    deleted: 0,
    removed: 0,
    removedRows: [],
    freshInputs: new Set(),
    fromCache: 0,
    fromShared: 0,
    unfit: [],
  };
}

/**
 * The previous generation's rows this update drops: of the files it removes
 * (every row, when fresh), those whose chunk ids no new row carries.
 */
function droppedRows(plan: Plan, previous: StoredIndex): number[] {
  const keptIds = new Set(plan.chunks.map((c) => c.id));
  const rows: number[] = [];
  if (plan.fresh) {
    previous.chunks.forEach((chunk, row) => {
      if (!keptIds.has(chunk.id)) rows.push(row);
    });
    return rows;
  }
  for (const path of plan.removedPaths) {
    for (const id of previous.manifest.files[path]?.chunkIds ?? []) {
      const row = previous.rowOf(id);
      if (row >= 0 && !keptIds.has(id)) rows.push(row);
    }
  }
  return rows;
}

/** Counts the files and chunks the update drops, reporting each dropped or skipped file. */
function countDropped(options: RunOptions, plan: Plan, previous: StoredIndex | null): void {
  const deleted = Object.keys(previous?.manifest.files ?? {}).filter((p) => !(p in plan.files));
  plan.deleted = deleted.length;
  for (const path of deleted) options.emit({ event: "file", path, status: "deleted" });
  emitSkipped(options.emit, plan.walked.skipped);
  if (!previous) return;
  for (const row of droppedRows(plan, previous)) {
    plan.removed++;
    if (!inRanges(previous.pending, row)) plan.removedRows.push(row);
  }
}

/**
 * Gives a chunk without a vector the vector of the same embedding input,
 * from the rows of the previous generation this update drops (a line shift
 * or a metadata-only edit changes a chunk's id but not what the model would
 * read; a file renamed keeps its passages) or else from the cache of inputs
 * earlier runs dropped (a file deleted and restored). Rows of files kept
 * unchanged are not read: an edit costs what it changes.
 */
function reuseByInput(
  plan: Plan,
  previous: StoredIndex | null,
  dropped: Map<string, Float32Array>,
  hash: (text: string) => string,
): void {
  const rows = new Map<string, number>();
  for (const row of plan.removedRows) rows.set(hash(embeddingInput(previous!.chunks[row]!)), row);
  plan.toEmbed = plan.toEmbed.filter((i) => {
    const key = hash(embeddingInput(plan.chunks[i]!));
    plan.freshInputs.add(key);
    const row = rows.get(key);
    const vector = row === undefined ? dropped.get(key) : vectorOf(previous!, row);
    if (!vector) return true;
    plan.vectors[i] = vector;
    plan.reused++;
    if (row === undefined) plan.fromCache++;
    return false;
  });
}

/**
 * Keeps the vectors of the inputs this run dropped, newest first and ahead of
 * those earlier runs dropped that are still missing from the index, for a
 * run that brings them back (`vector_cache.ts`). Rewritten only when the
 * run dropped or took something; never on a rebuild, which ignores it.
 */
async function keepDropped(
  options: RunOptions,
  plan: Plan,
  previous: StoredIndex | null,
  dropped: DroppedCache,
  fingerprint: string,
): Promise<void> {
  if (options.rebuild || (plan.removedRows.length === 0 && plan.fromCache === 0)) return;
  const hash = await contentHasher();
  const d = options.embedder.identity.dimensions;
  const kept = new Map<string, Float32Array>();
  for (const row of plan.removedRows) {
    const key = hash(embeddingInput(previous!.chunks[row]!));
    if (!plan.freshInputs.has(key)) {
      kept.set(key, vectorOf(previous!, row));
    }
  }
  for (const [key, vector] of await dropped()) {
    if (!plan.freshInputs.has(key) && !kept.has(key)) kept.set(key, vector);
  }
  await writeVectorCache(options.indexDir, fingerprint, d, kept);
}

/**
 * Embeds the chunks the plan lacks vectors for, publishing partial
 * generations on the way when there is much to embed; says how many inputs
 * were embedded and truncated.
 */
async function embedMissing(
  options: RunOptions,
  plan: Plan,
  publish: (pending: RowRange[]) => Promise<string>,
): Promise<{ embedded: number; truncated: number }> {
  const { embedder } = options;
  const { chunks, vectors } = plan;
  // Identical inputs (a vendored copy, a repeated block) are embedded once.
  const byInput = new Map<string, number[]>();
  for (const i of plan.toEmbed) {
    const input = embeddingInput(chunks[i]!);
    byInput.set(input, [...(byInput.get(input) ?? []), i]);
  }
  const toEmbed = [...byInput.values()].map((rows) => rows[0]!);
  const inputs = [...byInput.keys()];
  plan.reused += plan.toEmbed.length - toEmbed.length;
  // Only passages that cannot fit get here over budget; the embedder truncates them.
  const overBudget = new Set(plan.unfit.map((passage) => passage.chunkId));
  const truncated = toEmbed.filter((i) => overBudget.has(chunks[i]!.id)).length;
  const total = walkedFiles(plan);
  const policy = options.partial === false ? false : { ...PARTIAL_PUBLISHING, ...options.partial };
  const publishPartial = partialPublisher(
    policy,
    toEmbed.length,
    vectors,
    publish,
    (published) => options.emit({ event: "partial", ...published }),
  );
  // Progress and stop granularity: a few seconds of embedding on one thread.
  const batch = 32;
  const progress = (done: number) =>
    options.onProgress?.({
      phase: "embed",
      filesDone: total,
      filesTotal: total,
      chunksDone: done,
      chunksTotal: toEmbed.length,
    });
  progress(0);
  for (let start = 0; start < toEmbed.length; start += batch) {
    // Stopped: what is embedded so far stays, when a partial generation may hold it.
    await publishPartial(options.signal?.aborted ? "now" : undefined);
    options.signal?.throwIfAborted();
    const slice = toEmbed.slice(start, start + batch);
    const embedded = await embedder.embedDocuments(slice.map((_, n) => inputs[start + n]!));
    slice.forEach((_, n) => {
      for (const row of byInput.get(inputs[start + n]!)!) vectors[row] = embedded[n]!;
    });
    progress(Math.min(start + batch, toEmbed.length));
    options.emit({
      event: "batch",
      done: Math.min(start + batch, toEmbed.length),
      total: toEmbed.length,
    });
  }
  return { embedded: toEmbed.length, truncated };
}

function summarise(
  options: IndexOptions,
  plan: Plan,
  outcome: { embedded: number; truncated: number; generation: string | null; started: number },
): IndexSummary {
  return {
    root: options.root,
    index: options.indexDir,
    files: {
      seen: walkedFiles(plan),
      changed: plan.changed,
      deleted: plan.deleted,
      skipped: plan.walked.skipped.length,
    },
    skipped: plan.walked.skipped,
    embeddedChunks: outcome.embedded,
    reusedChunks: plan.reused,
    removedChunks: plan.removed,
    truncatedChunks: outcome.truncated,
    elapsedMs: Math.round(performance.now() - outcome.started),
    current: outcome.generation === null,
    generation: outcome.generation,
    ...(options.sharedVectors ? { sharedChunks: plan.fromShared } : {}),
  };
}

/**
 * Chunks one file and fits its chunks to the model's token budget (the step
 * `fit-inputs` reports on). A chunk that cannot fit stays whole and is noted
 * in `unfit`: the run fails on it under "reject".
 */
async function chunkOne(
  file: SourceFile,
  options: RunOptions,
  unfit: UnfitPassage[],
): Promise<Chunk[]> {
  const fitted = await chunkSource(file, options);
  for (const { unfit: passage } of fitted) if (passage) unfit.push(passage);
  return fitted.flatMap((f) => f.fragments);
}

/**
 * Whether the stored chunks were cut differently from how this run would cut
 * them (another chunker version or chunk budget): then every file is re-chunked.
 */
function chunkingChanged(previous: StoredIndex, options: IndexOptions): boolean {
  const recorded = previous.manifest.settings?.maxChunkChars;
  return previous.manifest.chunkerVersion !== CHUNKER_VERSION ||
    (recorded !== undefined && options.maxChunkChars !== undefined &&
      recorded !== options.maxChunkChars);
}

/** After a chunker change, forget per-file records so every file is re-chunked; vectors stay reusable by id. */
function forgetFileRecords(previous: StoredIndex): StoredIndex {
  return { ...previous, manifest: { ...previous.manifest, files: {} } };
}
