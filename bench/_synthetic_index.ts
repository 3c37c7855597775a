/**
 * Synthetic indexes for the scale benches: `rows` chunks of realistic size
 * (`realisticChunk`) with random unit vectors, written once per shape and
 * quantization under the bench folder and reused by later runs.
 */
import { join } from "node:path";
import { readManifest, writeGeneration } from "../src/store/mod.ts";
import {
  realisticChunk,
  seededRandom,
  testIdentity,
  unitVector,
} from "../src/store/testdata/synthetic.ts";
import type { GenerationData } from "../src/store/mod.ts";
import type { Quantization } from "../src/types.ts";

/** Where benches keep what they generate: `$WAYFINDER_BENCH_DIR`, else /tmp/wayfinder-bench. */
export const BENCH_DIR = Deno.env.get("WAYFINDER_BENCH_DIR") ?? "/tmp/wayfinder-bench";

/** The chunks and flat vectors of a synthetic index, deterministic in `seed`. */
export function syntheticData(
  rows: number,
  dimensions: number,
  quantization: Quantization = "none",
  seed = 1,
): GenerationData & { vectors: Float32Array } {
  const random = seededRandom(seed);
  const chunks = Array.from({ length: rows }, (_, i) => realisticChunk(i, random));
  const vectors = new Float32Array(rows * dimensions);
  for (let i = 0; i < rows; i++) vectors.set(unitVector(dimensions, random), i * dimensions);
  const files: GenerationData["manifest"]["files"] = {};
  for (const chunk of chunks) {
    const file = files[chunk.sourcePath] ??= { hash: "synthetic", bytes: 0, chunkIds: [] };
    file.chunkIds.push(chunk.id);
  }
  const manifest = {
    root: "/synthetic",
    identity: testIdentity(dimensions),
    fingerprint: `synthetic-${dimensions}`,
    files,
    quantization,
  };
  return { manifest, chunks, vectors };
}

/** The index directory of a synthetic index, written on first use. */
export async function syntheticIndex(
  rows: number,
  quantization: Quantization,
  dimensions = 384,
): Promise<string> {
  const dir = join(BENCH_DIR, `synthetic-${rows}x${dimensions}-${quantization}`);
  const manifest = await readManifest(dir).catch(() => null);
  if (manifest?.chunkCount === rows) return dir;
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  await writeGeneration(dir, syntheticData(rows, dimensions, quantization));
  return dir;
}

/** `count` random unit query vectors, distinct from the index's. */
export function queryVectors(count: number, dimensions = 384): Float32Array[] {
  const random = seededRandom(99);
  return Array.from({ length: count }, () => unitVector(dimensions, random));
}

/** Bytes of each kind of file of the live generation: its manifest, and each file name summed over its segments. */
export async function generationFiles(dir: string): Promise<Record<string, number>> {
  const generation = join(dir, (await Deno.readTextFile(join(dir, "current"))).trim());
  const manifest = JSON.parse(await Deno.readTextFile(join(generation, "manifest.json")));
  const sizes: Record<string, number> = {};
  const add = async (folder: string) => {
    for await (const entry of Deno.readDir(folder)) {
      sizes[entry.name] = (sizes[entry.name] ?? 0) +
        (await Deno.stat(join(folder, entry.name))).size;
    }
  };
  await add(generation);
  for (const segment of manifest.segments as { name: string }[]) await add(join(dir, segment.name));
  return sizes;
}
