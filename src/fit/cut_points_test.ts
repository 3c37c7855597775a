import assert from "node:assert/strict";
import { cutPoints, firstInk, lastInk } from "./cut_points.ts";

Deno.test("cutPoints() cuts after each line break, keeping the text's end", () => {
  assert.deepEqual(cutPoints("ab\ncd\n\nef", "line"), [3, 6, 7, 9]);
});

Deno.test("cutPoints() cuts after whole runs of whitespace, so whitespace stays before the cut", () => {
  assert.deepEqual(cutPoints("one  two\n\tthree", "word"), [5, 10, 15]);
});

Deno.test("cutPoints() never leaves only whitespace after a cut", () => {
  assert.deepEqual(cutPoints("a\nb\n\n  ", "line"), [2, 7]);
  assert.deepEqual(cutPoints("a b   ", "word"), [2, 6]);
  assert.deepEqual(cutPoints("ab  ", "codePoint"), [1, 4]);
});

Deno.test("cutPoints() cuts between code points, never inside a surrogate pair", () => {
  const text = "a😀b"; // 😀 is two UTF-16 units
  assert.deepEqual(cutPoints(text, "codePoint"), [1, 3, 4]);
});

Deno.test("cutPoints() has nothing but the end for a blank text, and nothing for an empty one", () => {
  assert.deepEqual(cutPoints(" \n ", "codePoint"), [3]);
  assert.deepEqual(cutPoints("", "word"), []);
});

Deno.test("firstInk() and lastInk() find the non-whitespace edges", () => {
  assert.equal(firstInk("  a b", 0), 2);
  assert.equal(firstInk("a  ", 1), 3);
  assert.equal(lastInk("a b \n"), 2);
  assert.equal(lastInk("   "), -1);
});
