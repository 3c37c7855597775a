import assert from "node:assert/strict";
import { WayfinderError } from "../error.ts";
import { hintsFor, worded } from "../hints.ts";
import { assertFits, type UnfitPassage } from "./assert_fits.ts";

function unfit(path: string, lineStart: number, tokens = 3): UnfitPassage {
  return {
    chunkId: `${path}#${lineStart}`,
    sourcePath: path,
    lineStart,
    lineEnd: lineStart + 9,
    tokens,
  };
}

Deno.test("assertFits() passes when every passage fits", () => {
  assertFits([], 2);
});

Deno.test("assertFits() names each passage that cannot fit, its lines and its smallest piece", () => {
  assert.throws(() => assertFits([unfit("b.md", 12), unfit("c.ts", 3, 4)], 2), (error: unknown) => {
    assert.ok(error instanceof WayfinderError);
    assert.equal(error.code, "long_input");
    assert.deepEqual(error.fix, { kind: "unfit_passages" });
    assert.equal(
      worded(error, hintsFor("cli")).message,
      "Cannot embed 2 passages within 2 tokens, even one character at a time: " +
        "b.md:12-21 (a piece needs 3 tokens), c.ts:3-12 (a piece needs 4 tokens); " +
        "exclude them (--exclude GLOB) or embed their first tokens (--long-input truncate)",
    );
    return true;
  });
});

Deno.test("assertFits() lists ten places and summarises the rest", () => {
  const passages = Array.from({ length: 13 }, (_, i) => unfit(`f${i}.md`, 1));
  assert.throws(() => assertFits(passages, 2), (error: unknown) => {
    assert.ok(error instanceof WayfinderError);
    assert.match(error.message, /^Cannot embed 13 passages within 2 tokens/);
    assert.match(error.message, /f9\.md:1-10 \(a piece needs 3 tokens\), and 3 more places$/);
    assert.doesNotMatch(error.message, /f10\.md/);
    return true;
  });
});
