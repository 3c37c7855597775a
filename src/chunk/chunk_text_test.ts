import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { Chunk, SourceFile } from "../types.ts";
import { WayfinderError } from "../error.ts";
import { chunkText, type TextOptions } from "./chunk_text.ts";
import { countNonWhitespace } from "./make_chunk.ts";

const FIXTURES = new URL("../../fixtures/", import.meta.url);
const REPO = new URL("../../", import.meta.url);
const GOLDENS = new URL("chunk/markdown/goldens/", FIXTURES);
const STRATEGIES = ["paragraph", "sentence", "fixed"] as const;

async function load(url: URL, path: string): Promise<SourceFile> {
  const content = await Deno.readTextFile(url);
  return {
    path,
    absolutePath: fileURLToPath(url),
    content,
    bytes: new TextEncoder().encode(content).length,
  };
}

function fromText(content: string, path = "t.txt"): SourceFile {
  return { path, absolutePath: `/virtual/${path}`, content, bytes: content.length };
}

/** Compares a value with a stored golden; UPDATE_GOLDENS=1 rewrites it instead. */
async function assertGolden(name: string, value: unknown): Promise<void> {
  const url = new URL(`${name}.json`, GOLDENS);
  const actual = JSON.stringify(value, null, 2) + "\n";
  if (Deno.env.get("UPDATE_GOLDENS") === "1") {
    await Deno.writeTextFile(url, actual);
    return;
  }
  let expected: string;
  try {
    expected = await Deno.readTextFile(url);
  } catch {
    throw new Error(`Golden '${name}.json' is missing: run with UPDATE_GOLDENS=1`);
  }
  assert.deepEqual(JSON.parse(actual), JSON.parse(expected), `golden '${name}' differs`);
  assert.equal(actual, expected, `golden '${name}' differs in formatting`);
}

/** Exact offsets, budget kept, and nothing but whitespace left out. */
function assertWellFormed(file: SourceFile, chunks: Chunk[], options: TextOptions): void {
  const budget = options.maxChars ?? 1500;
  let covered = 0;
  let previousStart = -1;
  for (const c of chunks) {
    const where = `${file.path}:${c.lineStart} (${options.strategy})`;
    assert.equal(file.content.slice(c.startOffset, c.endOffset), c.content, where);
    assert.equal(c.type, "text");
    // Indentation of a chunk's first line is kept; trailing whitespace is not.
    assert.equal(c.content, c.content.trimEnd(), `${where} ends in whitespace`);
    if (c.content.trimStart() !== c.content) {
      assert.ok(c.startOffset === 0 || file.content[c.startOffset - 1] === "\n", where);
    }
    assert.ok(countNonWhitespace(c.content) <= budget, `${where} is over budget`);
    assert.ok(c.startOffset > previousStart, `${where} does not advance`);
    if (options.strategy !== "fixed" || !options.overlap) {
      assert.ok(c.startOffset >= covered, `${where} overlaps`);
    }
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
  const file = await load(new URL("samples/search.txt", FIXTURES), "samples/search.txt");
  await assertGolden("text_search", chunkText(file));
  const small = Object.fromEntries(
    STRATEGIES.map((strategy) => [strategy, chunkText(file, { strategy, maxChars: 80 })]),
  );
  await assertGolden("text_search_max80", small);
});

Deno.test("chunkText() packs paragraphs up to the budget", () => {
  const file = fromText(PARAGRAPHS);
  assert.deepEqual(chunkText(file).map((c) => c.content), [PARAGRAPHS.trim()]);
  // 24 + 27 + 8 = 59 fits 60; Delta (76) does not fit beside anything.
  const chunks = chunkText(file, { maxChars: 60 });
  assert.deepEqual(chunks.map((c) => c.content), [
    "Alpha one. Alpha two is here.\n\nBravo paragraph spans\ntwo lines.\n\nCharlie.",
    "Delta is the longest paragraph of all. It has three sentences.",
    "The last one ends here.",
  ]);
  assert.deepEqual(chunks.map((c) => [c.lineStart, c.lineEnd]), [[1, 6], [8, 8], [8, 8]]);
  assert.deepEqual(chunks[0].metadata, { strategy: "paragraph" });
});

