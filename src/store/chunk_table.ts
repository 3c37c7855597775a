/**
 * `chunks.bin`: every chunk's metadata in compact columns, without its text
 * (that lives in `text.bin`, read per hit). Little-endian:
 *
 *   "WFCH" · u32 format · u32 rows · u32 flags (1: ids are sha1 hex, stored as 20 raw bytes)
 *   f64[rows + 1]  byte offset of each chunk's content in text.bin; the last is its size
 *   u32[rows] × 7  lineStart, lineEnd, startOffset, endOffset, and type, language and path
 *                  as indexes into the first three lists below
 *   u8[rows]       1 when the chunk has a symbol, 2 when it has a parent (padded to 4)
 *   7 × (u32 count, u32 byte length, UTF-8 NUL-separated strings): types, languages, paths,
 *       then per row: ids, symbols, parents, metadata as JSON; with flag 1 the ids are instead
 *       u32 count, u32 byte length, 20 bytes per row
 */
import type { Chunk, RowColumns } from "../types.ts";
import { _bytesLE } from "./_durable.ts";
import { TypedList } from "./growable.ts";

const MAGIC = 0x48434657; // "WFCH" read as a little-endian u32
const FORMAT = 1;
const HEADER = 16;
const NUMBERS = ["lineStart", "lineEnd", "startOffset", "endOffset"] as const;
const DICTIONARIES = ["type", "language", "sourcePath"] as const;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const SHA1_HEX = /^[0-9a-f]{40}$/;
const HEX_ASCII = new TextEncoder().encode("0123456789abcdef");

/** Stable ids are sha1 hex: as raw bytes they take half the space. `ascii` holds them NUL-separated. */
function packIds(ascii: Uint8Array, rows: number): Uint8Array {
  const out = new Uint8Array(20 * rows);
  const digit = (at: number) => {
    const c = ascii[at]!;
    return c <= 57 ? c - 48 : c - 87; // 0-9, a-f
  };
  for (let row = 0; row < rows; row++) {
    for (let i = 0; i < 20; i++) {
      out[row * 20 + i] = digit(row * 41 + 2 * i) * 16 + digit(row * 41 + 2 * i + 1);
    }
  }
  return out;
}

/** Raw ids back to hex: spelled out as ASCII in one buffer and decoded at once, not concatenated. */
function unpackIds(bytes: Uint8Array): string[] {
  const rows = bytes.length / 20;
  if (rows === 0) return [];
  const ascii = new Uint8Array(rows * 41 - 1);
  for (let row = 0; row < rows; row++) {
    for (let i = 0; i < 20; i++) {
      const byte = bytes[row * 20 + i]!;
      ascii[row * 41 + 2 * i] = HEX_ASCII[byte >> 4]!;
      ascii[row * 41 + 2 * i + 1] = HEX_ASCII[byte & 15]!;
    }
  }
  return new TextDecoder().decode(ascii).split("\0");
}

/** The decoded table: columns as typed arrays, strings split once. */
export interface ChunkTable {
  rows: number;
  /** Chunk r's content is bytes `[textOffsets[r], textOffsets[r + 1])` of text.bin. */
  textOffsets: Float64Array;
  /** lineStart, lineEnd, startOffset, endOffset of row r at `numbers[k][r]`. */
  numbers: Uint32Array[];
  /** type, language and path ids of row r, into `values`. */
  ids: Uint32Array[];
  values: string[][];
  flags: Uint8Array;
  chunkIds: string[];
  symbols: string[];
  parents: string[];
  metadata: string[];
}

/** A list of strings as the file holds it: UTF-8, NUL-separated, encoded as they arrive. */
class TextList {
  count = 0;
  #bytes = new TypedList(Uint8Array);
  #encoder = new TextEncoder();

  add(value: string): void {
    if (value.includes("\0")) {
      throw new Error("Cannot write chunk metadata: a string holds a NUL character");
    }
    // UTF-8 takes at most 3 bytes per UTF-16 code unit; 1 more for the separator.
    const bytes = this.#bytes;
    bytes.reserve(3 * value.length + 1);
    if (this.count++ > 0) bytes.push(0);
    bytes.length += this.#encoder.encodeInto(value, bytes.array.subarray(bytes.length)).written;
  }

