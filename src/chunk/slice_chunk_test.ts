import assert from "node:assert/strict";
import { makeChunk } from "./make_chunk.ts";
import { sliceChunk } from "./slice_chunk.ts";
import { fromText } from "../testdata/source_files.ts";

const source = "intro\nclass A {\n  one();\n\n  two();\n}\n";
const file = fromText("a.ts", source);
const spec = { type: "class", language: "typescript", symbol: "A", parent: "M" };
const whole = makeChunk(file, { ...spec, start: 6, end: source.length - 1 });

Deno.test("sliceChunk() derives offsets, lines and id as makeChunk does from the file", () => {
  const cuts: [number, number][] = [[0, 10], [10, 19], [19, 20], [20, whole.content.length], [
    3,
    4,
  ]];
  for (const [start, end] of cuts) {
    const piece = sliceChunk(whole, start, end, { fitPart: 1 });
    const direct = makeChunk(file, {
      ...spec,
      start: whole.startOffset + start,
      end: whole.startOffset + end,
      metadata: { fitPart: 1 },
    });
    assert.deepEqual(piece, direct, `piece ${start}-${end}`);
    assert.equal(source.slice(piece.startOffset, piece.endOffset), piece.content);
  }
});

Deno.test("sliceChunk() ends a piece that ends in a line break on the line before", () => {
  const piece = sliceChunk(whole, 0, 10, {});
  assert.equal(piece.content, "class A {\n");
  assert.deepEqual([piece.lineStart, piece.lineEnd], [2, 2]);
});
