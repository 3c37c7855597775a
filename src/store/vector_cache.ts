/**
 * Vectors of embedding inputs that recent runs dropped (a file deleted, a
 * branch switched away from), kept beside the generations and keyed by the
 * input's hash, so that bringing them back embeds nothing. One file per
 * index and model fingerprint, newest drops first, at most `CACHE_BYTES` of
 * vectors. Advisory: replaced through a rename and checked by xxh64 when
 * read, so a missing, torn or foreign file is an empty cache, never an error.
 *
 * Layout: one JSON line `{fingerprint, dimensions, keys, checksum}`, then
 * `keys.length` rows of little-endian float32.
 */
import { join } from "node:path";
import process from "node:process";
import { _bytesLE, _float32FromLE, _PRIVATE_FILE } from "./_durable.ts";
import { _xxh64 } from "./_xxh64.ts";

export const CACHE_FILE = "dropped-vectors.bin";

/** About 11k vectors of 384 dimensions: a branch switch's worth, small beside any index. */
export const CACHE_BYTES = 16 << 20;

interface Header {
  fingerprint: string;
  dimensions: number;
  keys: string[];
  checksum: string;
}

/** The cached vectors for `fingerprint`, by input hash, newest first; empty when there are none. */
export async function readVectorCache(
  indexDir: string,
  fingerprint: string,
  dimensions: number,
): Promise<Map<string, Float32Array>> {
  const cache = new Map<string, Float32Array>();
  try {
    const bytes = await Deno.readFile(join(indexDir, CACHE_FILE));
    const end = bytes.indexOf(10);
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(0, end))) as Header;
    const body = bytes.subarray(end + 1);
    const fits = header.fingerprint === fingerprint && header.dimensions === dimensions &&
      Array.isArray(header.keys) && body.length === header.keys.length * dimensions * 4;
    if (!fits || await _xxh64(body) !== header.checksum) return cache;
    const vectors = _float32FromLE(body);
    header.keys.forEach((key, i) => {
      cache.set(key, vectors.subarray(i * dimensions, (i + 1) * dimensions));
    });
  } catch {
    // Missing or torn: nothing cached.
  }
  return cache;
}

/**
 * Replaces the cache with `entries` (newest first), the oldest beyond
 * `maxBytes` left out. Best effort: a failed write leaves the old file.
 */
export async function writeVectorCache(
  indexDir: string,
  fingerprint: string,
  dimensions: number,
  entries: Map<string, Float32Array>,
  maxBytes = CACHE_BYTES,
): Promise<void> {
  const kept = entries.entries().take(Math.floor(maxBytes / (dimensions * 4))).toArray();
  const body = new Float32Array(kept.length * dimensions);
  kept.forEach(([, vector], i) => body.set(vector, i * dimensions));
  const bytes = _bytesLE(body);
  const keys = kept.map(([key]) => key);
  const header: Header = { fingerprint, dimensions, keys, checksum: await _xxh64(bytes) };
  const path = join(indexDir, CACHE_FILE);
  const temp = `${path}.tmp-${process.pid}`;
  try {
    await Deno.remove(temp).catch(() => {});
    {
      using file = await Deno.open(temp, { write: true, createNew: true, mode: _PRIVATE_FILE });
      for (const part of [new TextEncoder().encode(JSON.stringify(header) + "\n"), bytes]) {
        for (let done = 0; done < part.length;) done += await file.write(part.subarray(done));
      }
    }
    await Deno.rename(temp, path);
  } catch {
    await Deno.remove(temp).catch(() => {});
  }
}