  /** The count, the byte length and the bytes, as the file lays a list out. */
  parts(): Uint8Array[] {
    const bytes = this.#bytes.values();
    return [_bytesLE(Uint32Array.of(this.count, bytes.length)), bytes];
  }

  bytes(): Uint8Array {
    return this.#bytes.values();
  }
}

/**
 * Accumulates rows in order, as typed columns and encoded strings, so a
 * row's metadata costs a few dozen bytes; `encode` lays the file out.
 */
export class ChunkTableBuilder {
  #offsets = new TypedList(Float64Array);
  #numbers = NUMBERS.map(() => new TypedList(Uint32Array));
  #ids = DICTIONARIES.map(() => new TypedList(Uint32Array));
  #dictionaries = DICTIONARIES.map(() => new Map<string, number>());
  #flags = new TypedList(Uint8Array);
  #strings = [0, 1, 2, 3].map(() => new TextList());
  /** Whether every chunk id so far is sha1 hex. */
  #hexIds = true;

  constructor() {
    this.#offsets.push(0);
  }

  /** Adds the next row, whose content took `textBytes` bytes of text.bin. */
  add(chunk: Chunk, textBytes: number): void {
    this.#offsets.push(this.#offsets.array[this.#offsets.length - 1]! + textBytes);
    NUMBERS.forEach((key, k) => this.#numbers[k]!.push(chunk[key]));
    DICTIONARIES.forEach((key, k) => {
      const dictionary = this.#dictionaries[k]!;
      let id = dictionary.get(chunk[key]);
      if (id === undefined) dictionary.set(chunk[key], id = dictionary.size);
      this.#ids[k]!.push(id);
    });
    this.#flags.push((chunk.symbol !== undefined ? 1 : 0) | (chunk.parent !== undefined ? 2 : 0));
    this.#hexIds &&= SHA1_HEX.test(chunk.id);
    const strings = [
      chunk.id,
      chunk.symbol ?? "",
      chunk.parent ?? "",
      JSON.stringify(chunk.metadata),
    ];
    strings.forEach((value, k) => this.#strings[k]!.add(value));
  }

  /** The file, as pieces to write in order. */
  encode(): Uint8Array[] {
    const rows = this.#flags.length;
    const packed = rows > 0 && this.#hexIds;
    const u32 = (...values: number[]) => _bytesLE(Uint32Array.from(values));
    const parts = [u32(MAGIC, FORMAT, rows, packed ? 1 : 0), _bytesLE(this.#offsets.values())];
    for (const column of [...this.#numbers, ...this.#ids]) parts.push(_bytesLE(column.values()));
    parts.push(this.#flags.values(), new Uint8Array(Math.ceil(rows / 4) * 4 - rows));
    for (const dictionary of this.#dictionaries) {
      const list = new TextList();
      for (const value of dictionary.keys()) list.add(value);
      parts.push(...list.parts());
    }
    const [ids, ...rest] = this.#strings;
    if (packed) parts.push(u32(rows, 20 * rows), packIds(ids!.bytes(), rows));
    else parts.push(...ids!.parts());
    for (const list of rest) parts.push(...list.parts());
    return parts;
  }
}

/** Reads fixed-size sections in order, as views of the file where alignment allows. */
function sections(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = HEADER;
  const take = (size: number) => {
    if (at + size > bytes.length) throw new Error("it is truncated");
    at += size;
    return bytes.byteOffset + at - size;
  };
  const typed = <T>(
    count: number,
    width: number,
    make: (buffer: ArrayBufferLike, offset: number, count: number) => T,
    read: (offset: number) => number,
    copy: (values: number[]) => T,
  ): T => {
    const offset = take(width * count);
    if (LITTLE_ENDIAN && offset % width === 0) return make(bytes.buffer, offset, count);
    return copy(
      Array.from({ length: count }, (_, i) => read(offset - bytes.byteOffset + i * width)),
    );
  };
  const decoder = new TextDecoder("utf-8", { fatal: true });
  return {
    view,
    f64s: (count: number) =>
      typed(
        count,
        8,
        (b, o, c) => new Float64Array(b, o, c),
        (o) => view.getFloat64(o, true),
        (v) => Float64Array.from(v),
      ),
    u32s: (count: number) =>
      typed(
        count,
        4,
        (b, o, c) => new Uint32Array(b, o, c),
        (o) => view.getUint32(o, true),
        (v) => Uint32Array.from(v),
      ),
    u8s: (count: number) => bytes.subarray(take(count) - bytes.byteOffset, at),
    list(packed = false): string[] {
      const [count, length] = [
        view.getUint32(take(8) - bytes.byteOffset, true),
        view.getUint32(at - 4, true),
      ];
      const start = take(length) - bytes.byteOffset;
      if (packed) {
        if (length !== 20 * count) throw new Error("its ids are damaged");
        return unpackIds(bytes.subarray(start, at));
      }
      // Counted, because no strings and one empty string are the same bytes.
      const values = count === 0 ? [] : decoder.decode(bytes.subarray(start, at)).split("\0");
      if (values.length !== count) throw new Error("a string list is damaged");
      return values;
    },
    end: () => at,
  };
}

/**
 * Decodes `chunks.bin`, checking its format and that every section fits.
 * @throws {Error} When the file is of another format or damaged; the message is one line.
 */
export function decodeChunkTable(bytes: Uint8Array): ChunkTable {
  if (bytes.length < HEADER) throw new Error("it is truncated");
  const s = sections(bytes);
  if (s.view.getUint32(0, true) !== MAGIC) throw new Error("it is not a wayfinder chunk table");
  if (s.view.getUint32(4, true) !== FORMAT) throw new Error("it is of another format");
  const rows = s.view.getUint32(8, true);
  const textOffsets = s.f64s(rows + 1);
  const numbers = NUMBERS.map(() => s.u32s(rows));
  const ids = DICTIONARIES.map(() => s.u32s(rows));
  const flags = s.u8s(Math.ceil(rows / 4) * 4).subarray(0, rows);
  const values = DICTIONARIES.map(() => s.list());
  const packed = (s.view.getUint32(12, true) & 1) === 1;
  const [chunkIds, symbols, parents, metadata] = [s.list(packed), s.list(), s.list(), s.list()];
  if (s.end() !== bytes.length || chunkIds!.length !== rows || metadata!.length !== rows) {
    throw new Error("it is damaged");
  }
  ids.forEach((column, k) => {
    if (column.some((id) => id >= values[k]!.length)) throw new Error("it is damaged");
  });
  return {
    rows,
    textOffsets,
    numbers,
    ids,
    values,
    flags,
    chunkIds: chunkIds!,
    symbols: symbols!,
    parents: parents!,
    metadata: metadata!,
  };
}

/** The table's path, type and language columns, shared, not copied. */
export function columnsOf(table: ChunkTable): RowColumns {
  const { ids, values } = table;
  return {
    type: { values: values[0]!, ids: ids[0]! },
    language: { values: values[1]!, ids: ids[1]! },
    sourcePath: { values: values[2]!, ids: ids[2]! },
  };
}

/**
 * Row `row` as a `Chunk` whose `content` is read from text.bin when asked
 * for (an own getter, so spreading or serialising the chunk still copies it).
 */
export function chunkAt(
  table: ChunkTable,
  row: number,
  readText: (start: number, end: number) => string,
): Chunk {
  const { numbers: n, ids, values } = table;
  const chunk: Chunk = {
    id: table.chunkIds[row]!,
    sourcePath: values[2]![ids[2]![row]!]!,
    lineStart: n[0]![row]!,
    lineEnd: n[1]![row]!,
    startOffset: n[2]![row]!,
    endOffset: n[3]![row]!,
    type: values[0]![ids[0]![row]!]!,
    language: values[1]![ids[1]![row]!]!,
    get content() {
      return readText(table.textOffsets[row]!, table.textOffsets[row + 1]!);
    },
    metadata: JSON.parse(table.metadata[row]!),
  };
  if (table.flags[row]! & 1) chunk.symbol = table.symbols[row];
  if (table.flags[row]! & 2) chunk.parent = table.parents[row];
  return chunk;
}
