/**
 * The lexical file: a compact inverted index that wayfinder writes and reads
 * itself, laid out so that loading is a few typed-array views and one string
 * decode. Little-endian:
 *
 *   "WFLX" · u32 format · u32 rows · u32 terms
 *   u32[3 · rows]       token count of each field of each row, field-major
 *   u32[3 · terms + 1]  start of each term's postings in each field, term-major
 *   u32[3 · rows]       each row's type, language and path, as indexes into the lists below
 *   4 × (u32 count, u32 byte length, UTF-8 NUL-separated strings): terms (sorted), types,
 *       languages, paths
 *   u32 byte length, postings
 *
 * A postings list holds, per row containing the term, in row order, the
 * varint `gap << 1 | (count > 1)`, then `count − 2` as a varint when flagged:
 * most counts are 1 and cost no byte.
 */
import { _bytesLE } from "./_durable.ts";
import { concatBytes } from "./growable.ts";

/** Fields of a passage the index holds, in file order. */
export const FIELDS = ["content", "symbol", "sourcePath"] as const;
const F = FIELDS.length;

/** Per-row attributes stored for filtering, in file order. */
export const COLUMNS = ["type", "language", "sourcePath"] as const;
export type Column = (typeof COLUMNS)[number];

/**
 * Version of the lexical file: bumped whenever tokens, scoring inputs or the
 * layout change, so `decodeLexical` rejects older files instead of misreading them.
 * 1 and 2 were Orama's saved JSON (`orama.json`).
 */
export const LEXICAL_FORMAT = 3;
const MAGIC = "WFLX";
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const HEADER = 16;

/** A dictionary-encoded column: row r holds `values[ids[r]]`. */
export interface Dictionary {
  values: string[];
  ids: Uint32Array;
}

/** The lexical file's content. */
export interface LexicalData {
  rows: number;
  /** Token count of field f in row r at `f · rows + r`. */
  lengths: Uint32Array;
  /** Distinct terms, sorted by UTF-16 code unit (JS `<`). */
  terms: string[];
  /** Term t's postings in field f are `postings[starts[3t + f], starts[3t + f + 1])`. */
  starts: Uint32Array;
  postings: Uint8Array;
  columns: Record<Column, Dictionary>;
}

/** One term's postings in one field, appended in row order and encoded as the file holds them. */
export class PostingsWriter {
  bytes = new Uint8Array(4);
  length = 0;
  #last = 0;

  add(row: number, count: number): void {
    this.#varint((row - this.#last) * 2 + (count > 1 ? 1 : 0));
    if (count > 1) this.#varint(count - 2);
    this.#last = row;
  }

  #varint(value: number): void {
    if (this.length + 5 > this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    while (value >= 0x80) {
      this.bytes[this.length++] = (value & 0x7f) | 0x80;
      value >>>= 7;
    }
    this.bytes[this.length++] = value;
  }
}

/**
 * Decodes the postings of term `term` in field `field` into `rows` and
 * `counts` and returns how many there are. The arrays must hold the list:
 * `data.rows` entries always do, and so does its byte length.
 * Arrays rather than a callback per posting: the first query of a cold
 * process runs this loop before the JIT has optimised anything.
 * @throws {Error} When a posting points past the last row (a damaged file).
 */
export function readPostings(
  data: LexicalData,
  term: number,
  field: number,
  rows: Uint32Array,
  counts: Uint32Array,
): number {
  const { postings, starts } = data;
  const end = starts[term * F + field + 1]!;
  let at = starts[term * F + field]!;
  let n = 0;
  let row = 0;
  while (at < end) {
    let value = 0;
    for (let shift = 0;; shift += 7) {
      const byte = postings[at++]!;
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) break;
    }
    row += Math.floor(value / 2);
    let count = 1;
    if (value % 2 === 1) {
      count = 2;
      for (let shift = 0;; shift += 7) {
        const byte = postings[at++]!;
        count += (byte & 0x7f) * 2 ** shift;
        if (byte < 0x80) break;
      }
    }
    if (row >= data.rows) throw new Error(`a posting names row ${row} of ${data.rows}`);
    rows[n] = row;
    counts[n++] = count;
  }
  return n;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

