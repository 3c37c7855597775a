import assert from "node:assert/strict";
import { WayfinderError } from "../error.ts";
import { type FitPassage, fitPassage, type FittedPassage } from "./fit_passage.ts";
import { countRuns, runCounter } from "./testdata/run_counter.ts";

function budget(maxTokens: number) {
  return { maxTokens, countTokens: (text: string) => Promise.resolve(countRuns(text)) };
}

function texts(passage: FitPassage, fitted: FittedPassage): string[] {
  return fitted.fragments.map((f) => passage.text.slice(f.start, f.end));
}

Deno.test("fitPassage() keeps a passage whole when its input fits", async () => {
  const passage = { text: "one two three", context: "a.md\n" };
  const fitted = await fitPassage(passage, budget(7));
  assert.deepEqual(fitted, {
    fits: true,
    fragments: [{ start: 0, end: 13, input: "a.md\none two three", tokens: 7 }],
    contextOmitted: false,
    codePointSplit: false,
  });
});

Deno.test("fitPassage() cuts tables and code at line breaks before whitespace", async () => {
  const text = "aaa bbb\nccc ddd\neee\n";
  const asCode = await fitPassage({ text, context: "f.ts\n", lines: true }, budget(6));
  assert.deepEqual(texts({ text }, asCode), ["aaa bbb\n", "ccc ddd\neee\n"]);
  const asProse = await fitPassage({ text, context: "f.ts\n" }, budget(6));
  assert.deepEqual(texts({ text }, asProse), ["aaa bbb\nccc ", "ddd\neee\n"]);
  assert.equal(asCode.codePointSplit || asProse.codePointSplit, false);
});

Deno.test("fitPassage() cuts a line too long for the budget at whitespace, then resumes at line breaks", async () => {
  const text = "a b c d e f\ng\nh\n";
  const fitted = await fitPassage({ text, lines: true }, budget(5));
  assert.deepEqual(texts({ text }, fitted), ["a b c ", "d e f\n", "g\nh\n"]);
});

Deno.test("fitPassage() repeats a table's header as context, never in the passage", async () => {
  const header = "| h1 | h2 |\n| -- | -- |\n";
  const text = `${header}| r1 | x |\n| r2 | y |\n| r3 | z |`;
  const passage = { text, context: "t.md\n", lines: true, header: { text: header, from: 24 } };
  const fitted = await fitPassage(passage, budget(15));
  const parts = texts(passage, fitted);
  assert.equal(parts.join(""), text);
  assert.ok(parts.length >= 2, `${parts.length} fragments`);
  assert.ok(parts[0]!.startsWith(header));
  assert.equal(fitted.fragments[0]!.input, `t.md\n${parts[0]}`, "the header is not repeated");
  for (const [i, fragment] of fitted.fragments.entries()) {
    if (i === 0) continue;
    assert.ok(!parts[i]!.includes("h1"), "the stored fragment has no header");
    assert.equal(fragment.input, `t.md\n${header}${parts[i]}`);
    assert.ok(fragment.tokens <= 15);
  }
});

Deno.test("fitPassage() cuts prose at whitespace, keeping leading and trailing whitespace on text", async () => {
  const text = "  aa bb cc dd  \n";
  const fitted = await fitPassage({ text }, budget(4));
  const parts = texts({ text }, fitted);
  assert.deepEqual(parts, ["  aa bb ", "cc dd  \n"]);
  assert.ok(parts.every((part) => part.trim() !== ""), "no fragment is blank");
  assert.equal(fitted.codePointSplit, false, "whitespace cuts are ordinary");
});

Deno.test("fitPassage() cuts a word too long for the budget between code points, and says so", async () => {
  const text = "ab abcdefghijklmnop cd";
  const fitted = await fitPassage({ text }, budget(4));
  assert.deepEqual(texts({ text }, fitted), ["ab ", "abcdefgh", "ijklmnop ", "cd"]);
  assert.equal(fitted.codePointSplit, true);
  assert.ok(fitted.fragments.every((f) => f.tokens <= 4));
});

