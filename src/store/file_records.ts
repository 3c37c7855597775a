/**
 * A generation's per-file records (hash, size, time, chunk ids), kept apart
 * from its manifest in `files.jsonl` so that opening an index for a search
 * does not parse one record per file of the tree: a search needs segments,
 * settings and the model identity, and at most the records of the files it
 * cites. One line per file, `["path",{record}]`, sorted by path, so one
 * record is found by a binary search over the bytes without parsing the
 * others. Everything that lists the files (an index run, `status`, the exact
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

/** The line of `bytes` at `[start, end)`, parsed. */
function lineAt(bytes: Uint8Array, start: number, end: number): [string, FileRecord] {
  const entry = JSON.parse(decoder.decode(bytes.subarray(start, end)));
  if (!Array.isArray(entry) || typeof entry[0] !== "string" || typeof entry[1] !== "object") {
    throw new Error("a line is not a [path, record] pair");
  }
  return entry as [string, FileRecord];
}

/** The record of `path` in the bytes of a `files.jsonl`, by binary search over its lines. */
export function findFileRecord(bytes: Uint8Array, path: string): FileRecord | undefined {
  let low = 0; // always a line start
  let high = bytes.length; // always a line start, or the end
  while (low < high) {
    let start = (low + high) >> 1;
    while (start > low && bytes[start - 1] !== NEWLINE) start--;
    let end = bytes.indexOf(NEWLINE, start);
    if (end < 0 || end >= high) end = high;
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
 * one path (`files[path]`, `path in files`, `Object.hasOwn`) reads the file
 * and searches it;
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
  let bytes: Uint8Array | null = null;
  let all: Record<string, FileRecord> | null = null;
  const guarded = <T>(read: () => T): T => {
    try {
      return read();
    } catch (error) {
      throw fail(`${file} is unreadable (${(error as Error).message})`);
    }
  };
  const read = () => bytes ??= guarded(() => Deno.readFileSync(join(indexDir, file)));
  const load = () => all ??= guarded(() => decodeFileRecords(read()));
  const lookup = (key: string) =>
    all
      ? (Object.hasOwn(all, key) ? all[key] : undefined)
      : guarded(() => findFileRecord(read(), key));
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
