import assert from "node:assert/strict";
import { join } from "node:path";
import type { Chunk, SourceFile } from "../types.ts";
import { chunkFile, chunkId, chunkMarkdown, createCodeChunker, makeChunk } from "../chunk/mod.ts";
import { FakeEmbedder } from "../embed/mod.ts";
import { detectLanguage, walkTree } from "../walk/mod.ts";
import { embeddingInput } from "./embedding_input.ts";
import { fitChunk, fitChunks, tokenBudget } from "./fit_chunks.ts";
import { fromText } from "../testdata/source_files.ts";

/** The fake embedder's tokenizer with a budget, recording every input it counts. */
function spyBudget(maxTokens: number) {
  const counted = new Map<string, number>();
  const embedder = new FakeEmbedder({ maxTokens });
  const budget = tokenBudget({
    identity: embedder.identity,
    countTokens: async (text, kind) => {
      const tokens = await embedder.countTokens(text, kind);
      counted.set(text, tokens);
      return tokens;
    },
  });
  return { budget, counted };
}

/** Fragments rebuild their chunk, sit at its offsets in the file, and embed what was counted. */
function assertExact(
  file: SourceFile,
  chunk: Chunk,
  fragments: Chunk[],
  counted: Map<string, number>,
  max: number,
) {
  assert.equal(fragments.map((f) => f.content).join(""), chunk.content);
  for (const fragment of fragments) {
    assert.equal(file.content.slice(fragment.startOffset, fragment.endOffset), fragment.content);
    const { sourcePath, lineStart, lineEnd, type, content } = fragment;
    assert.equal(fragment.id, chunkId(sourcePath, lineStart, lineEnd, type, content));
    const input = embeddingInput(fragment);
    assert.ok(counted.has(input), `embedded as counted: ${JSON.stringify(input)}`);
    assert.ok(counted.get(input)! <= max);
  }
}

Deno.test("fitChunk() gives every table fragment its header as context, never as content", async () => {
  const rows = Array.from({ length: 12 }, (_, i) => `| row ${i} | value ${i} |`).join("\n");
  const file = fromText("t.md", `# Prices\n\n| name | value |\n| ---- | ----- |\n${rows}\n`);
  const [table] = chunkMarkdown(file).filter((c) => c.type === "table");
  const { budget, counted } = spyBudget(40);
  const { fragments, codes } = await fitChunk(table!, budget);
  assert.ok(fragments.length > 2, `${fragments.length} fragments`);
  assert.deepEqual(codes, []);
  assertExact(file, table!, fragments, counted, 40);
  const header = "| name | value |\n| ---- | ----- |";
  assert.ok(fragments[0]!.content.startsWith(header));
  assert.equal(fragments[0]!.metadata.embeddingText, undefined);
  for (const [i, fragment] of fragments.entries()) {
    assert.deepEqual([fragment.metadata.fitPart, fragment.metadata.fitParts], [
      i + 1,
      fragments.length,
    ]);
    if (i === 0) continue;
    assert.ok(!fragment.content.includes("name"), "the passage holds rows only");
    assert.ok(
      fragment.content.split("\n").every((line) => line === "" || line.startsWith("| row")),
      "cut at rows",
    );
    assert.equal(embeddingInput(fragment), `t.md Prices\n${header}\n${fragment.content}`);
  }
});

Deno.test("fitChunk() gives the fragments of a later table part the header too", async () => {
  const rows = Array.from({ length: 12 }, (_, i) => `| row ${i} | value ${i} |`).join("\n");
  const file = fromText("t.md", `| name | value |\n| ---- | ----- |\n${rows}\n`);
  const parts = chunkMarkdown(file, { maxChars: 80 });
  assert.ok(parts.length > 1 && !parts[1]!.content.startsWith("| name"));
  const { budget, counted } = spyBudget(30);
  const { fragments } = await fitChunk(parts[1]!, budget);
  assert.ok(fragments.length > 1);
  assertExact(file, parts[1]!, fragments, counted, 30);
  for (const fragment of fragments) {
    assert.equal(
      embeddingInput(fragment),
      `t.md\n| name | value |\n| ---- | ----- |\n${fragment.content}`,
    );
  }
});