Deno.test("chunkText() packs sentences and keeps abbreviations whole", () => {
  const file = fromText("One sentence here. Two e.g. this one stays whole! Three?\nFour ends.\n");
  const chunks = chunkText(file, { strategy: "sentence", maxChars: 30 });
  assert.deepEqual(chunks.map((c) => c.content), [
    "One sentence here.",
    "Two e.g. this one stays whole!",
    "Three?\nFour ends.",
  ]);
});

Deno.test("chunkText() cuts fixed windows at line ends with overlap", () => {
  const lines = Array.from({ length: 12 }, (_, i) => `line${String(i).padStart(2, "0")} xxxx`);
  const file = fromText(lines.join("\n") + "\n");
  // Each line holds 10 non-whitespace characters.
  const plain = chunkText(file, { strategy: "fixed", maxChars: 35 });
  assert.deepEqual(plain.map((c) => [c.lineStart, c.lineEnd]), [[1, 3], [4, 6], [7, 9], [10, 12]]);
  const overlapped = chunkText(file, { strategy: "fixed", maxChars: 35, overlap: 10 });
  assert.deepEqual(
    overlapped.map((c) => [c.lineStart, c.lineEnd]),
    [[1, 3], [3, 5], [5, 7], [7, 9], [9, 11], [11, 12]],
  );
  assertWellFormed(file, overlapped, { strategy: "fixed", maxChars: 35, overlap: 10 });
});

Deno.test("chunkText() hard-splits a line longer than the budget", () => {
  const file = fromText("😀".repeat(30) + "\n" + "word ".repeat(40));
  const chunks = chunkText(file, { strategy: "fixed", maxChars: 25 });
  assertWellFormed(file, chunks, { strategy: "fixed", maxChars: 25 });
  for (const c of chunks) {
    assert.ok(!/[\uD800-\uDBFF]$/.test(c.content), "a surrogate pair was cut");
    assert.ok(!/^[\uDC00-\uDFFF]/.test(c.content), "a surrogate pair was cut");
    if (c.content.includes("word")) assert.match(c.content, /^word( word)*$/, "cut inside a word");
  }
});

Deno.test("chunkText() keeps offsets exact on real text, CRLF included", async () => {
  // Prose of every shape the repository holds: plain text, our README, the peer's docs.
  const files: SourceFile[] = [
    await load(new URL("samples/search.txt", FIXTURES), "search.txt"),
    await load(new URL("README.md", REPO), "README.md"),
    await load(new URL("corpus/docs/observability.md", FIXTURES), "observability.md"),
    await load(new URL("chunk/markdown/examples/flutter-knowledge/README.md", FIXTURES), "f.md"),
  ];
  for (const base of files) {
    const crlf = fromText(base.content.replaceAll("\n", "\r\n"), base.path);
    for (const file of [base, crlf]) {
      for (const strategy of STRATEGIES) {
        for (const maxChars of [120, 1500]) {
          const options = { strategy, maxChars, overlap: strategy === "fixed" ? 30 : 0 };
          assertWellFormed(file, chunkText(file, options), options);
        }
      }
    }
  }
});

Deno.test("chunkText() returns nothing for blank text and uses the given language", () => {
  assert.deepEqual(chunkText(fromText("")), []);
  assert.deepEqual(chunkText(fromText(" \n\r\n\t\n"), { strategy: "sentence" }), []);
  assert.equal(chunkText(fromText("hi\n")).at(0)?.language, "text");
  assert.equal(chunkText(fromText("hi\n"), { language: "rst" }).at(0)?.language, "rst");
});

Deno.test("chunkText() rejects bad options", () => {
  const file = fromText("hi\n");
  const usage = (e: unknown) => e instanceof WayfinderError && e.code === "usage";
  assert.throws(() => chunkText(file, { maxChars: 0 }), usage);
  assert.throws(() => chunkText(file, { maxChars: 1.5 }), usage);
  assert.throws(() => chunkText(file, { strategy: "fixed", overlap: 10, maxChars: 10 }), usage);
  assert.throws(() => chunkText(file, { strategy: "words" as "fixed" }), usage);
});
