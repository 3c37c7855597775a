/**
 * A generation's segment files read back: each checked for its size and
 * checksum, vectors and codes copied to the generation's rows (deleted rows
 * skipped), and the per-segment columns merged into one.
 */
import { join } from "node:path";
import { WayfinderError } from "../error.ts";
import type { QuantizedVectors, RowColumns } from "../types.ts";
import { _float32FromLE } from "./_durable.ts";
import { _hasher, _readHashed, _xxh64File } from "./_xxh64.ts";
import { type ChunkTable, columnsOf, decodeChunkTable } from "./chunk_table.ts";
import { decodeLexical, type LexicalData } from "./lexical_format.ts";
import type { IndexManifest, SegmentRecord } from "./manifest.ts";
import { CODE_FILES, codeBytes } from "./quantize.ts";
import { fixedSizes } from "./generation_writer.ts";
import { FILES } from "./write_generation.ts";

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** One generation's files, read and checked against its manifest. */
export interface Checked {
  dir: string;
  manifest: IndexManifest;
  fail: (reason: string) => WayfinderError;
  verify: boolean;
}

/** A data file (path under the index directory) read whole, of the size expected, its checksum verified. */
export async function readChecked(c: Checked, file: string, size?: number): Promise<Uint8Array> {
  const { bytes, hash } = await _readHashed(join(c.dir, file), c.verify);
  if (size !== undefined && bytes.byteLength !== size) {
    throw c.fail(`${file} holds ${bytes.byteLength} bytes, expected ${size}`);
  }
  if (c.verify && hash !== c.manifest.checksums[file]) throw c.fail(`${file} fails its checksum`);
  return bytes;
}

/** A data file streamed through the hash and not kept: passages and postings are read later. */
export async function checkStreamed(c: Checked, file: string, size?: number): Promise<void> {
  const path = join(c.dir, file);
  const { hash, bytes } = c.verify
    ? await _xxh64File(path)
    : { hash: "", bytes: (await Deno.stat(path)).size };
  if (size !== undefined && bytes !== size) {
    throw c.fail(`${file} holds ${bytes} bytes, expected ${size}`);
  }
  if (c.verify && hash !== c.manifest.checksums[file]) throw c.fail(`${file} fails its checksum`);
}

/**
 * A segment's vectors file read straight into `into` (its size exactly)
 * while hashed, or, when rows are deleted, whole and then its live rows copied.
 */
export async function readVectors(
  c: Checked,
  segment: SegmentView,
  into: Float32Array,
): Promise<void> {
  const file = `${segment.record.name}/${FILES.vectors}`;
  const d = c.manifest.dimensions;
  const size = segment.record.rows * d * 4;
  if (segment.local === null && LITTLE_ENDIAN) {
    const target = new Uint8Array(into.buffer, into.byteOffset + segment.start * d * 4, size);
    const hasher = c.verify ? await _hasher() : null;
    using handle = await Deno.open(join(c.dir, file), { read: true });
    const actual = (await handle.stat()).size;
    if (actual !== size) throw c.fail(`${file} holds ${actual} bytes, expected ${size}`);
    let filled = 0;
    while (filled < size) {
      const n = await handle.read(target.subarray(filled, Math.min(filled + (1 << 23), size)));
      if (n === null) break;
      hasher?.update(target.subarray(filled, filled + n));
      filled += n;
    }
    if (filled !== size) throw c.fail(`${file} holds ${filled} bytes, expected ${size}`);
    if (hasher && hasher.digest() !== c.manifest.checksums[file]) {
      throw c.fail(`${file} fails its checksum`);
    }
    return;
  }
  const vectors = _float32FromLE(await readChecked(c, file, size));
  if (segment.local === null) {
    into.set(vectors, segment.start * d);
    return;
  }
  segment.local.forEach((row, n) => {
    into.set(vectors.subarray(row * d, (row + 1) * d), (segment.start + n) * d);
  });
}

export async function readTable(c: Checked, segment: SegmentRecord): Promise<ChunkTable> {
  const file = `${segment.name}/${FILES.chunks}`;
  let table: ChunkTable;
  try {
    table = decodeChunkTable(await readChecked(c, file));
  } catch (error) {
    if (error instanceof WayfinderError || error instanceof Deno.errors.NotFound) throw error;
    throw c.fail(`${file} is unreadable (${(error as Error).message})`);
  }
  if (table.rows !== segment.rows) {
    throw c.fail(`${file} holds ${table.rows} chunks, expected ${segment.rows}`);
  }
  return table;
}

