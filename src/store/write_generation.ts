import { join } from "node:path";
import process from "node:process";
import { WayfinderError } from "../error.ts";
import { rowRanges } from "../row_ranges.ts";
import type { Chunk, Quantization, RowRange } from "../types.ts";
import { _PRIVATE_DIR, _syncDir, _writeSynced } from "./_durable.ts";
import { FILES, GenerationWriter } from "./generation_writer.ts";
import { encodeFileRecords, FILE_RECORDS } from "./file_records.ts";
import { _xxh64 } from "./_xxh64.ts";
import {
  FORMAT_VERSION,
  type IndexManifest,
  type IndexManifestInput,
  type SegmentRecord,
} from "./manifest.ts";
import { freshName, GENERATION_NAME, noteSegments, reclaim } from "./reclaim.ts";
import { recordIntact } from "./verify_generation.ts";

export { FILES, GENERATION_NAME };

/** Everything one generation holds. */
export interface GenerationData {
  manifest: IndexManifestInput;
  /** Chunks in row order. */
  chunks: Chunk[];
  /** One vector per chunk, or all rows back to back; `manifest.identity.dimensions` wide. */
  vectors: Float32Array[] | Float32Array;
}

/** Row i's vector, checked against the chunk count and dimensions. */
function rowsOf(
  vectors: Float32Array[] | Float32Array,
  count: number,
  dimensions: number,
): (row: number) => Float32Array {
  const fail = (reason: string) => new WayfinderError("internal", `Cannot write index: ${reason}`);
  if (vectors instanceof Float32Array) {
    if (vectors.length !== count * dimensions) {
      throw fail(`${vectors.length} floats for ${count} chunks of ${dimensions} dimensions`);
    }
    return (row) => vectors.subarray(row * dimensions, (row + 1) * dimensions);
  }
  if (vectors.length !== count) throw fail(`${vectors.length} vectors for ${count} chunks`);
  vectors.forEach((vector, i) => {
    if (vector?.length !== dimensions) {
      throw fail(`vector ${i} has ${vector?.length} dimensions, expected ${dimensions}`);
    }
  });
  return (row) => vectors[row]!;
}

function ioError(indexDir: string, error: unknown): WayfinderError {
  if (error instanceof WayfinderError) return error;
  return new WayfinderError(
    "io",
    `Cannot write index at ${indexDir}: ${(error as Error).message}`,
    { cause: error },
  );
}

/** A segment written and synced, not yet listed by any generation. */
export interface WrittenSegment {
  record: SegmentRecord;
  /** xxh64 of each data file, by path under the index directory. */
  checksums: Record<string, string>;
}

/**
 * Writes one immutable segment: rows as `rows` yields them, each a chunk and
 * its vector, or null for a row still to embed (zeros on disk, recorded as
 * pending). Synced before it returns; listed by no generation yet, so a
 * crash leaves garbage the next publish collects.
 */
export async function writeSegment(
  indexDir: string,
  rows: Iterable<[Chunk, Float32Array | null]>,
  dimensions: number,
  quantization: Quantization = "none",
): Promise<WrittenSegment> {
  const name = freshName("seg");
  const dir = join(indexDir, name);
  const zeros = new Float32Array(dimensions);
  try {
    await Deno.mkdir(indexDir, { recursive: true, mode: _PRIVATE_DIR });
    await Deno.mkdir(dir, { mode: _PRIVATE_DIR });
    const writer = await GenerationWriter.create(dir, dimensions, quantization);
    const pending: number[] = [];
    let count = 0;
    let files: Record<string, string>;
    try {
      for (const [chunk, vector] of rows) {
        if (vector === null) pending.push(count);
        else if (vector.length !== dimensions) {
          throw new WayfinderError(
            "internal",
            `Cannot write index: vector ${count} has ${vector.length} dimensions, expected ${dimensions}`,
          );
        }
        await writer.add(chunk, vector ?? zeros);
        count++;
      }
      files = await writer.finish();
    } catch (error) {
      writer.abandon();
      throw error;
    }
    await _syncDir(dir);
    const checksums: Record<string, string> = {};
    for (const [file, hash] of Object.entries(files)) checksums[`${name}/${file}`] = hash;
    const record: SegmentRecord = { name, rows: count };
    if (pending.length) record.pending = rowRanges(pending);
    return { record, checksums };
  } catch (error) {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    throw ioError(indexDir, error);
  }
}

