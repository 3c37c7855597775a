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
import type { Chunk } from "../types.ts";

const MAGIC = 0x48434657; // "WFCH" read as a little-endian u32
const FORMAT = 1;
const HEADER = 16;
const NUMBERS = ["lineStart", "lineEnd", "startOffset", "endOffset"] as const;
const DICTIONARIES = ["type", "language", "sourcePath"] as const;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const SHA1_HEX = /^[0-9a-f]{40}$/;
const HEX_ASCII = new TextEncoder().encode("0123456789abcdef");

/** Stable ids are sha1 hex: as raw bytes they take half the space. */
function packIds(ids: string[]): Uint8Array {
  const out = new Uint8Array(20 * ids.length);
  ids.forEach((id, row) => {
    for (let i = 0; i < 20; i++) out[row * 20 + i] = parseInt(id.slice(2 * i, 2 * i + 2), 16);
  });
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

/** Accumulates rows in order; `encode` serialises them. */
export class ChunkTableBuilder {
  #offsets: number[] = [0];
  #numbers: number[][] = NUMBERS.map(() => []);
  #ids: number[][] = DICTIONARIES.map(() => []);
  #dictionaries = DICTIONARIES.map(() => new Map<string, number>());
  #flags: number[] = [];
  #strings: string[][] = [[], [], [], []];

  /** Adds the next row, whose content took `textBytes` bytes of text.bin. */
  add(chunk: Chunk, textBytes: number): void {
    this.#offsets.push(this.#offsets[this.#offsets.length - 1]! + textBytes);
    NUMBERS.forEach((key, k) => this.#numbers[k]!.push(chunk[key]));
    DICTIONARIES.forEach((key, k) => {
      const dictionary = this.#dictionaries[k]!;
      let id = dictionary.get(chunk[key]);
      if (id === undefined) dictionary.set(chunk[key], id = dictionary.size);
      this.#ids[k]!.push(id);
    });
    this.#flags.push((chunk.symbol !== undefined ? 1 : 0) | (chunk.parent !== undefined ? 2 : 0));
    const strings = [
      chunk.id,
      chunk.symbol ?? "",
      chunk.parent ?? "",
      JSON.stringify(chunk.metadata),
    ];
    strings.forEach((value, k) => this.#strings[k]!.push(value));
  }

  encode(): Uint8Array {
    const rows = this.#flags.length;
    const lists = [...this.#dictionaries.map((d) => [...d.keys()]), ...this.#strings];
    const packed = rows > 0 && this.#strings[0]!.every((id) => SHA1_HEX.test(id));
    const encoded = lists.map((list, i) => {
      if (packed && i === 3) return packIds(list);
      if (list.some((value) => value.includes("\0"))) {
        throw new Error("Cannot write chunk metadata: a string holds a NUL character");
      }
      return new TextEncoder().encode(list.join("\0"));
    });
    const fixed = HEADER + 8 * (rows + 1) + 4 * 7 * rows + Math.ceil(rows / 4) * 4;
    const out = new Uint8Array(fixed + encoded.reduce((sum, bytes) => sum + 8 + bytes.length, 0));
    const view = new DataView(out.buffer);
    [MAGIC, FORMAT, rows, packed ? 1 : 0].forEach((value, i) => view.setUint32(4 * i, value, true));
    let at = HEADER;
    for (const offset of this.#offsets) view.setFloat64((at += 8) - 8, offset, true);
    for (const column of [...this.#numbers, ...this.#ids]) {
      for (const value of column) view.setUint32((at += 4) - 4, value, true);
    }
    out.set(this.#flags, at);
    at += Math.ceil(rows / 4) * 4;
    lists.forEach((list, i) => {
      view.setUint32(at, list.length, true);
      view.setUint32(at + 4, encoded[i]!.length, true);
      out.set(encoded[i]!, at + 8);
      at += 8 + encoded[i]!.length;
    });
    return out;
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
