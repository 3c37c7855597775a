import { deepEqual, equal, ok, rejects, throws } from "node:assert/strict";
import { join } from "node:path";
import { WayfinderError } from "../error.ts";
import { hintsFor, worded } from "../hints.ts";
import { openIndex, type StoredIndex } from "./open_index.ts";
import { syntheticGeneration } from "./testdata/synthetic.ts";
import { writeGeneration } from "./write_generation.ts";

/** A stale-index error whose message, its fix worded as the CLI words it, matches `pattern`. */
function staleMatching(pattern: RegExp) {
  return (error: unknown) =>
    error instanceof WayfinderError && error.code === "stale_index" &&
    pattern.test(worded(error, hintsFor("cli")).message);
}

/** One line, the file and reason named, the remedy given. */
const oneLineStale = (reason: RegExp) =>
  staleMatching(
    new RegExp(
      `^Cannot use index at [^\n]+: ${reason.source}; run 'wayfinder index /corpus' to rebuild it$`,
    ),
  );

/** An index of one segment: `fn` gets its folder, its generation's and its segment's. */
async function withIndex(
  fn: (dir: string, genDir: string, segDir: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    const name = await writeGeneration(dir, syntheticGeneration(10, 8));
    const manifest = JSON.parse(await Deno.readTextFile(join(dir, name, "manifest.json")));
    await fn(dir, join(dir, name), join(dir, manifest.segments[0].name));
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
        /^Cannot use index at .+: built by format 99, this wayfinder reads 4; run 'wayfinder index \/corpus' to rebuild it$/,
      ),
    );
  });
});

Deno.test("openIndex() refuses truncated vectors", async () => {
  await withIndex(async (dir, _genDir, segDir) => {
    await Deno.truncate(join(segDir, "vectors.f32"), 10 * 8 * 4 - 4);
    await rejects(openIndex(dir), staleMatching(/vectors\.f32 holds 316 bytes, expected 320/));
  });
});

Deno.test("openIndex() refuses a damaged chunk table even unverified", async () => {
  await withIndex(async (dir, _genDir, segDir) => {
    await Deno.writeTextFile(join(segDir, "chunks.bin"), "[{");
    await rejects(
      openIndex(dir, { verifyChecksums: false }),
      staleMatching(/chunks\.bin is unreadable \(it is truncated\)/),
    );
  });
});

for (const file of ["vectors.f32", "chunks.bin", "text.bin", "lexical.bin"]) {
  Deno.test(`openIndex() detects one flipped byte of equal length in ${file}`, async () => {
    await withIndex(async (dir, _genDir, segDir) => {
      const path = join(segDir, file);
      const bytes = await Deno.readFile(path);
      bytes[bytes.length >> 1]! ^= 0x01; // mid-file: sizes and formats alone cannot tell
      await Deno.writeFile(path, bytes);
      await rejects(
        openIndex(dir),
        oneLineStale(new RegExp(`seg-\\d+-[0-9a-f]+/${file} fails its checksum`)),
      );
    });
  });
}

Deno.test("openIndex() reads a passage only when its content is asked for", async () => {
  await withIndex(async (dir, _genDir, segDir) => {
    const index = (await openIndex(dir))!;
    const expected = syntheticGeneration(10, 8).chunks;
    equal(index.chunks[3]!.content, expected[3]!.content);
    await Deno.remove(join(segDir, "text.bin"));
    equal(index.chunks[4]!.symbol, expected[4]!.symbol); // metadata is in memory
    throws(
      () => index.chunks[5]!.content,
      oneLineStale(/seg-\d+-[0-9a-f]+\/text\.bin is unreadable \(.+\)/),
    );
  });
});

Deno.test("a stored chunk spreads and serialises with its content", async () => {
  await withIndex(async (dir) => {
    const chunk = (await openIndex(dir))!.chunks[2]!;
    const expected = syntheticGeneration(10, 8).chunks[2]!;
    deepEqual({ ...chunk }, expected);
    deepEqual(JSON.parse(JSON.stringify(chunk)), expected);
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

Deno.test("openIndex() reports a damaged full-text index when searched", async () => {
  await withIndex(async (dir, _genDir, segDir) => {
    await Deno.writeTextFile(join(segDir, "lexical.bin"), "{");
    const index = (await openIndex(dir, { verifyChecksums: false }))!;
    ok(
      oneLineStale(
        /seg-\d+-[0-9a-f]+\/lexical\.bin is unreadable \(not a wayfinder lexical file\)/,
      )(
        lexicalError(index, "user", 3),
      ),
    );
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

Deno.test("openIndex() round-trips sha1 ids, stored as raw bytes, and other ids alike", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const data = syntheticGeneration(4, 8);
    const hex = data.chunks.map((c, i) => ({ ...c, id: `${i}`.repeat(40).slice(0, 40) }));
    hex[1]!.id = "0123456789abcdef0123456789abcdef01234567";
    await writeGeneration(dir, { ...data, chunks: hex });
    deepEqual((await openIndex(dir))!.chunks.map((c) => c.id), hex.map((c) => c.id));
    hex[2]!.id = "not-hex";
    await writeGeneration(dir, { ...data, chunks: hex });
    deepEqual((await openIndex(dir))!.chunks.map((c) => c.id), hex.map((c) => c.id));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("StoredIndex.rowOf() finds a chunk's row by its id, -1 for an id it lacks", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const data = syntheticGeneration(12, 8);
    await writeGeneration(dir, data);
    const index = (await openIndex(dir))!;
    deepEqual(data.chunks.map((c) => index.rowOf(c.id)), data.chunks.map((_, row) => row));
    equal(index.rowOf("0".repeat(40)), -1);
    equal(index.rowOf(""), -1);
    equal(index.chunks[index.rowOf(data.chunks[7]!.id)]!.content, data.chunks[7]!.content);
    // sha1 ids are stored as raw bytes: found by their hex all the same.
    const hex = data.chunks.map((c, i) => ({ ...c, id: i.toString(16).padStart(40, "a") }));
    await writeGeneration(dir, { ...data, chunks: hex });
    const packed = (await openIndex(dir))!;
    deepEqual(hex.map((c) => packed.rowOf(c.id)), hex.map((_, row) => row));
    equal(packed.rowOf(data.chunks[3]!.id), -1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
