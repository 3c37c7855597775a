import { randomBytes } from "node:crypto";
import { join } from "node:path";
import process from "node:process";
import { WayfinderError } from "../error.ts";
import type { Chunk } from "../types.ts";
import { _PRIVATE_DIR, _syncDir, _writeSynced } from "./_durable.ts";
import { FILES, GenerationWriter } from "./generation_writer.ts";
import { FORMAT_VERSION, type IndexManifest, type IndexManifestInput } from "./manifest.ts";
import { RUN_FILES } from "./run_state.ts";
import { CACHE_FILE } from "./vector_cache.ts";
import { recordIntact, STAMPS_FILE } from "./verify_generation.ts";

export { FILES };

/** Everything one generation holds. */
export interface GenerationData {
  manifest: IndexManifestInput;
  /** Chunks in row order. */
  chunks: Chunk[];
  /** One vector per chunk, or all rows back to back; `manifest.identity.dimensions` wide. */
  vectors: Float32Array[] | Float32Array;
}

/** Generation directory names: `gen-<ms since epoch>-<random hex>`. */
export const GENERATION_NAME = /^gen-\d+-[0-9a-f]+$/;

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

async function readCurrent(indexDir: string): Promise<string | null> {
  try {
    return (await Deno.readTextFile(join(indexDir, "current"))).trim();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/** Leftovers of writes through a rename that a crash interrupted. */
const TEMPORARY = [
  "current.tmp-",
  `${STAMPS_FILE}.tmp-`,
  `${CACHE_FILE}.tmp-`,
  `${RUN_FILES.progress}.tmp-`,
  `${RUN_FILES.failure}.tmp-`,
];

/**
 * Removes generations other than those in `keep`, and leftovers of
 * interrupted writes. Failures are ignored: garbage is retried on the next
 * write.
 */
async function collectGarbage(indexDir: string, keep: Set<string>): Promise<void> {
  try {
    for await (const entry of Deno.readDir(indexDir)) {
      // This process's own temporary files may be mid-write (its progress, say).
      const stale = (entry.name.startsWith("gen-") && !keep.has(entry.name)) ||
        (TEMPORARY.some((prefix) => entry.name.startsWith(prefix)) &&
          !entry.name.endsWith(`.tmp-${process.pid}`));
      if (stale) await Deno.remove(join(indexDir, entry.name), { recursive: true }).catch(() => {});
    }
  } catch {
    // Nothing to collect.
  }
}

/** Streams every row through a `GenerationWriter`; returns the data files' checksums. */
async function writeFiles(
  genDir: string,
  data: GenerationData,
  row: (i: number) => Float32Array,
): Promise<Record<string, string>> {
  const { dimensions } = data.manifest.identity;
  const writer = await GenerationWriter.create(
    genDir,
    dimensions,
    data.manifest.quantization ?? "none",
  );
  try {
    for (let i = 0; i < data.chunks.length; i++) await writer.add(data.chunks[i]!, row(i));
    return await writer.finish();
  } catch (error) {
    writer.abandon();
    throw error;
  }
}

/** Options of `writeGeneration`. */
export interface PublishOptions {
  /**
   * Generations the running writer still reads from (the one its run started
   * from: reused passages' text is read lazily), kept besides the live and
   * the previous one. Pins live only in the writer's memory, so a crashed
   * run's pins lapse at the next publish.
   */
  pinned?: readonly string[];
}

/**
 * Publishes a new generation of an index: streams passages, metadata,
 * full-text index and vectors (and their codes, with a quantization) into a
 * fresh `gen-*` directory, fsyncs them, then points `current` at it with one
 * atomic rename, the only commit point. A crash before the rename leaves the
 * previous generation live. Afterwards removes generations older than the
 * previous one (except pinned ones) and leftovers of interrupted writes.
 * The caller holds the index lock.
 *
 * @param indexDir The corpus's index directory; created if missing.
 * @param data Manifest fields, chunks and their vectors, in the same order.
 * @param options See `PublishOptions`.
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
  const name = `gen-${Date.now()}-${randomBytes(4).toString("hex")}`;
  const genDir = join(indexDir, name);
  let previous: string | null;
  let checksums: Record<string, string>;
  try {
    await Deno.mkdir(indexDir, { recursive: true, mode: _PRIVATE_DIR });
    previous = await readCurrent(indexDir);
    await Deno.mkdir(genDir, { mode: _PRIVATE_DIR });
    checksums = await writeFiles(genDir, data, row);
    const manifest: IndexManifest = {
      formatVersion: FORMAT_VERSION,
      ...data.manifest,
      createdAt: data.manifest.createdAt ?? new Date().toISOString(),
      dimensions,
      chunkCount: count,
      checksums,
    };
    // Compact: a large index's manifest lists every chunk id, indentation would add a fifth.
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
    if (error instanceof WayfinderError) throw error;
    throw new WayfinderError(
      "io",
      `Cannot write index at ${indexDir}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  await recordIntact(indexDir, name, Object.keys(checksums));
  const keep = new Set([name, ...options.pinned ?? []]);
  if (previous !== null) keep.add(previous);
  await collectGarbage(indexDir, keep);
  return name;
}