/** The live rows' codes of every segment, back to back. */
export async function readCodes(
  c: Checked,
  segments: SegmentView[],
  total: number,
): Promise<QuantizedVectors | undefined> {
  const kind = c.manifest.quantization ?? "none";
  if (kind === "none") return undefined;
  const { dimensions } = c.manifest;
  const width = codeBytes(kind, dimensions);
  const codes = new Uint8Array(total * width);
  const scales = new Float32Array(kind === "int8" ? total : 0);
  for (const segment of segments) {
    const { rows, name } = segment.record;
    const file = `${name}/${CODE_FILES[kind]}`;
    const bytes = await readChecked(c, file, fixedSizes(rows, dimensions, kind)[CODE_FILES[kind]]);
    const own = kind === "int8" ? _float32FromLE(bytes.subarray(rows * width)) : null;
    const live = segment.local ?? null;
    const count = live ? live.length : rows;
    for (let n = 0; n < count; n++) {
      const row = live ? live[n]! : n;
      codes.set(bytes.subarray(row * width, (row + 1) * width), (segment.start + n) * width);
      if (own) scales[segment.start + n] = own[row]!;
    }
  }
  if (kind === "binary") return { kind, codes };
  return { kind, codes: new Int8Array(codes.buffer, 0, codes.length), scales };
}

/** A segment as a generation reads it. */
export interface SegmentView {
  record: SegmentRecord;
  /** The generation's row of the segment's first live row. */
  start: number;
  /** The segment row of each live row, in order; null when no row is deleted. */
  local: Int32Array | null;
  table: ChunkTable;
}

/** Segment row → generation row, -1 for a deleted row. */
export function globalRows(segment: SegmentView): Int32Array {
  const global = new Int32Array(segment.record.rows).fill(-1);
  if (segment.local === null) {
    for (let row = 0; row < global.length; row++) global[row] = segment.start + row;
  } else {
    segment.local.forEach((row, n) => global[row] = segment.start + n);
  }
  return global;
}

/** The segment rows not marked deleted, in order; null when none is. */
export function liveOf(record: SegmentRecord): Int32Array | null {
  if (!record.deleted?.length) return null;
  const deleted = new Uint8Array(record.rows);
  for (const [start, end] of record.deleted) deleted.fill(1, start, end);
  const live: number[] = [];
  for (let row = 0; row < record.rows; row++) if (!deleted[row]) live.push(row);
  return Int32Array.from(live);
}

/** The path, type and language columns of every segment's live rows as one. */
export function mergeColumns(segments: SegmentView[], total: number): RowColumns {
  if (segments.length === 1 && segments[0]!.local === null) return columnsOf(segments[0]!.table);
  const merged = {} as Record<keyof RowColumns, { values: string[]; ids: Uint32Array }>;
  for (const key of ["type", "language", "sourcePath"] as const) {
    const index = new Map<string, number>();
    const ids = new Uint32Array(total);
    for (const segment of segments) {
      const column = columnsOf(segment.table)[key];
      const remap = column.values.map((value) => {
        let id = index.get(value);
        if (id === undefined) index.set(value, id = index.size);
        return id;
      });
      const count = segment.local ? segment.local.length : segment.record.rows;
      for (let n = 0; n < count; n++) {
        const row = segment.local ? segment.local[n]! : n;
        ids[segment.start + n] = remap[column.ids[row]!]!;
      }
    }
    merged[key] = { values: [...index.keys()], ids };
  }
  return merged;
}

/** Reads the lexical file of a segment; `fail` makes a one-line stale-index error. */
export function readLexicalData(
  dir: string,
  segment: SegmentRecord,
  fail: (reason: string) => WayfinderError,
): LexicalData {
  const file = `${segment.name}/${FILES.lexical}`;
  let bytes: Uint8Array;
  try {
    bytes = Deno.readFileSync(join(dir, file));
  } catch (error) {
    throw fail(`${file} is unreadable (${(error as Error).message})`);
  }
  try {
    return decodeLexical(bytes);
  } catch (error) {
    throw fail(`${file} is unreadable (${(error as Error).message})`);
  }
}
