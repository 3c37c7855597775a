import { realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { WayfinderError } from "../error.ts";
import type { Chunk, QuantizedVectors, RowColumns, RowRange } from "../types.ts";
import { _float32FromLE } from "./_durable.ts";
import { chunkAt } from "./chunk_table.ts";
import type { LexicalFilter } from "./lexical_filter.ts";
import { type LexicalHit, type LexicalSearch, searchParts } from "./lexical_index.ts";
import { FORMAT_VERSION, type IndexManifest } from "./manifest.ts";
import { type Lease, takeLease } from "./reclaim.ts";
import { lazyRows } from "./lazy_rows.ts";
import { textReader } from "./text_file.ts";
import { FILES, GENERATION_NAME } from "./write_generation.ts";
import { FILE_RECORDS, lazyFileRecords } from "./file_records.ts";
import {
  type Checked,
  checkStreamed,
  globalRows,
  liveOf,
  mergeColumns,
  readCodes,
  readLexicalData,
  readTable,
  readVectors,
  type SegmentView,
} from "./read_segments.ts";
import { upperBound } from "../sorted_search.ts";

/** The live generation of an index, loaded. */
export interface StoredIndex {
  /** The index directory. */
  dir: string;
  /** Name of the loaded generation. */
  generation: string;
  manifest: IndexManifest;
  /**
   * Chunks in row order. Their metadata is in memory; each one's `content`
   * is read from the generation's passages file when asked for.
   */
  chunks: Chunk[];
  /** Row i (`dimensions` floats from `i * dimensions`) is the vector of `chunks[i]`. */
  vectors: Float32Array;
  dimensions: number;
  /** The vectors' compact codes, when the index was built with a quantization. */
  quantized?: QuantizedVectors;
  /** Rows not embedded yet (see `IndexManifest.pending`); dense search skips them. */
  pending?: RowRange[];
  /** Each row's path, type and language, without building its chunk. */
  columns: RowColumns;
  /**
   * The row of the chunk with this id, or -1: looked up in the id column
   * (mapped on the first call), so no chunk is built and no text is read.
   */
  rowOf(id: string): number;
  /**
   * BM25F full-text search over content, symbol and path, best first, of the
   * chunks `filter` keeps. The full-text index is read on the first call.
   * @throws {WayfinderError} `stale_index` when the full-text index is
   *   missing, of another format or damaged.
   */
  lexical(query: string, limit: number, filter?: LexicalFilter): LexicalHit[];
  /** The segments the rows come from, in row order (the writer plans edits on them). */
  segments?: SegmentView[];
  /** Row `row`'s vector, read from disk when the index was opened with lazy vectors. */
  vectorAt?(row: number): Float32Array;
  /**
   * Releases the generation's reader lease: a publish may then reclaim it.
   * A process that exits without calling it leaves a lease reclaimed later.
   */
  close?(): Promise<void>;
}

/** Options of `openIndex`. */
export interface OpenOptions {
  /**
   * Verify every data file's xxh64 against the manifest (streamed; ~0.1 s
   * per 100k chunks here). Sizes and counts are checked either way.
   * @default true
   */
  verifyChecksums?: boolean;
  /**
   * The corpus root, for the fix a stale-index error names: a manifest that
   * is not JSON, or a `current` naming no generation, cannot tell it.
   * @default the manifest's record, when it is readable
   */
  root?: string;
  /**
   * Hold a reader lease on the generation until `close` (see `reclaim.ts`).
   * @default true
   */
  lease?: boolean;
  /**
   * "lazy": leave the vectors on disk (`vectors` is empty) and read a row's
   * with `vectorAt`, for a writer that reuses only the rows of files it
   * changes; their sizes are still checked, their checksums only with
   * `verifyChecksums`. @default "load"
   */
  vectors?: "load" | "lazy";
}

/**
 * A `stale_index` error about the live generation itself: written by another
 * format version, or damaged (a file missing, cut short or failing its
 * checksum). Nothing in it can be built on, so rebuilding from the tree is
 * the fix, and an index run does it unasked.
 */
export class UnusableIndexError extends WayfinderError {
  constructor(dir: string, readonly reason: string, root: string | undefined) {
    super("stale_index", `Cannot use index at ${dir}: ${reason}`, {
      fix: { kind: "reindex", root: root ?? "<root>" },
    });
  }
}

/** The root a stale-index error's fix names. */
interface Fix {
  root?: string;
}

function stale(dir: string, reason: string, fix: Fix): UnusableIndexError {
  return new UnusableIndexError(dir, reason, fix.root);
}

async function readCurrent(dir: string): Promise<string | null> {
  try {
    return (await Deno.readTextFile(join(dir, "current"))).trim();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw new WayfinderError("io", `Cannot read index at ${dir}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/**
 * The manifest of generation `generation`, checked for its format and tree;
 * its `files` are read from `files.jsonl` only when first asked for.
 */
function parseManifest(dir: string, generation: string, text: string, fix: Fix): IndexManifest {
  const { root } = fix;
  let manifest: IndexManifest;
  try {
    manifest = JSON.parse(text) as IndexManifest;
  } catch {
    throw stale(dir, "its manifest is not JSON", fix);
  }
  if (manifest?.formatVersion !== FORMAT_VERSION) {
    const recorded = typeof manifest?.root === "string" ? manifest.root : undefined;
    throw stale(
      dir,
      `built by format ${manifest?.formatVersion}, this wayfinder reads ${FORMAT_VERSION}`,
      { root: root ?? recorded },
    );
  }
  if (root !== undefined && !sameTree(manifest.root, root)) {
    // Another tree's index (an --index-dir given twice): neither built on nor replaced unasked.
    throw new WayfinderError(
      "stale_index",
      `Cannot use index at ${dir}: it indexes ${manifest.root}, not ${root}`,
      { fix: { kind: "replace_index", root } },
    );
  }
  manifest.files = lazyFileRecords(
    dir,
    generation,
    (reason) => stale(dir, reason, { root: root ?? manifest.root }),
  );
  return manifest;
}

/** Whether two roots name one tree, through symlinks too. */
function sameTree(a: string, b: string): boolean {
  const real = (path: string) => {
    try {
      return realpathSync(path);
    } catch {
      return resolve(path);
    }
  };
  return a === b || real(a) === real(b);
}

async function load(
  dir: string,
  generation: string,
  options: OpenOptions,
  lease: Lease | null,
): Promise<StoredIndex> {
  const text = await Deno.readTextFile(join(dir, generation, FILES.manifest));
  const manifest = parseManifest(dir, generation, text, options);
  const fail = (reason: string) =>
    new UnusableIndexError(dir, reason, options.root ?? manifest.root);
  const c: Checked = { dir, manifest, fail, verify: options.verifyChecksums ?? true };
  const { dimensions } = manifest;
  if (!Array.isArray(manifest.segments)) throw fail("its manifest lists no segments");
  const segments: SegmentView[] = [];
  let total = 0;
  for (const record of manifest.segments) {
    const table = await readTable(c, record);
    const local = liveOf(record);
    segments.push({ record, start: total, local, table });
    total += local ? local.length : record.rows;
  }
  if (total !== manifest.chunkCount) {
    throw fail(`its segments hold ${total} live chunks, expected ${manifest.chunkCount}`);
  }
  const lazy = options.vectors === "lazy";
  const vectors = new Float32Array(lazy ? 0 : total * dimensions);
  for (const segment of segments) {
    if (!lazy) await readVectors(c, segment, vectors);
    else {await checkStreamed(
        c,
        `${segment.record.name}/${FILES.vectors}`,
        segment.record.rows * dimensions * 4,
      );}
  }
  for (const segment of segments) {
    const { name, rows } = segment.record;
    await checkStreamed(c, `${name}/${FILES.text}`, segment.table.textOffsets[rows]);
    await checkStreamed(c, `${name}/${FILES.lexical}`);
  }
  await checkStreamed(c, `${generation}/${FILE_RECORDS}`);
  const quantized = await readCodes(c, segments, total);
  const readers = segments.map(({ record }) =>
    textReader(join(dir, record.name, FILES.text), (reason) => fail(`${record.name}/${reason}`))
  );
  const starts = segments.map((segment) => segment.start);
  /** The segment and segment row of a generation row. */
  const locate = (row: number): [number, number] => {
    const s = upperBound(starts, row) - 1;
    const segment = segments[s]!;
    return [s, segment.local ? segment.local[row - segment.start]! : row - segment.start];
  };
  const chunks = lazyRows(total, (row) => {
    const [s, local] = locate(row);
    return chunkAt(segments[s]!.table, local, readers[s]!);
  });
  const handles: (Deno.FsFile | null)[] = segments.map(() => null);
  const vectorAt = (row: number): Float32Array => {
    if (!lazy) return vectors.subarray(row * dimensions, (row + 1) * dimensions);
    const [s, local] = locate(row);
    const file = join(dir, segments[s]!.record.name, FILES.vectors);
    const bytes = new Uint8Array(dimensions * 4);
    try {
      const handle = handles[s] ??= Deno.openSync(file, { read: true });
      handle.seekSync(local * dimensions * 4, Deno.SeekMode.Start);
      let filled = 0;
      while (filled < bytes.length) {
        const n = handle.readSync(bytes.subarray(filled));
        if (n === null || n === 0) break;
        filled += n;
      }
      if (filled < bytes.length) throw new Error("it is truncated");
    } catch (error) {
      throw fail(
        `${segments[s]!.record.name}/${FILES.vectors} is unreadable (${(error as Error).message})`,
      );
    }
    return _float32FromLE(bytes);
  };
  let rows: Map<string, number> | undefined;
  let search: LexicalSearch | undefined;
  return {
    dir,
    generation,
    manifest,
    chunks,
    columns: mergeColumns(segments, total),
    vectors,
    dimensions,
    segments,
    ...(quantized ? { quantized } : {}),
    ...(manifest.pending?.length ? { pending: manifest.pending } : {}),
    rowOf(id) {
      if (!rows) {
        rows = new Map();
        for (const segment of segments) {
          const ids = segment.table.chunkIds;
          const count = segment.local ? segment.local.length : segment.record.rows;
          for (let n = 0; n < count; n++) {
            rows.set(ids[segment.local ? segment.local[n]! : n]!, segment.start + n);
          }
        }
      }
      return rows.get(id) ?? -1;
    },
    lexical(query, limit, filter) {
      search ??= searchParts(
        segments.map((segment) => ({
          data: readLexicalData(dir, segment.record, fail),
          global: globalRows(segment),
        })),
        total,
      );
      try {
        return search(query, limit, filter);
      } catch (error) {
        throw fail(`${FILES.lexical} is damaged (${(error as Error).message})`);
      }
    },
    vectorAt,
    close: async () => {
      for (const [s, handle] of handles.entries()) {
        handle?.close();
        handles[s] = null;
      }
      await lease?.release();
    },
  };
}

/**
 * Reads only the manifest of the live generation: cheap, for callers that
 * need an index's settings or identity before loading it.
 *
 * @param root The corpus root, named in a stale-index error's fix.
 * @returns The manifest, or null when nothing was ever published there.
 * @throws {WayfinderError} `stale_index` for another format version; `io` when unreadable.
 */
export function readManifest(
  indexDir: string,
  root?: string,
): Promise<IndexManifest | null> {
  const fix = { root };
  return withLiveGeneration(indexDir, fix, async (generation) => {
    const text = await Deno.readTextFile(join(indexDir, generation, FILES.manifest));
    return parseManifest(indexDir, generation, text, fix);
  });
}

/**
 * Runs `read` on the live generation. A concurrent index run may publish a
 * newer generation and collect the one being read, so vanished files send it
 * back to follow `current` again, twice at most.
 */
async function withLiveGeneration<T>(
  indexDir: string,
  fix: Fix,
  read: (generation: string) => Promise<T>,
): Promise<T | null> {
  for (let attempt = 0;; attempt++) {
    const generation = await readCurrent(indexDir);
    if (generation === null) return null;
    if (!GENERATION_NAME.test(generation)) {
      throw stale(indexDir, `'current' names no generation`, fix);
    }
    try {
      return await read(generation);
    } catch (error) {
      if (error instanceof WayfinderError) throw error;
      if (!(error instanceof Deno.errors.NotFound)) {
        const message = `Cannot read index at ${indexDir}: ${(error as Error).message}`;
        throw new WayfinderError("io", message, { cause: error });
      }
      if (attempt >= 2) {
        throw stale(indexDir, `generation ${generation} is missing files`, fix);
      }
    }
  }
}

/** Name of the live generation, or null when nothing was published; cheap enough to poll. */
export function currentGeneration(indexDir: string): Promise<string | null> {
  return readCurrent(indexDir);
}

/**
 * Opens the live generation of an index.
 *
 * @param indexDir The corpus's index directory.
 * @param options See `OpenOptions`.
 * @returns The loaded index, or null when nothing was ever published there.
 * @throws {WayfinderError} `stale_index` when the index was written by another
 *   format version or its files are damaged; `io` when it cannot be read.
 */
export function openIndex(
  indexDir: string,
  options: OpenOptions = {},
): Promise<StoredIndex | null> {
  return withLiveGeneration(indexDir, options, async (generation) => {
    if (options.lease === false) return load(indexDir, generation, options, null);
    // Leased, then `current` read again: a writer that switched it before the lease
    // existed may collect this generation, so the open follows `current` anew.
    const lease = await takeLease(indexDir, generation);
    try {
      if (await readCurrent(indexDir) !== generation) throw new Deno.errors.NotFound("moved on");
      return await load(indexDir, generation, options, lease);
    } catch (error) {
      await lease.release();
      throw error;
    }
  });
}
