import { realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { WayfinderError } from "../error.ts";
import type { Chunk, QuantizedVectors, RowColumns, RowRange } from "../types.ts";
import { _float32FromLE } from "./_durable.ts";
import { _readHashed, _xxh64File } from "./_xxh64.ts";
import { chunkAt, type ChunkTable, columnsOf, decodeChunkTable } from "./chunk_table.ts";
import type { LexicalFilter } from "./lexical_filter.ts";
import { type LexicalHit, type LexicalSearch, loadLexical } from "./lexical_index.ts";
import { FORMAT_VERSION, type IndexManifest } from "./manifest.ts";
import { CODE_FILES, codeBytes } from "./quantize.ts";
import { lazyRows } from "./lazy_rows.ts";
import { textReader } from "./text_file.ts";
import { fixedSizes } from "./generation_writer.ts";
import { FILES, GENERATION_NAME } from "./write_generation.ts";

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
   * Read the vectors. `false` leaves them unread (their size is still
   * checked) and `vectors` empty: for a lexical search, which never reads one.
   * @default true
   */
  vectors?: boolean;
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

function parseManifest(dir: string, text: string, fix: Fix): IndexManifest {
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

/** Reads the lexical file of a generation; `fail` makes a one-line stale-index error. */
function readLexical(genDir: string, fail: (reason: string) => WayfinderError): LexicalSearch {
  let bytes: Uint8Array;
  try {
    bytes = Deno.readFileSync(join(genDir, FILES.lexical));
  } catch (error) {
    throw fail(`${FILES.lexical} is unreadable (${(error as Error).message})`);
  }
  try {
    return loadLexical(bytes);
  } catch (error) {
    throw fail(`${FILES.lexical} is unreadable (${(error as Error).message})`);
  }
}

/** One generation's files, read and checked against its manifest. */
interface Checked {
  genDir: string;
  manifest: IndexManifest;
  fail: (reason: string) => WayfinderError;
  verify: boolean;
}

/** A data file read whole, of the size expected, its checksum verified. */
async function readChecked(c: Checked, file: string, size?: number): Promise<Uint8Array> {
  const { bytes, hash } = await _readHashed(join(c.genDir, file), c.verify);
  if (size !== undefined && bytes.byteLength !== size) {
    throw c.fail(`${file} holds ${bytes.byteLength} bytes, expected ${size}`);
  }
  if (c.verify && hash !== c.manifest.checksums[file]) throw c.fail(`${file} fails its checksum`);
  return bytes;
}

/** A data file streamed through the hash and not kept: passages and postings are read later. */
async function checkStreamed(c: Checked, file: string, size?: number): Promise<void> {
  const path = join(c.genDir, file);
  const { hash, bytes } = c.verify
    ? await _xxh64File(path)
    : { hash: "", bytes: (await Deno.stat(path)).size };
  if (size !== undefined && bytes !== size) {
    throw c.fail(`${file} holds ${bytes} bytes, expected ${size}`);
  }
  if (c.verify && hash !== c.manifest.checksums[file]) throw c.fail(`${file} fails its checksum`);
}

async function readTable(c: Checked): Promise<ChunkTable> {
  let table: ChunkTable;
  try {
    table = decodeChunkTable(await readChecked(c, FILES.chunks));
  } catch (error) {
    if (error instanceof WayfinderError || error instanceof Deno.errors.NotFound) throw error;
    throw c.fail(`${FILES.chunks} is unreadable (${(error as Error).message})`);
  }
  if (table.rows !== c.manifest.chunkCount) {
    throw c.fail(`${FILES.chunks} holds ${table.rows} chunks, expected ${c.manifest.chunkCount}`);
  }
  return table;
}

async function readCodes(c: Checked): Promise<QuantizedVectors | undefined> {
  const kind = c.manifest.quantization ?? "none";
  if (kind === "none") return undefined;
  const { chunkCount: rows, dimensions } = c.manifest;
  const file = CODE_FILES[kind];
  const bytes = await readChecked(c, file, fixedSizes(rows, dimensions, kind)[file]);
  const size = rows * codeBytes(kind, dimensions);
  if (kind === "binary") return { kind, codes: bytes };
  const codes = new Int8Array(bytes.buffer, bytes.byteOffset, size);
  return { kind, codes, scales: _float32FromLE(bytes.subarray(size)) };
}

async function load(
  dir: string,
  generation: string,
  options: OpenOptions,
): Promise<StoredIndex> {
  const genDir = join(dir, generation);
  const text = await Deno.readTextFile(join(genDir, FILES.manifest));
  const manifest = parseManifest(dir, text, options);
  const fail = (reason: string) =>
    new UnusableIndexError(dir, reason, options.root ?? manifest.root);
  const c: Checked = { genDir, manifest, fail, verify: options.verifyChecksums ?? true };
  const { dimensions, chunkCount } = manifest;
  const vectorBytes = fixedSizes(chunkCount, dimensions)[FILES.vectors];
  const vectors = options.vectors === false
    ? (await checkStreamed(c, FILES.vectors, vectorBytes), new Float32Array(0))
    : _float32FromLE(await readChecked(c, FILES.vectors, vectorBytes));
  const table = await readTable(c);
  await checkStreamed(c, FILES.text, table.textOffsets[chunkCount]);
  await checkStreamed(c, FILES.lexical);
  const quantized = await readCodes(c);
  const readText = textReader(join(genDir, FILES.text), fail);
  const chunks = lazyRows(chunkCount, (row) => chunkAt(table, row, readText));
  let rows: Map<string, number> | undefined;
  let search: LexicalSearch | undefined;
  return {
    dir,
    generation,
    manifest,
    chunks,
    columns: columnsOf(table),
    vectors,
    dimensions,
    ...(quantized ? { quantized } : {}),
    ...(manifest.pending?.length ? { pending: manifest.pending } : {}),
    rowOf(id) {
      rows ??= new Map(table.chunkIds.map((chunkId, row) => [chunkId, row]));
      return rows.get(id) ?? -1;
    },
    lexical(query, limit, filter) {
      search ??= readLexical(genDir, fail);
      try {
        return search(query, limit, filter);
      } catch (error) {
        throw fail(`${FILES.lexical} is damaged (${(error as Error).message})`);
      }
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
    return parseManifest(indexDir, text, fix);
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
  return withLiveGeneration(
    indexDir,
    options,
    (generation) => load(indexDir, generation, options),
  );
}
