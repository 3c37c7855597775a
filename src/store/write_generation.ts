import { randomBytes } from "node:crypto";
import { join } from "node:path";
import process from "node:process";
import { WayfinderError } from "../error.ts";
import type { Chunk } from "../types.ts";
import { _float32ToLE, _sha256, _syncDir, _writeSynced } from "./_durable.ts";
import { buildLexical } from "./lexical_index.ts";
import { FORMAT_VERSION, type IndexManifest, type IndexManifestInput } from "./manifest.ts";

/** Everything one generation holds. */
export interface GenerationData {
  manifest: IndexManifestInput;
  /** Chunks in row order. */
  chunks: Chunk[];
  /** One vector per chunk, or all rows back to back; `manifest.identity.dimensions` wide. */
  vectors: Float32Array[] | Float32Array;
}

/** File names inside a generation directory. */
export const FILES = {
  manifest: "manifest.json",
  chunks: "chunks.json",
  lexical: "lexical.bin",
  vectors: "vectors.f32",
} as const;

/** Generation directory names: `gen-<ms since epoch>-<random hex>`. */
export const GENERATION_NAME = /^gen-\d+-[0-9a-f]+$/;

function flatten(
  vectors: Float32Array[] | Float32Array,
  count: number,
  dimensions: number,
): Float32Array {
  if (vectors instanceof Float32Array) {
    if (vectors.length !== count * dimensions) {
      throw new WayfinderError(
        "internal",
        `Cannot write index: ${vectors.length} floats for ${count} chunks of ${dimensions} dimensions`,
      );
    }
    return vectors;
  }
  if (vectors.length !== count) {
    throw new WayfinderError(
      "internal",
      `Cannot write index: ${vectors.length} vectors for ${count} chunks`,
    );
  }
  const flat = new Float32Array(count * dimensions);
  vectors.forEach((vector, i) => {
    if (vector?.length !== dimensions) {
      throw new WayfinderError(
        "internal",
        `Cannot write index: vector ${i} has ${vector?.length} dimensions, expected ${dimensions}`,
      );
    }
    flat.set(vector, i * dimensions);
  });
  return flat;
}

async function readCurrent(indexDir: string): Promise<string | null> {
  try {
    return (await Deno.readTextFile(join(indexDir, "current"))).trim();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/**
 * Removes generations other than the live and the previous one, and
 * leftovers of interrupted writes. Failures are ignored: garbage is retried
 * on the next write.
 */
async function collectGarbage(indexDir: string, keep: Set<string>): Promise<void> {
  try {
    for await (const entry of Deno.readDir(indexDir)) {
      const stale = (entry.name.startsWith("gen-") && !keep.has(entry.name)) ||
        entry.name.startsWith("current.tmp-");
      if (stale) await Deno.remove(join(indexDir, entry.name), { recursive: true }).catch(() => {});
    }
  } catch {
    // Nothing to collect.
  }
}

/**
 * Publishes a new generation of an index: writes chunks, full-text index and
 * vectors into a fresh `gen-*` directory, fsyncs them, then points `current`
 * at it with one atomic rename, the only commit point. A crash before the
 * rename leaves the previous generation live. Afterwards removes generations
 * older than the previous one and leftovers of interrupted writes.
 * The caller holds the index lock.
 *
 * @param indexDir The corpus's index directory; created if missing.
 * @param data Manifest fields, chunks and their vectors, in the same order.
 * @returns The new generation's name.
 * @throws {WayfinderError} `io` when the directory cannot be written;
 *   `internal` when vectors do not match chunks or dimensions.
 */
export async function writeGeneration(indexDir: string, data: GenerationData): Promise<string> {
  const dimensions = data.manifest.identity.dimensions;
  const count = data.chunks.length;
  const vectorBytes = _float32ToLE(flatten(data.vectors, count, dimensions));
  const chunkBytes = new TextEncoder().encode(JSON.stringify(data.chunks));
  const lexicalBytes = buildLexical(data.chunks);
  const manifest: IndexManifest = {
    formatVersion: FORMAT_VERSION,
    ...data.manifest,
    createdAt: data.manifest.createdAt ?? new Date().toISOString(),
    dimensions,
    chunkCount: count,
    checksums: {
      [FILES.chunks]: _sha256(chunkBytes),
      [FILES.lexical]: _sha256(lexicalBytes),
      [FILES.vectors]: _sha256(vectorBytes),
    },
  };

  const name = `gen-${Date.now()}-${randomBytes(4).toString("hex")}`;
  const genDir = join(indexDir, name);
  let previous: string | null;
  try {
    await Deno.mkdir(indexDir, { recursive: true });
    previous = await readCurrent(indexDir);
    await Deno.mkdir(genDir);
    await _writeSynced(join(genDir, FILES.vectors), vectorBytes);
    await _writeSynced(join(genDir, FILES.chunks), chunkBytes);
    await _writeSynced(join(genDir, FILES.lexical), lexicalBytes);
    await _writeSynced(join(genDir, FILES.manifest), JSON.stringify(manifest, null, 2) + "\n");
    await _syncDir(genDir);
    await _syncDir(indexDir);
    const temp = join(indexDir, `current.tmp-${process.pid}`);
    await Deno.remove(temp).catch(() => {});
    await _writeSynced(temp, name + "\n");
    await Deno.rename(temp, join(indexDir, "current"));
    await _syncDir(indexDir);
  } catch (error) {
    await Deno.remove(genDir, { recursive: true }).catch(() => {});
    throw new WayfinderError(
      "io",
      `Cannot write index at ${indexDir}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  const keep = new Set([name]);
  if (previous !== null) keep.add(previous);
  await collectGarbage(indexDir, keep);
  return name;
}