/** Live rows of a segment: its rows less the deleted ones. */
export function liveRows(segment: SegmentRecord): number {
  let rows = segment.rows;
  for (const [start, end] of segment.deleted ?? []) rows -= end - start;
  return rows;
}

/** Pending rows of `segments` as ranges of the generation's live rows. */
export function globalPending(segments: readonly SegmentRecord[]): RowRange[] {
  const rows: number[] = [];
  let base = 0;
  for (const segment of segments) {
    if (segment.pending?.length) {
      const deleted = new Uint8Array(segment.rows);
      for (const [start, end] of segment.deleted ?? []) deleted.fill(1, start, end);
      const pending = new Uint8Array(segment.rows);
      for (const [start, end] of segment.pending) pending.fill(1, start, end);
      let live = 0;
      for (let row = 0; row < segment.rows; row++) {
        if (deleted[row]) continue;
        if (pending[row]) rows.push(base + live);
        live++;
      }
    }
    base += liveRows(segment);
  }
  return rowRanges(rows);
}

/** The generation this process last published into each index directory, and its segments. */
export const published = new Map<string, { name: string; segments: SegmentRecord[] }>();

/** Options of `publishGeneration` and `writeGeneration`. */
export interface PublishOptions {
  /**
   * Generations the running writer still reads from, kept besides the live
   * one and those readers lease. Pins live only in the writer's memory.
   */
  pinned?: readonly string[];
}

/**
 * Publishes a generation listing `segments` (written and synced already):
 * writes its manifest into a fresh `gen-*` directory, fsyncs it, then points
 * `current` at it with one atomic rename, the only commit point. A crash
 * before the rename leaves the previous generation live. Afterwards reclaims
 * what no generation in use references (see `reclaim.ts`). The caller holds
 * the index lock.
 *
 * @param checksums Each listed segment's data files' xxh64, by path under the index directory.
 * @returns The new generation's name.
 */
export async function publishGeneration(
  indexDir: string,
  input: IndexManifestInput,
  segments: SegmentRecord[],
  checksums: Record<string, string>,
  options: PublishOptions = {},
): Promise<string> {
  const dimensions = input.identity.dimensions;
  const name = freshName("gen");
  const genDir = join(indexDir, name);
  const kept = segments.filter((segment) => liveRows(segment) > 0);
  const sums: Record<string, string> = {};
  for (const segment of kept) {
    for (const [path, hash] of Object.entries(checksums)) {
      if (path.startsWith(`${segment.name}/`)) sums[path] = hash;
    }
  }
  const pending = globalPending(kept);
  const { pending: _ignored, files, ...rest } = input;
  // The file records go beside the manifest, which a search then parses without them.
  const records = new TextEncoder().encode(encodeFileRecords(files));
  sums[`${name}/${FILE_RECORDS}`] = await _xxh64(records);
  const manifest: Omit<IndexManifest, "files"> = {
    formatVersion: FORMAT_VERSION,
    ...rest,
    ...(pending.length ? { pending } : {}),
    createdAt: input.createdAt ?? new Date().toISOString(),
    dimensions,
    chunkCount: kept.reduce((sum, segment) => sum + liveRows(segment), 0),
    segments: kept,
    checksums: sums,
  };
  try {
    await Deno.mkdir(genDir, { mode: _PRIVATE_DIR });
    await _writeSynced(join(genDir, FILE_RECORDS), records);
    await _writeSynced(join(genDir, FILES.manifest), JSON.stringify(manifest) + "\n");
    await _syncDir(genDir);
    await _syncDir(indexDir);
    const temp = join(indexDir, `current.tmp-${process.pid}`);
    await Deno.remove(temp).catch(() => {});
    await _writeSynced(temp, name + "\n");
    await Deno.rename(temp, join(indexDir, "current"));
    await _syncDir(indexDir);
  } catch (error) {
    await Deno.remove(genDir, { recursive: true }).catch(() => {});
    throw ioError(indexDir, error);
  }
  noteSegments(indexDir, name, kept.map((segment) => segment.name));
  published.set(indexDir, { name, segments: kept });
  await recordIntact(indexDir, name, Object.keys(sums));
  await reclaim(indexDir, { keep: options.pinned });
  return name;
}

/**
 * Publishes a new generation of an index holding exactly `data`: one new
 * segment with every row (passages, metadata, full-text index, vectors and
 * their codes), then the switch of `current` (see `publishGeneration`).
 * Rows in `data.manifest.pending` are recorded as not embedded yet.
 * The caller holds the index lock.
 *
 * @param indexDir The corpus's index directory; created if missing.
 * @param data Manifest fields, chunks and their vectors, in the same order.
 * @returns The new generation's name.
 * @throws {WayfinderError} `io` when the directory cannot be written;
 *   `internal` when vectors do not match chunks or dimensions.
 */
