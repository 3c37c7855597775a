import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import { WayfinderError } from "../error.ts";
import { openIndex, type StoredIndex } from "./open_index.ts";
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

/** The error `index.lexical(...args)` throws. */
function lexicalError(index: StoredIndex, ...args: Parameters<StoredIndex["lexical"]>): unknown {
  try {
    index.lexical(...args);
  } catch (error) {
    return error;
  }
  throw new Error("lexical() did not throw");
}

/** One line, the file and reason named, the remedy given. */
const oneLineStale = (reason: RegExp) =>
  staleMatching(
    new RegExp(
      `^Cannot use index at [^\n]+: ${reason.source}; run 'wayfinder index /corpus --rebuild'$`,
    ),
  );

Deno.test("openIndex() reports a damaged full-text index when searched", async () => {
  await withIndex(async (dir, genDir) => {
    await Deno.writeTextFile(join(genDir, "lexical.bin"), "{");
    const index = (await openIndex(dir))!;
    ok(
      oneLineStale(/lexical\.bin is unreadable \(not a wayfinder lexical file\)/)(
        lexicalError(index, "user", 3),
      ),
    );
  });
});

Deno.test("openIndex() names the old full-text format of an index from before lexical format 3", async () => {
  await withIndex(async (dir, genDir) => {
    await Deno.remove(join(genDir, "lexical.bin"));
    await Deno.writeTextFile(join(genDir, "orama.json"), "{}");
    const index = (await openIndex(dir))!;
    equal(index.chunks.length, 10); // dense search still works
    ok(
      oneLineStale(/its full-text index \(orama\.json\) predates lexical format 3/)(
        lexicalError(index, "user", 3),
      ),
    );
  });
});

Deno.test("openIndex() with verifyChecksums checks the full-text index when it is read", async () => {
  await withIndex(async (dir, genDir) => {
    const path = join(genDir, "lexical.bin");
    const bytes = await Deno.readFile(path);
    bytes[bytes.length - 1]! ^= 0x40; // a flipped bit in the last postings list, not searched here
    await Deno.writeFile(path, bytes);
    (await openIndex(dir))!.lexical("user", 3);
    const checked = (await openIndex(dir, { verifyChecksums: true }))!;
    ok(oneLineStale(/lexical\.bin fails its checksum/)(lexicalError(checked, "user", 3)));
  });
});

Deno.test("StoredIndex.lexical() passes its filter on", async () => {
  await withIndex(async (dir) => {
    const index = (await openIndex(dir))!;
    const all = index.lexical("user session", 10);
    ok(all.length > 2);
    const path = index.chunks[all[1]!.index]!.sourcePath;
    const kept = index.lexical("user session", 10, { pathPrefixes: [path] });
    ok(kept.length > 0);
    ok(kept.every((hit) => index.chunks[hit.index]!.sourcePath === path));
    deepEqual(index.lexical("user session", 10, { languages: ["dart"] }), []);
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
