import { deepEqual, equal } from "node:assert/strict";
import { join } from "node:path";
import { CACHE_FILE, readVectorCache, writeVectorCache } from "./vector_cache.ts";

const entries = (n: number) =>
  new Map(Array.from({ length: n }, (_, i) => [`k${i}`, new Float32Array([i, -i, i / 3])]));

Deno.test("the dropped-vector cache round-trips newest first and keeps the newest within its cap", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await writeVectorCache(dir, "fp", 3, entries(10), 4 * 3 * 4);
    deepEqual(await readVectorCache(dir, "fp", 3), entries(4));
    equal((await Deno.stat(join(dir, CACHE_FILE))).mode! & 0o077, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a cache of another model, torn or damaged is empty, never an error", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, CACHE_FILE);
  try {
    equal((await readVectorCache(dir, "fp", 3)).size, 0, "missing");
    await writeVectorCache(dir, "fp", 3, entries(5));
    equal((await readVectorCache(dir, "other", 3)).size, 0, "another fingerprint");
    equal((await readVectorCache(dir, "fp", 4)).size, 0, "other dimensions");
    const bytes = await Deno.readFile(path);
    await Deno.writeFile(path, bytes.subarray(0, bytes.length - 4));
    equal((await readVectorCache(dir, "fp", 3)).size, 0, "torn");
    bytes[bytes.length - 1]! ^= 0x10;
    await Deno.writeFile(path, bytes);
    equal((await readVectorCache(dir, "fp", 3)).size, 0, "a flipped byte");
    await Deno.writeFile(path, bytes.subarray(0, 10));
    equal((await readVectorCache(dir, "fp", 3)).size, 0, "a torn header");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
