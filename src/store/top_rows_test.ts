import { deepEqual } from "node:assert/strict";
import { topRows } from "./top_rows.ts";

Deno.test("topRows() equals a full sort by score then row, ties included", () => {
  let state = 3;
  const random = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  // Few distinct scores, so most comparisons are ties.
  const scores = Float64Array.from({ length: 500 }, () => Math.floor(random() * 20) + 1);
  const rows = Array.from({ length: 300 }, () => Math.floor(random() * 500));
  const unique = [...new Set(rows)];
  const sorted = unique.slice().sort((a, b) => scores[b]! - scores[a]! || a - b);
  for (const k of [1, 2, 7, 50, unique.length, unique.length + 10]) {
    deepEqual(topRows(unique, scores, k), sorted.slice(0, k), `k = ${k}`);
  }
});

Deno.test("topRows() returns nothing for k ≤ 0 or no rows", () => {
  const scores = Float64Array.from([3, 2, 1]);
  deepEqual(topRows([0, 1, 2], scores, 0), []);
  deepEqual(topRows([0, 1, 2], scores, -4), []);
  deepEqual(topRows([], scores, 5), []);
  deepEqual(topRows([2, 0], scores, 2.5), [0, 2]);
});
