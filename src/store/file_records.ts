/**
 * A generation's per-file records (hash, size, time, chunk ids), kept apart
 * from its manifest in `files.jsonl` so that opening an index for a search
 * does not parse one record per file of the tree: a search needs segments,
 * settings and the model identity, and at most the records of the files it
 * cites. One line per file, `["path",{record}]`, sorted by path, so one
 * record is found by a binary search that reads a few blocks of the file and
 * parses a few lines. Everything that lists the files (an index run, `status`, the exact
 * freshness walk) reads and parses the whole file on first use.
 */
import { join } from "node:path";
import type { WayfinderError } from "../error.ts";
import type { FileRecord } from "./manifest.ts";

/** The records' file name inside a generation directory. */
export const FILE_RECORDS = "files.jsonl";

/** Path order of the lines; the lookup compares the same way. */
function byPath(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The records as `files.jsonl` holds them. */
export function encodeFileRecords(files: Record<string, FileRecord>): string {
  const paths = Object.keys(files).sort(byPath);
  return paths.map((path) => JSON.stringify([path, files[path]]) + "\n").join("");
}

const NEWLINE = 10;
const decoder = new TextDecoder();

/** What the binary search reads: a `Uint8Array`, or a file read in blocks (`FileBytes`). */
export interface ByteSource {
  readonly length: number;
  /** The last newline in `[low, index)`, or -1. */
  newlineBefore(index: number, low: number): number;
  /** The first newline in `[index, high)`, or -1. */
  newlineFrom(index: number, high: number): number;
  /** The bytes of `[start, end)`. */
  range(start: number, end: number): Uint8Array;
}

/** A byte array as a `ByteSource`. */
export function bytesSource(bytes: Uint8Array): ByteSource {
  return {
    length: bytes.length,
    newlineBefore: (index, low) => {
      const at = index > 0 ? bytes.lastIndexOf(NEWLINE, index - 1) : -1;
      return at >= low ? at : -1;
    },
    newlineFrom: (index, high) => {
      const at = bytes.indexOf(NEWLINE, index);
      return at >= 0 && at < high ? at : -1;
    },
    range: (start, end) => bytes.subarray(start, end),
  };
}

/** Block size of `FileBytes`: a probe reads one block, not the file. */
const BLOCK = 8192;

/**
 * A file read in blocks as a search asks for them, each block read once: a
 * lookup reads a few blocks of a file of megabytes. The file is open only
 * during `use`.
 */
export class FileBytes implements ByteSource {
  #blocks = new Map<number, Uint8Array>();
  #file: Deno.FsFile | null = null;
  readonly length: number;

  constructor(private readonly path: string) {
    this.length = Deno.statSync(path).size;
  }

  /** Runs `read` with the file open. */
  use<T>(read: (bytes: this) => T): T {
    this.#file = Deno.openSync(this.path, { read: true });
    try {
      return read(this);
    } finally {
      this.#file.close();
      this.#file = null;
    }
  }

  #block(n: number): Uint8Array {
    let block = this.#blocks.get(n);
    if (!block) {
      if (!this.#file) throw new Error("read outside use()");
      block = new Uint8Array(Math.min(BLOCK, this.length - n * BLOCK));
      this.#file.seekSync(n * BLOCK, Deno.SeekMode.Start);
      let filled = 0;
      while (filled < block.length) {
        const read = this.#file.readSync(block.subarray(filled));
        if (read === null || read === 0) throw new Error("it is truncated");
        filled += read;
      }
      this.#blocks.set(n, block);
    }
    return block;
  }

  newlineBefore(index: number, low: number): number {
    for (let at = index - 1; at >= low;) {
      const n = Math.floor(at / BLOCK);
      const found = this.#block(n).lastIndexOf(NEWLINE, at - n * BLOCK);
      if (found >= 0) return n * BLOCK + found >= low ? n * BLOCK + found : -1;
      at = n * BLOCK - 1;
    }
    return -1;
  }

  newlineFrom(index: number, high: number): number {
    for (let at = index; at < high;) {
      const n = Math.floor(at / BLOCK);
      const found = this.#block(n).indexOf(NEWLINE, at - n * BLOCK);
      if (found >= 0) return n * BLOCK + found < high ? n * BLOCK + found : -1;
      at = (n + 1) * BLOCK;
    }
    return -1;
  }

  range(start: number, end: number): Uint8Array {
    const out = new Uint8Array(end - start);
    for (let at = start; at < end;) {
      const n = Math.floor(at / BLOCK);
      const from = at - n * BLOCK;
      const part = this.#block(n).subarray(from, from + end - at);
      out.set(part, at - start);
      at += part.length;
    }
    return out;
  }
}

/** The line at `[start, end)`, parsed. */
function lineAt(bytes: ByteSource, start: number, end: number): [string, FileRecord] {
  const entry = JSON.parse(decoder.decode(bytes.range(start, end)));
  if (!Array.isArray(entry) || typeof entry[0] !== "string" || typeof entry[1] !== "object") {
    throw new Error("a line is not a [path, record] pair");
  }
  return entry as [string, FileRecord];
}

/** The record of `path` in a `files.jsonl`, by binary search over its lines. */
export function findFileRecord(
  source: ByteSource | Uint8Array,
  path: string,
): FileRecord | undefined {
  const bytes = source instanceof Uint8Array ? bytesSource(source) : source;
  let low = 0; // always a line start
  let high = bytes.length; // always a line start, or the end
  while (low < high) {
    const before = bytes.newlineBefore((low + high) >> 1, low);
    const start = before < 0 ? low : before + 1;
    const after = bytes.newlineFrom(start, high);
    const end = after < 0 ? high : after;
    const [found, record] = lineAt(bytes, start, end);
    const order = byPath(found, path);
    if (order === 0) return record;
    if (order < 0) low = end + 1;
    else high = start;
  }
  return undefined;
}

/** Every record of the bytes of a `files.jsonl`. */
export function decodeFileRecords(bytes: Uint8Array): Record<string, FileRecord> {
  const text = decoder.decode(bytes).trimEnd();
  const entries = text ? JSON.parse(`[${text.replaceAll("\n", ",")}]`) : [];
  const files: Record<string, FileRecord> = {};
  for (const entry of entries as unknown[]) {
    if (!Array.isArray(entry) || typeof entry[0] !== "string" || typeof entry[1] !== "object") {
      throw new Error("a line is not a [path, record] pair");
    }
    files[entry[0]] = entry[1];
  }
  return files;
}

/**
 * The records of generation `generation`, read only when asked: looking up
 * one path (`files[path]`, `path in files`, `Object.hasOwn`) reads the few
 * blocks of the file a binary search needs;
 * listing them (`Object.keys`, `Object.entries`, a spread) parses it all,
 * once. A file missing or damaged throws `fail`'s error at that moment.
 * Writes go to the parsed copy, never to disk.
 */
export function lazyFileRecords(
  indexDir: string,
  generation: string,
  fail: (reason: string) => WayfinderError,
): Record<string, FileRecord> {
  const file = `${generation}/${FILE_RECORDS}`;
  let blocks: FileBytes | null = null;
  let all: Record<string, FileRecord> | null = null;
  const guarded = <T>(read: () => T): T => {
    try {
      return read();
    } catch (error) {
      throw fail(`${file} is unreadable (${(error as Error).message})`);
    }
  };
  const load = () =>
    all ??= guarded(() => decodeFileRecords(Deno.readFileSync(join(indexDir, file))));
  const lookup = (key: string) =>
    all
      ? (Object.hasOwn(all, key) ? all[key] : undefined)
      : guarded(() =>
        (blocks ??= new FileBytes(join(indexDir, file))).use((bytes) => findFileRecord(bytes, key))
      );
  return new Proxy({} as Record<string, FileRecord>, {
    get: (_target, key) => typeof key === "string" ? lookup(key) : undefined,
    has: (_target, key) => typeof key === "string" && lookup(key) !== undefined,
    ownKeys: () => Object.keys(load()),
    getOwnPropertyDescriptor: (_target, key) => {
      const value = typeof key === "string" ? lookup(key) : undefined;
      return value && { value, writable: true, enumerable: true, configurable: true };
    },
    set: (_target, key, value) => typeof key === "string" && (load()[key] = value, true),
    deleteProperty: (_target, key) => typeof key === "string" && delete load()[key],
  });
}
