/**
 * Brings another store (PostgreSQL, Orama) up to a local generation: the
 * files whose passages differ are republished with their vectors, the files
 * the generation no longer holds are removed, and every other file's rows
 * stay where they are. The local index stays the working copy an index run
 * edits; the store is where searches, other machines and CI read it.
 */
import type { Chunk } from "../types.ts";
import { inRanges } from "../row_ranges.ts";
import type { FileRecord, IndexManifest } from "./manifest.ts";
import type { StoredIndex } from "./open_index.ts";
import type { FileChange, Store } from "./store.ts";

/** What a sync sent. */
export interface StoreSync {
  /** The store's live generation afterwards (null when it has none). */
  generation: string | null;
  /** Files republished, and removed. */
  changed: number;
  removed: number;
  /** Whether the store was rebuilt from nothing (another model, or no generation yet). */
  fresh: boolean;
}

/**
 * Publishes to `store` what `source` holds and it does not. A store written
 * with another model, chunker or input format, or holding rows not embedded
 * yet (their file records cannot say which), is rebuilt whole.
 * @param inputHash The hash of the text the model read for a chunk (the store's cache key).
 */
export async function syncStore(
  store: Store,
  source: StoredIndex,
  inputHash: (chunk: Chunk) => string,
): Promise<StoreSync> {
  const lock = await store.lock();
  try {
    const local = source.manifest;
    const { fresh, changed, removed } = planSync(await store.manifest(), local);
    if (!fresh && changed.length === 0 && removed.length === 0) {
      return { generation: (await store.status()).generation, changed: 0, removed: 0, fresh };
    }
    const { files: _files, ...manifest } = local;
    const generation = await store.publish({
      manifest,
      removed,
      changed: changed.map((path) => fileChange(source, path, local.files[path]!, inputHash)),
      fresh,
    });
    return { generation, changed: changed.length, removed: removed.length, fresh };
  } finally {
    await lock.release();
  }
}

/**
 * What a store holding `target` lacks of the generation `local`: the files to
 * send again, those to remove, or `fresh` when it must be rebuilt whole.
 */
export function planSync(
  target: IndexManifest | null,
  local: IndexManifest,
): { fresh: boolean; changed: string[]; removed: string[] } {
  const fresh = target === null || !sameBuild(target, local) || (target.pending?.length ?? 0) > 0;
  const theirs = fresh ? {} : target.files;
  const changed = Object.entries(local.files)
    .filter(([path, record]) => !sameFile(theirs[path], record))
    .map(([path]) => path);
  const removed = Object.keys(theirs).filter((path) => !(path in local.files));
  return { fresh, changed, removed };
}

/** Built the same way: the same model and inputs, chunked by the same chunker. */
function sameBuild(a: IndexManifest, b: IndexManifest): boolean {
  return a.fingerprint === b.fingerprint && a.chunkerVersion === b.chunkerVersion &&
    a.inputFormat === b.inputFormat;
}

function sameFile(theirs: FileRecord | undefined, ours: FileRecord): boolean {
  return theirs !== undefined && theirs.hash === ours.hash &&
    theirs.chunkIds.join("\n") === ours.chunkIds.join("\n");
}

/** One file's rows of `source`, with their vectors (null where still pending). */
function fileChange(
  source: StoredIndex,
  path: string,
  record: FileRecord,
  inputHash: (chunk: Chunk) => string,
): FileChange {
  const d = source.dimensions;
  const chunks: Chunk[] = [];
  const vectors: (Float32Array | null)[] = [];
  for (const id of record.chunkIds) {
    const row = source.rowOf(id);
    // Copied, so the passage's text is read now, from the generation this sync holds.
    chunks.push({ ...source.chunks[row]! });
    const pending = source.pending !== undefined && inRanges(source.pending, row);
    vectors.push(
      pending ? null : (source.vectorAt?.(row) ?? source.vectors.slice(row * d, (row + 1) * d)),
    );
  }
  return { path, record, chunks, vectors, inputHashes: chunks.map(inputHash) };
}