/** Serialises the index. `postings` is indexed like `starts` minus its last entry. */
export function encodeLexical(
  data: Omit<LexicalData, "starts" | "postings"> & { postings: (PostingsWriter | undefined)[] },
): Uint8Array {
  const starts = new Uint32Array(data.postings.length + 1);
  data.postings.forEach((p, i) => starts[i + 1] = starts[i]! + (p?.length ?? 0));
  const postings = new Uint8Array(starts[starts.length - 1]!);
  data.postings.forEach((p, i) => p && postings.set(p.bytes.subarray(0, p.length), starts[i]));
  return encodeLexicalData({ ...data, starts, postings });
}

/** Serialises an index whose postings are already laid out. */
export function encodeLexicalData(data: LexicalData): Uint8Array {
  return concatBytes(lexicalParts(data));
}

/**
 * The lexical file as pieces to write in order, mostly views of `data`'s
 * arrays: a writer streams them out without assembling the file in memory.
 */
export function lexicalParts(data: LexicalData): Uint8Array[] {
  const u32 = (...values: number[]) => _bytesLE(Uint32Array.from(values));
  const parts = [encoder.encode(MAGIC), u32(LEXICAL_FORMAT, data.rows, data.terms.length)];
  parts.push(_bytesLE(data.lengths), _bytesLE(data.starts));
  for (const column of COLUMNS) parts.push(_bytesLE(data.columns[column].ids));
  for (const list of [data.terms, ...COLUMNS.map((c) => data.columns[c].values)]) {
    const bytes = encoder.encode(list.join("\0"));
    parts.push(u32(list.length, bytes.length), bytes);
  }
  parts.push(u32(data.postings.length), data.postings);
  return parts;
}

/**
 * Reads a lexical file, checking its format and that every section fits.
 * @throws {Error} When the file is of another format or damaged; the message is one line.
 */
export function decodeLexical(bytes: Uint8Array): LexicalData {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fail = (why: string): never => {
    throw new Error(why);
  };
  if (bytes.length < HEADER || decoder.decode(bytes.subarray(0, 4)) !== MAGIC) {
    fail("not a wayfinder lexical file");
  }
  const format = view.getUint32(4, true);
  if (format !== LEXICAL_FORMAT) {
    fail(`written in lexical format ${format}, this wayfinder reads ${LEXICAL_FORMAT}`);
  }
  const rows = view.getUint32(8, true);
  const termCount = view.getUint32(12, true);
  let at = HEADER;
  const u32s = (count: number): Uint32Array => {
    if (at + 4 * count > bytes.length) fail("it is truncated");
    const offset = bytes.byteOffset + at;
    at += 4 * count;
    // A view of the file when it can be one: copying element-wise costs a cold start ~50 ms.
    if (LITTLE_ENDIAN && offset % 4 === 0) return new Uint32Array(bytes.buffer, offset, count);
    const out = new Uint32Array(count);
    for (let i = 0; i < count; i++) out[i] = view.getUint32(at - 4 * (count - i), true);
    return out;
  };
  const block = (): Uint8Array => {
    const length = u32s(1)[0]!;
    if (at + length > bytes.length) fail("it is truncated");
    at += length;
    return bytes.subarray(at - length, at);
  };
  const list = (): string[] => {
    const count = u32s(1)[0]!;
    const bytes = block();
    // Counted, because no strings and one empty string are the same bytes.
    const values = count === 0 ? [] : decoder.decode(bytes).split("\0");
    return values.length === count ? values : fail("a string list is damaged");
  };
  const lengths = u32s(F * rows);
  const starts = u32s(F * termCount + 1);
  const ids = COLUMNS.map(() => u32s(rows));
  const terms = list();
  const values = COLUMNS.map(() => list());
  if (terms.length !== termCount) fail("its term list is damaged");
  const postings = block();
  if (at !== bytes.length || starts[starts.length - 1] !== postings.length) fail("it is damaged");
  for (let i = 1; i < starts.length; i++) if (starts[i]! < starts[i - 1]!) fail("it is damaged");
  const columns = {} as Record<Column, Dictionary>;
  COLUMNS.forEach((column, c) => {
    if (ids[c]!.some((id) => id >= values[c]!.length)) fail(`its ${column} column is damaged`);
    columns[column] = { values: values[c]!, ids: ids[c]! };
  });
  return { rows, lengths, terms, starts, postings, columns };
}