Deno.test("fitPassage() never cuts inside a surrogate pair", async () => {
  const text = "😀".repeat(9);
  const fitted = await fitPassage({ text }, budget(3));
  const parts = texts({ text }, fitted);
  assert.deepEqual(parts, ["😀😀😀😀", "😀😀😀😀", "😀"]);
  for (const part of parts) assert.doesNotMatch(part, /^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
});

Deno.test("fitPassage() drops the context of a passage it cannot fit beside, and only then", async () => {
  const context = "a-very-long-context-label\n"; // 7 tokens
  const text = "one two three";
  const omitted = await fitPassage({ text, context }, budget(8));
  assert.equal(omitted.fits, true);
  assert.equal(omitted.contextOmitted, true);
  assert.deepEqual(omitted.fragments.map((f) => f.input), ["one two three"]);
  const kept = await fitPassage({ text, context }, budget(11));
  assert.equal(kept.contextOmitted, false);
  assert.deepEqual(kept.fragments.map((f) => f.input), [
    `${context}one two `,
    `${context}three`,
  ]);
});

Deno.test("fitPassage() drops a table header with the rest of the context", async () => {
  const header = "| a-long-header-cell |\n| - |\n";
  const passage = { text: "| 1 |\n| 2 |", lines: true, header: { text: header, from: 0 } };
  const fitted = await fitPassage(passage, budget(8));
  assert.equal(fitted.contextOmitted, true);
  assert.deepEqual(fitted.fragments.map((f) => f.input), ["| 1 |\n| 2 |"]);
});

Deno.test("fitPassage() reports a body that cannot fit even one code point", async () => {
  const fitted = await fitPassage({ text: "  abc", context: "x\n" }, budget(2));
  assert.deepEqual(fitted, {
    fits: false,
    fragments: [],
    contextOmitted: false,
    codePointSplit: false,
    unfit: { offset: 0, tokens: 3 },
  });
});

Deno.test("fitPassage() refuses a budget that is not a positive integer", async () => {
  for (const maxTokens of [0, -1, 1.5, Number.NaN]) {
    await assert.rejects(
      fitPassage({ text: "a" }, budget(maxTokens)),
      (error: unknown) => error instanceof WayfinderError && error.code === "usage",
    );
  }
});

Deno.test("fitPassage() reports a failing tokenizer as a model error", async () => {
  const failing = { maxTokens: 8, countTokens: () => Promise.reject(new Error("vocab gone")) };
  await assert.rejects(fitPassage({ text: "a" }, failing), (error: unknown) => {
    assert.ok(error instanceof WayfinderError);
    assert.equal(error.code, "model");
    assert.equal(error.message, "Cannot count tokens: vocab gone");
    return true;
  });
  const odd = { maxTokens: 8, countTokens: () => Promise.resolve(Number.NaN) };
  await assert.rejects(fitPassage({ text: "a" }, odd), /tokenizer returned 'NaN'/);
});

Deno.test("fitPassage() accepts only fragments it counted within budget, even from an erratic tokenizer", async () => {
  // Inputs of odd length cost twice as much: shorter is not always cheaper.
  const erratic = (text: string) => Promise.resolve(countRuns(text) * (text.length % 2 ? 2 : 1));
  const text = Array.from({ length: 60 }, (_, i) => `w${i}`).join(" ");
  const fitted = await fitPassage({ text }, { maxTokens: 9, countTokens: erratic });
  assert.equal(fitted.fragments.map((f) => text.slice(f.start, f.end)).join(""), text);
  for (const f of fitted.fragments) {
    assert.ok(f.tokens <= 9);
    assert.equal(f.tokens, await erratic(f.input));
  }
});

Deno.test("fitPassage() counts only inputs about as long as the fragments it makes", async () => {
  const text = Array.from({ length: 5000 }, (_, i) => `w${i % 97}`).join(" ");
  const counter = runCounter();
  const fitted = await fitPassage({ text }, { maxTokens: 50, countTokens: counter.countTokens });
  const longest = Math.max(...fitted.fragments.map((f) => f.input.length));
  const probes = counter.seen.slice(1); // the first count is the whole passage
  assert.ok(Math.max(...probes.map((p) => p.length)) <= 3 * longest);
  assert.ok(probes.length <= fitted.fragments.length * 20, `${probes.length} counts`);
});
