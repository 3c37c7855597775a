import assert from "node:assert/strict";
import { topK } from "./top_k.ts";

Deno.test("topK() returns the best indices first, ties to the lower index", () => {
  const scores = new Float32Array([0.1, 0.9, 0.5, 0.9, -1, 0.5]);
  assert.deepEqual(topK(scores, 4), [1, 3, 2, 5]);
});

Deno.test("topK() agrees with a full sort on random scores", () => {
  const scores = new Float32Array(1000);
  let seed = 7;
  for (let i = 0; i < scores.length; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    scores[i] = Math.round((seed / 2147483648) * 50) / 50; // many ties
  }
  const full = [...scores.keys()].sort((a, b) => scores[b] - scores[a] || a - b);
  assert.deepEqual(topK(scores, 37), full.slice(0, 37));
});

Deno.test("topK() copes with k beyond the length and k of zero", () => {
  assert.deepEqual(topK(new Float32Array([2, 3]), 10), [1, 0]);
  assert.deepEqual(topK(new Float32Array([2, 3]), 0), []);
});
