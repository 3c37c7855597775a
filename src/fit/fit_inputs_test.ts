import assert from "node:assert/strict";
import type { Chunk } from "../types.ts";
import { makeChunk } from "../chunk/make_chunk.ts";
import { FakeEmbedder } from "../embed/fake.ts";
import { fitInputs } from "./fit_inputs.ts";

function chunksOf(path: string, paragraphs: string[]): Chunk[] {
  const content = paragraphs.join("\n\n");
  const file = { path, absolutePath: "/" + path, content, bytes: content.length };
  const chunks: Chunk[] = [];
  let start = 0;
  for (const paragraph of paragraphs) {
    chunks.push(
      makeChunk(file, {
        start,
        end: start + paragraph.length,
        type: "paragraph",
        language: "text",
      }),
    );
    start += paragraph.length + 2;
  }
  return chunks;
}

const counter = new FakeEmbedder();
const count = (text: string) => counter.countTokens(text, "document");

Deno.test("fitInputs() counts every chunk and marks those over budget", async () => {
  const chunks = chunksOf("notes.md", ["one two three", "a b c d e f", "short"]);
  const report = await fitInputs(chunks, count, { maxTokens: 4, policy: "reject" });
  assert.deepEqual(report.inputs.map((input) => input.tokens), [3, 6, 1]);
  assert.deepEqual(report.inputs.map((input) => input.fits), [true, false, true]);
  assert.equal(report.overLimit, 1);
  assert.equal(report.maxTokens, 4);
  assert.equal(report.policy, "reject");
  assert.deepEqual(
    { ...report.inputs[1] },
    {
      chunkId: chunks[1].id,
      sourcePath: "notes.md",
      lineStart: 3,
      lineEnd: 3,
      tokens: 6,
      fits: false,
    },
  );
});

Deno.test("fitInputs() treats exactly maxTokens as fitting", async () => {
  const report = await fitInputs(chunksOf("a.txt", ["w w w w"]), count, {
    maxTokens: 4,
    policy: "truncate",
  });
  assert.equal(report.overLimit, 0);
  assert.equal(report.inputs[0].fits, true);
});

Deno.test("fitInputs() counts the text textOf builds, not the raw content", async () => {
  const seen: string[] = [];
  const report = await fitInputs(chunksOf("a.ts", ["x"]), (text) => {
    seen.push(text);
    return Promise.resolve(text.length);
  }, {
    maxTokens: 100,
    policy: "reject",
    textOf: (chunk) => `${chunk.sourcePath}\n${chunk.content}`,
  });
  assert.deepEqual(seen, ["a.ts\nx"]);
  assert.equal(report.inputs[0].tokens, 6);
});

Deno.test("fitInputs() returns an empty report for no chunks", async () => {
  const report = await fitInputs([], count, { maxTokens: 8, policy: "reject" });
  assert.deepEqual(report, { inputs: [], overLimit: 0, maxTokens: 8, policy: "reject" });
});
