import assert from "node:assert/strict";
import type { Chunk, SourceFile } from "../types.ts";
import { BUILD_DEFAULTS } from "../build_defaults.ts";
import { WayfinderError } from "../error.ts";
import { chunkText, type TextOptions } from "./chunk_text.ts";
import { countNonWhitespace } from "./make_chunk.ts";
import { assertGolden } from "../testdata/golden.ts";
import { FIXTURES, fromFile, fromText, REPO } from "../testdata/source_files.ts";

const GOLDENS = new URL("chunk/markdown/goldens/", FIXTURES);

/** Exact offsets, budget kept, and nothing but whitespace left out. */
function assertWellFormed(file: SourceFile, chunks: Chunk[], options: TextOptions): void {
  const budget = options.maxChars ?? BUILD_DEFAULTS.maxChunkChars;
  let covered = 0;
  let previousStart = -1;
  for (const c of chunks) {
    const where = `${file.path}:${c.lineStart} (max ${budget})`;
    assert.equal(file.content.slice(c.startOffset, c.endOffset), c.content, where);
    assert.equal(c.type, "text");
    // Indentation of a chunk's first line is kept; trailing whitespace is not.
    assert.equal(c.content, c.content.trimEnd(), `${where} ends in whitespace`);
    if (c.content.trimStart() !== c.content) {
      assert.ok(c.startOffset === 0 || file.content[c.startOffset - 1] === "\n", where);
    }
    assert.ok(countNonWhitespace(c.content) <= budget, `${where} is over budget`);
    assert.ok(c.startOffset > previousStart, `${where} does not advance`);
    assert.ok(c.startOffset >= covered, `${where} overlaps`);
    assert.equal(file.content.slice(covered, c.startOffset).trim(), "", `${where} skips text`);
    assert.equal(c.lineStart, file.content.slice(0, c.startOffset).split("\n").length, where);
    previousStart = c.startOffset;
    covered = Math.max(covered, c.endOffset);
  }
  assert.equal(file.content.slice(covered).trim(), "", "text left after the last chunk");
}

const PARAGRAPHS = [
  "Alpha one. Alpha two is here.",
  "Bravo paragraph spans\ntwo lines.",
  "Charlie.",
  "Delta is the longest paragraph of all. It has three sentences. " +
  "The last one ends here.",
].join("\n\n") + "\n";

Deno.test("chunkText() matches its goldens", async () => {
  const file = await fromFile(new URL("samples/search.txt", FIXTURES), "samples/search.txt");
  await assertGolden(new URL("text_search.json", GOLDENS), chunkText(file));
  await assertGolden(new URL("text_search_max80.json", GOLDENS), chunkText(file, { maxChars: 80 }));
});

Deno.test("chunkText() packs paragraphs up to the budget", () => {
  const file = fromText("t.txt", PARAGRAPHS);
  assert.deepEqual(chunkText(file).map((c) => c.content), [PARAGRAPHS.trim()]);
  // 24 + 27 + 8 = 59 fits 60; Delta (76) does not fit beside anything.
  const chunks = chunkText(file, { maxChars: 60 });
  assert.deepEqual(chunks.map((c) => c.content), [
    "Alpha one. Alpha two is here.\n\nBravo paragraph spans\ntwo lines.\n\nCharlie.",
    "Delta is the longest paragraph of all. It has three sentences.",
    "The last one ends here.",
  ]);
  assert.deepEqual(chunks.map((c) => [c.lineStart, c.lineEnd]), [[1, 6], [8, 8], [8, 8]]);
  assert.deepEqual(chunks[0].metadata, {});
});

Deno.test("chunkText() cuts an oversized paragraph at sentences and keeps abbreviations whole", () => {
  const file = fromText(
    "t.txt",
    "One sentence here. Two e.g. this one stays whole! Three? Four ends.\n",
  );
  const chunks = chunkText(file, { maxChars: 30 });
  assert.deepEqual(chunks.map((c) => c.content), [
    "One sentence here.",
    "Two e.g. this one stays whole!",
    "Three? Four ends.",
  ]);
});

Deno.test("chunkText() hard-splits a line longer than the budget", () => {
  const file = fromText("t.txt", "😀".repeat(30) + "\n" + "word ".repeat(40));
  const chunks = chunkText(file, { maxChars: 25 });
  assertWellFormed(file, chunks, { maxChars: 25 });
  for (const c of chunks) {
    assert.ok(!/[\uD800-\uDBFF]$/.test(c.content), "a surrogate pair was cut");
    assert.ok(!/^[\uDC00-\uDFFF]/.test(c.content), "a surrogate pair was cut");
    if (c.content.includes("word")) assert.match(c.content, /^word( word)*$/, "cut inside a word");
  }
});

Deno.test("chunkText() keeps offsets exact on real text, CRLF included", async () => {
  // Prose of every shape the repository holds: plain text, our README, the peer's docs.
  const files: SourceFile[] = [
    await fromFile(new URL("samples/search.txt", FIXTURES), "search.txt"),
    await fromFile(new URL("README.md", REPO), "README.md"),
    await fromFile(new URL("corpus/docs/observability.md", FIXTURES), "observability.md"),
    await fromFile(
      new URL("chunk/markdown/examples/flutter-knowledge/README.md", FIXTURES),
      "f.md",
    ),
  ];
  for (const base of files) {
    const crlf = fromText(base.path, base.content.replaceAll("\n", "\r\n"));
    for (const file of [base, crlf]) {
      for (const maxChars of [40, 120, 1500]) {
        assertWellFormed(file, chunkText(file, { maxChars }), { maxChars });
      }
    }
  }
});

Deno.test("chunkText() returns nothing for blank text and uses the given language", () => {
  assert.deepEqual(chunkText(fromText("t.txt", "")), []);
  assert.deepEqual(chunkText(fromText("t.txt", " \n\r\n\t\n")), []);
  assert.equal(chunkText(fromText("t.txt", "hi\n")).at(0)?.language, "text");
  assert.equal(chunkText(fromText("t.txt", "hi\n"), { language: "rst" }).at(0)?.language, "rst");
});

Deno.test("chunkText() rejects bad options", () => {
  const file = fromText("t.txt", "hi\n");
  const usage = (e: unknown) => e instanceof WayfinderError && e.code === "usage";
  assert.throws(() => chunkText(file, { maxChars: 0 }), usage);
  assert.throws(() => chunkText(file, { maxChars: 1.5 }), usage);
});
