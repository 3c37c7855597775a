import assert from "node:assert/strict";
import { lowerBound } from "./lower_bound.ts";

Deno.test("lowerBound() finds the first value at or above the minimum", () => {
  assert.equal(lowerBound([1, 3, 5], 3), 1);
  assert.equal(lowerBound([1, 3, 5], 4), 2);
  assert.equal(lowerBound([1, 3, 5], 6), 3);
  assert.equal(lowerBound([], 0), 0);
  assert.equal(lowerBound(["alpha", "beta", "delta"], "charlie"), 2, "words too");
});
