import assert from "node:assert/strict";
import { lowerBound, upperBound } from "./sorted_search.ts";

Deno.test("lowerBound() finds the first value at or above the minimum", () => {
  assert.equal(lowerBound([1, 3, 5], 3), 1);
  assert.equal(lowerBound([1, 3, 5], 4), 2);
  assert.equal(lowerBound([1, 3, 5], 6), 3);
  assert.equal(lowerBound([], 0), 0);
  assert.equal(lowerBound(["alpha", "beta", "delta"], "charlie"), 2, "words too");
});

Deno.test("upperBound() counts the values at or below the maximum", () => {
  assert.equal(upperBound([0, 10, 20], 0), 1);
  assert.equal(upperBound([0, 10, 20], 15), 2);
  assert.equal(upperBound([0, 10, 20], 20), 3);
  assert.equal(upperBound([0, 10, 20], -1), 0);
  assert.equal(upperBound([], 5), 0);
});
