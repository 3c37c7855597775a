import assert from "node:assert/strict";
import { WayfinderError } from "../error.ts";
import { assertFits } from "./assert_fits.ts";
import type { FitInput, FitReport } from "./fit_inputs.ts";

function input(path: string, lineStart: number, tokens: number, maxTokens: number): FitInput {
  return {
    chunkId: `${path}#${lineStart}`,
    sourcePath: path,
    lineStart,
    lineEnd: lineStart + 9,
    tokens,
    fits: tokens <= maxTokens,
  };
}

function report(inputs: FitInput[], policy: "reject" | "truncate"): FitReport {
  return { inputs, overLimit: inputs.filter((i) => !i.fits).length, maxTokens: 512, policy };
}

Deno.test("assertFits() passes when everything fits", () => {
  assertFits(report([input("a.md", 1, 512, 512)], "reject"));
});

Deno.test("assertFits() names each offender with its lines and tokens", () => {
  const inputs = [
    input("a.md", 1, 10, 512),
    input("b.md", 12, 734, 512),
    input("c.ts", 3, 600, 512),
  ];
  assert.throws(() => assertFits(report(inputs, "reject")), (error: unknown) => {
    assert.ok(error instanceof WayfinderError);
    assert.equal(error.code, "long_input");
    assert.equal(
      error.message,
      "Cannot embed 2 passages longer than 512 tokens: b.md:12-21 (734 tokens), c.ts:3-12 (600 tokens); " +
        "exclude them (--exclude GLOB) or embed their first tokens (--long-input truncate)",
    );
    return true;
  });
});

Deno.test("assertFits() lists ten offenders and summarises the rest", () => {
  const inputs = Array.from({ length: 13 }, (_, i) => input(`f${i}.md`, 1, 1000 + i, 512));
  assert.throws(() => assertFits(report(inputs, "reject")), (error: unknown) => {
    assert.ok(error instanceof WayfinderError);
    assert.match(error.message, /^Cannot embed 13 passages longer than 512 tokens: f0\.md:1-10/);
    assert.match(error.message, /f9\.md:1-10 \(1009 tokens\), and 3 more places;/);
    assert.doesNotMatch(error.message, /f10\.md/);
    return true;
  });
});

Deno.test("assertFits() names the pieces of one long line once", () => {
  const inputs = [input("min.js", 1, 900, 512), input("min.js", 1, 700, 512)].map((i) => ({
    ...i,
    lineEnd: 1,
  }));
  assert.throws(
    () => assertFits(report(inputs, "reject")),
    /: min\.js:1-1 \(2 pieces, up to 900 tokens\);/,
  );
});

Deno.test("assertFits() lets the truncate policy through", () => {
  assertFits(report([input("a.md", 1, 9000, 512)], "truncate"));
});