export async function writeGeneration(
  indexDir: string,
  data: GenerationData,
  options: PublishOptions = {},
): Promise<string> {
  const dimensions = data.manifest.identity.dimensions;
  const count = data.chunks.length;
  const row = rowsOf(data.vectors, count, dimensions);
  function* rows(): Generator<[Chunk, Float32Array]> {
    for (let i = 0; i < count; i++) yield [data.chunks[i]!, row(i)];
  }
  const written = await writeSegment(
    indexDir,
    rows(),
    dimensions,
    data.manifest.quantization ?? "none",
  );
  if (data.manifest.pending?.length) written.record.pending = data.manifest.pending;
  try {
    return await publishGeneration(
      indexDir,
      data.manifest,
      count > 0 ? [written.record] : [],
      written.checksums,
      options,
    );
  } catch (error) {
    await Deno.remove(join(indexDir, written.record.name), { recursive: true }).catch(() => {});
    throw error;
  }
}

/** What `publishEdit` changes in the generation it builds on. */
export interface Edit {
  /** The new generation's manifest fields; `files` lists every file, kept ones included. */
  manifest: IndexManifestInput;
  /** Files whose rows leave the index: deleted, or replaced by `rows`. */
  removed: Iterable<string>;
  /** The new segment's rows: each chunk and its vector, null for one still to embed. */
  rows: Iterable<[Chunk, Float32Array | null]>;
}

/** The segments a generation reads, as `publishEdit` needs them. */
export interface EditBase {
  manifest: Pick<IndexManifest, "segments" | "checksums">;
  /** Each segment's rows' source paths (the chunk table's path column). */
  segments?: readonly {
    record: SegmentRecord;
    table: { ids: Uint32Array[]; values: string[][] };
  }[];
}

/** `record` with the rows whose path is in `removed` marked deleted too. */
function withDeleted(
  record: SegmentRecord,
  paths: { ids: Uint32Array; values: string[] },
  removed: Set<string>,
): SegmentRecord {
  const gone = Uint8Array.from(paths.values, (path) => removed.has(path) ? 1 : 0);
  if (!gone.includes(1)) return record;
  const deleted = new Uint8Array(record.rows);
  for (const [start, end] of record.deleted ?? []) deleted.fill(1, start, end);
  let changed = false;
  for (let row = 0; row < record.rows; row++) {
    if (gone[paths.ids[row]!] && !deleted[row]) {
      deleted[row] = 1;
      changed = true;
    }
  }
  if (!changed) return record;
  const rows: number[] = [];
  for (let row = 0; row < record.rows; row++) if (deleted[row]) rows.push(row);
  return { ...record, deleted: rowRanges(rows) };
}

/**
 * Publishes an edit of the generation `base` (null: of nothing): the rows of
 * `removed` files are marked deleted in the segments that hold them, the new
 * rows go into one new segment, and every other segment is shared by
 * reference, never copied. Then the switch of `current` as in
 * `publishGeneration`. The caller holds the index lock.
 * @returns The new generation's name.
 */
export async function publishEdit(
  indexDir: string,
  base: EditBase | null,
  edit: Edit,
  options: PublishOptions = {},
): Promise<string> {
  const removed = new Set(edit.removed);
  const segments: SegmentRecord[] = [];
  for (const [s, record] of (base?.manifest.segments ?? []).entries()) {
    const table = base!.segments?.[s]?.table;
    if (!table || base!.segments![s]!.record.name !== record.name) {
      throw new WayfinderError("internal", `Cannot edit index: segment ${record.name} is not open`);
    }
    segments.push(withDeleted(record, { ids: table.ids[2]!, values: table.values[2]! }, removed));
  }
  const { dimensions } = edit.manifest.identity;
  const written = await writeSegment(
    indexDir,
    edit.rows,
    dimensions,
    edit.manifest.quantization ?? "none",
  );
  try {
    return await publishGeneration(
      indexDir,
      edit.manifest,
      [...segments, written.record],
      { ...base?.manifest.checksums, ...written.checksums },
      options,
    );
  } catch (error) {
    await Deno.remove(join(indexDir, written.record.name), { recursive: true }).catch(() => {});
    throw error;
  }
}
