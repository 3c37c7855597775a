import type { StoredIndex } from "../mod.ts";
import type { FileChange } from "../store.ts";
import { OramaStore, type OramaStoreOptions } from "./orama_store.ts";

/** What an export wrote. */
export interface OramaExport {
  /** The database file, absolute. */
  path: string;
  generation: string;
  files: number;
  chunks: number;
  /** Chunks exported without a vector: the index was still embedding them. */
  pending: number;
  bytes: number;
}

/**
 * Writes a local index's live generation as an Orama database file: every
 * chunk with its vector (none for pending rows), under the file's writer
 * lock, replacing the file atomically.
 *
 * @param index The local index, opened.
 * @param path Where the database goes; its folder must exist.
 * @param options How a chunk's input hash is computed, for `vectorsByInput`.
 */
export async function exportToOrama(
  index: StoredIndex,
  path: string,
  options: OramaStoreOptions = {},
): Promise<OramaExport> {
  const { chunks, vectors, dimensions, manifest } = index;
  const pending = (row: number) => (index.pending ?? []).some(([s, e]) => row >= s && row < e);
  const byFile = new Map<string, FileChange>();
  chunks.forEach((chunk, row) => {
    const path = chunk.sourcePath;
    let change = byFile.get(path);
    if (!change) {
      const record = manifest.files[path] ?? { hash: "", bytes: 0, chunkIds: [] };
      byFile.set(path, change = { path, record, chunks: [], vectors: [] });
    }
    change.chunks.push(chunk);
    change.vectors.push(
      pending(row) ? null : vectors.slice(row * dimensions, (row + 1) * dimensions),
    );
  });
  // What the index was built from and with; its files, pending rows and layout the store writes anew.
  const { root, identity, fingerprint, chunkerVersion, inputFormat, settings, createdAt } =
    manifest;
  const store = new OramaStore(path, options);
  const lock = await store.lock();
  try {
    const generation = await store.publish({
      manifest: { root, identity, fingerprint, chunkerVersion, inputFormat, settings, createdAt },
      removed: [],
      changed: [...byFile.values()],
      fresh: true,
    });
    const status = await store.status();
    return {
      path: store.location,
      generation,
      files: byFile.size,
      chunks: chunks.length,
      pending: status.pending.reduce((sum, [s, e]) => sum + e - s, 0),
      bytes: status.bytes ?? 0,
    };
  } finally {
    await lock.release();
    await store.close();
  }
}