Deno.test("fitChunk() cuts code at line breaks", async () => {
  const body = Array.from({ length: 20 }, (_, i) => `  step${i}(input);`).join("\n");
  const file = fromText("a.ts", `function run(input) {\n${body}\n}\n`);
  const chunk = makeChunk(file, {
    start: 0,
    end: file.content.length - 1,
    type: "function",
    language: "typescript",
    symbol: "run",
  });
  const { budget, counted } = spyBudget(30);
  const { fragments, codes } = await fitChunk(chunk, budget);
  assert.ok(fragments.length > 1);
  assert.deepEqual(codes, []);
  assertExact(file, chunk, fragments, counted, 30);
  for (const fragment of fragments.slice(0, -1)) assert.ok(fragment.content.endsWith("\n"));
  assert.equal(fragments[1]!.lineStart, fragments[0]!.lineEnd + 1, "line ranges follow each other");
});

Deno.test("fitChunk() omits the context of that chunk alone when it cannot fit beside the smallest piece", async () => {
  const file = fromText(
    "a/very/deeply/nested/path/with/many/segments/notes.txt",
    "alpha beta gamma delta",
  );
  const chunk = makeChunk(file, {
    start: 0,
    end: file.content.length,
    type: "text",
    language: "text",
  });
  const { budget, counted } = spyBudget(12);
  const fitted = await fitChunk(chunk, budget);
  assert.deepEqual(fitted.codes, ["embedding_context_omitted"]);
  assert.equal(fitted.fragments.length, 1);
  assert.equal(fitted.fragments[0]!.id, chunk.id, "an uncut chunk keeps its id");
  assert.equal(fitted.fragments[0]!.metadata.contextOmitted, true);
  assert.equal(embeddingInput(fitted.fragments[0]!), "alpha beta gamma delta");
  assertExact(file, chunk, fitted.fragments, counted, 12);
});

Deno.test("fitChunk() keeps a chunk that fits as it is, and a chunk that cannot fit whole", async () => {
  const file = fromText("n.txt", "short text");
  const chunk = makeChunk(file, { start: 0, end: 10, type: "text", language: "text" });
  assert.deepEqual(await fitChunk(chunk, spyBudget(100).budget), {
    chunk,
    fragments: [chunk],
    tokens: [5],
    codes: [],
  });
  // Two special tokens and one per character: not even one character fits in two.
  const tight = { maxTokens: 2, countTokens: (text: string) => Promise.resolve(text.length + 2) };
  const unfit = await fitChunk(chunk, tight);
  assert.deepEqual(unfit.fragments, [chunk]);
  assert.deepEqual(unfit.unfit, {
    chunkId: chunk.id,
    sourcePath: "n.txt",
    lineStart: 1,
    lineEnd: 1,
    tokens: 3,
  });
});

Deno.test("fitChunks() makes every input of the sample corpus what was counted, within budget", async () => {
  const root = join(import.meta.dirname!, "..", "..", "fixtures", "corpus");
  const chunker = await createCodeChunker();
  const { budget, counted } = spyBudget(48);
  const walked = await walkTree(root);
  let fragmentsSeen = 0;
  for (const file of walked.files) {
    const chunks = chunkFile(file, detectLanguage(file.path), chunker);
    for (const fitted of await fitChunks(chunks, budget)) {
      assert.equal(fitted.unfit, undefined);
      assertExact(file, fitted.chunk, fitted.fragments, counted, 48);
      fragmentsSeen += fitted.fragments.length;
    }
  }
  assert.ok(fragmentsSeen > 400, `${fragmentsSeen} inputs`);
});
