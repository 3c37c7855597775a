import assert from "node:assert/strict";
import fc from "fast-check";
import {
  chunkId,
  countNonWhitespace,
  lineAt,
  makeChunk,
  nonWhitespaceCounter,
} from "./make_chunk.ts";
import { fromText } from "../testdata/source_files.ts";

Deno.test("makeChunk() derives lines, content and a stable id from a span", () => {
  const content = "a\nbb\nccc\n";
  const file = fromText("x.txt", content);
  const chunk = makeChunk(file, { start: 2, end: 9, type: "text", language: "text" });
  assert.equal(chunk.content, "bb\nccc\n");
  assert.equal(chunk.lineStart, 2);
  assert.equal(chunk.lineEnd, 3, "a trailing newline does not start another line");
  assert.equal(chunk.id, chunkId("x.txt", 2, 3, "text", "bb\nccc\n"));
  assert.notEqual(chunk.id, chunkId("x.txt", 2, 3, "paragraph", "bb\nccc\n"));
});

Deno.test("lineAt() counts lines before an offset", () => {
  assert.equal(lineAt("a\nb\nc", 0), 1);
  assert.equal(lineAt("a\nb\nc", 1), 1);
  assert.equal(lineAt("a\nb\nc", 2), 2);
  assert.equal(lineAt("a\nb\nc", 4), 3);
});

Deno.test("countNonWhitespace() ignores indentation and blank lines", () => {
  assert.equal(countNonWhitespace("  a b\n\n\tc\r\n"), 3);
});

Deno.test("nonWhitespaceCounter() counts a span as countNonWhitespace() counts its slice", () => {
  const text = fc.string({ unit: fc.constantFrom(" ", "\t", "\n", "\r", "a", "é", "\u00a0") });
  fc.assert(
    fc.property(
      text,
      fc.nat(40),
      fc.nat(40),
      (s, a, b) => {
        assert.equal(nonWhitespaceCounter(s)(a, b), countNonWhitespace(s.slice(a, b)));
      },
    ),
  );
});
