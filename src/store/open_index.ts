import { existsSync } from "node:fs";
import { join } from "node:path";
import { WayfinderError } from "../error.ts";
import type { Chunk } from "../types.ts";
import { _float32FromLE, _sha256 } from "./_durable.ts";
import type { LexicalFilter } from "./lexical_filter.ts";
import { LEXICAL_FORMAT } from "./lexical_format.ts";
import { type LexicalHit, type LexicalSearch, loadLexical } from "./lexical_index.ts";
import { FORMAT_VERSION, type IndexManifest } from "./manifest.ts";
import { FILES, GENERATION_NAME } from "./write_generation.ts";

/** The live generation of an index, loaded. */
export interface StoredIndex {
  /** The index directory. */
  dir: string;
  /** Name of the loaded generation. */
  generation: string;
  manifest: IndexManifest;
  /** Chunks in row order. */
  chunks: Chunk[];
  /** Row i (`dimensions` floats from `i * dimensions`) is the vector of `chunks[i]`. */
  vectors: Float32Array;
  dimensions: number;
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
   * Also verify the sha256 of chunks and vectors against the manifest, and of
   * the full-text index when it is first read. Sizes and counts are always checked.
   * @default false
   */
  verifyChecksums?: boolean;
}

function stale(dir: string, reason: string, root = "<root>"): WayfinderError {
  return new WayfinderError(
    "stale_index",
    `Cannot use index at ${dir}: ${reason}; run 'wayfinder index ${root} --rebuild'`,
  );
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

function parseManifest(dir: string, text: string): IndexManifest {
  let manifest: IndexManifest;
  try {
    manifest = JSON.parse(text) as IndexManifest;
  } catch {
    throw stale(dir, "its manifest is not JSON");
  }
  if (manifest?.formatVersion !== FORMAT_VERSION) {
    const root = typeof manifest?.root === "string" ? manifest.root : "<root>";
    throw new WayfinderError(
      "stale_index",
      `Cannot use index at ${dir}: built by format ${manifest?.formatVersion}, this wayfinder reads ${FORMAT_VERSION}; run 'wayfinder index ${root}'`,
    );
  }
  return manifest;
}

/** What generations before lexical format 3 held instead of `FILES.lexical`. */
const LEGACY_LEXICAL = "orama.json";

/**
 * Reads a generation's lexical file, checked against `checksum` when given;
 * `fail` makes a one-line stale-index error.
 */
function readLexical(
  genDir: string,
  fail: (reason: string) => WayfinderError,
  checksum?: string,
): LexicalSearch {
  let bytes: Uint8Array;
  try {
    bytes = Deno.readFileSync(join(genDir, FILES.lexical));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound && existsSync(join(genDir, LEGACY_LEXICAL))) {
      throw fail(
        `its full-text index (${LEGACY_LEXICAL}) predates lexical format ${LEXICAL_FORMAT}`,
      );
    }
    throw fail(`${FILES.lexical} is unreadable (${(error as Error).message})`);
  }
  if (checksum !== undefined && _sha256(bytes) !== checksum) {
    throw fail(`${FILES.lexical} fails its checksum`);
  }
  try {
    return loadLexical(bytes);
  } catch (error) {
    throw fail(`${FILES.lexical} is unreadable (${(error as Error).message})`);
  }
}

async function load(
  dir: string,
  generation: string,
  options: OpenOptions,
): Promise<StoredIndex> {
  const genDir = join(dir, generation);
  const manifest = parseManifest(dir, await Deno.readTextFile(join(genDir, FILES.manifest)));
  const [chunkBytes, vectorBytes] = await Promise.all([
    Deno.readFile(join(genDir, FILES.chunks)),
    Deno.readFile(join(genDir, FILES.vectors)),
  ]);
  const { dimensions, chunkCount } = manifest;
  const fail = (reason: string) => stale(dir, reason, manifest.root);
  if (vectorBytes.byteLength !== chunkCount * dimensions * 4) {
    throw fail(
      `${FILES.vectors} holds ${vectorBytes.byteLength} bytes, expected ${
        chunkCount * dimensions * 4
      }`,
    );
  }
  if (options.verifyChecksums) {
    for (
      const [file, bytes] of [[FILES.chunks, chunkBytes], [FILES.vectors, vectorBytes]] as const
    ) {
      if (_sha256(bytes) !== manifest.checksums[file]) throw fail(`${file} fails its checksum`);
    }
  }
  let chunks: Chunk[];
  try {
    chunks = JSON.parse(new TextDecoder().decode(chunkBytes)) as Chunk[];
  } catch {
    throw fail(`${FILES.chunks} is not JSON`);
  }
  if (!Array.isArray(chunks) || chunks.length !== chunkCount) {
    throw fail(`${FILES.chunks} does not hold ${chunkCount} chunks`);
  }
  let search: LexicalSearch | undefined;
  return {
    dir,
    generation,
    manifest,
    chunks,
    vectors: _float32FromLE(vectorBytes),
    dimensions,
    lexical(query, limit, filter) {
      search ??= readLexical(
        genDir,
        fail,
        options.verifyChecksums ? manifest.checksums[FILES.lexical] : undefined,
      );
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
 * @returns The manifest, or null when nothing was ever published there.
 * @throws {WayfinderError} `stale_index` for another format version; `io` when unreadable.
 */
export async function readManifest(indexDir: string): Promise<IndexManifest | null> {
  for (let attempt = 0;; attempt++) {
    const generation = await readCurrent(indexDir);
    if (generation === null) return null;
    if (!GENERATION_NAME.test(generation)) throw stale(indexDir, `'current' names no generation`);
    try {
      const text = await Deno.readTextFile(join(indexDir, generation, FILES.manifest));
      return parseManifest(indexDir, text);
    } catch (error) {
      if (error instanceof WayfinderError) throw error;
      // A concurrent run may have collected this generation; follow `current` again.
      if (error instanceof Deno.errors.NotFound && attempt < 2) continue;
      throw new WayfinderError(
        "io",
        `Cannot read index at ${indexDir}: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
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
export async function openIndex(
  indexDir: string,
  options: OpenOptions = {},
): Promise<StoredIndex | null> {
  // A concurrent index run may publish a newer generation and collect the one we
  // were reading; follow `current` again when files vanish under us.
  for (let attempt = 0;; attempt++) {
    const generation = await readCurrent(indexDir);
    if (generation === null) return null;
    if (!GENERATION_NAME.test(generation)) throw stale(indexDir, `'current' names no generation`);
    try {
      return await load(indexDir, generation, options);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) {
        if (error instanceof WayfinderError) throw error;
        throw new WayfinderError(
          "io",
          `Cannot read index at ${indexDir}: ${(error as Error).message}`,
          {
            cause: error,
          },
        );
      }
      if (attempt >= 2) throw stale(indexDir, `generation ${generation} is missing files`);
    }
  }
}
