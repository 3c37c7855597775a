import { equal, rejects } from "node:assert/strict";
import { join } from "node:path";
import { WayfinderError } from "../error.ts";
import { openIndex } from "./open_index.ts";
import { syntheticGeneration } from "./testdata/synthetic.ts";
import { writeGeneration } from "./write_generation.ts";

function staleMatching(pattern: RegExp) {
  return (error: unknown) =>
    error instanceof WayfinderError && error.code === "stale_index" && pattern.test(error.message);
}

async function withIndex(fn: (dir: string, genDir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    const name = await writeGeneration(dir, syntheticGeneration(10, 8));
    await fn(dir, join(dir, name));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("openIndex() returns null where nothing was published", async () => {
  const dir = await Deno.makeTempDir();
  try {
    equal(await openIndex(dir), null);
    equal(await openIndex(join(dir, "missing")), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openIndex() refuses an index of another format version", async () => {
  await withIndex(async (dir, genDir) => {
    const path = join(genDir, "manifest.json");
    const manifest = JSON.parse(await Deno.readTextFile(path));
    manifest.formatVersion = 99;
    await Deno.writeTextFile(path, JSON.stringify(manifest));
    await rejects(
      openIndex(dir),
      staleMatching(
        /^Cannot use index at .+: built by format 99, this wayfinder reads 1; run 'wayfinder index \/corpus'$/,
      ),
    );
  });
});

Deno.test("openIndex() refuses truncated vectors", async () => {
  await withIndex(async (dir, genDir) => {
    await Deno.truncate(join(genDir, "vectors.f32"), 10 * 8 * 4 - 4);
    await rejects(openIndex(dir), staleMatching(/vectors\.f32 holds 316 bytes, expected 320/));
  });
});

Deno.test("openIndex() refuses damaged chunks", async () => {
  await withIndex(async (dir, genDir) => {
    await Deno.writeTextFile(join(genDir, "chunks.json"), "[{");
    await rejects(openIndex(dir), staleMatching(/chunks\.json is not JSON/));
  });
});

Deno.test("openIndex() with verifyChecksums detects flipped vector bits", async () => {
  await withIndex(async (dir, genDir) => {
    const path = join(genDir, "vectors.f32");
    const bytes = await Deno.readFile(path);
    bytes[17]! ^= 1;
    await Deno.writeFile(path, bytes);
    equal((await openIndex(dir))!.chunks.length, 10); // sizes alone cannot tell
    await rejects(
      openIndex(dir, { verifyChecksums: true }),
      staleMatching(/vectors\.f32 fails its checksum/),
    );
  });
});

Deno.test("openIndex() reports a damaged full-text index when searched", async () => {
  await withIndex(async (dir, genDir) => {
    await Deno.writeTextFile(join(genDir, "orama.json"), "{");
    const index = (await openIndex(dir))!;
    let caught: unknown;
    try {
      index.lexical("user", 3);
    } catch (error) {
      caught = error;
    }
    equal(staleMatching(/orama\.json is unreadable/)(caught), true);
  });
});

Deno.test("openIndex() refuses a current that names a missing generation", async () => {
  await withIndex(async (dir) => {
    await Deno.writeTextFile(join(dir, "current"), "gen-1-abc\n");
    await rejects(openIndex(dir), staleMatching(/generation gen-1-abc is missing files/));
    await Deno.writeTextFile(join(dir, "current"), "../../etc\n");
    await rejects(openIndex(dir), staleMatching(/'current' names no generation/));
  });
});
