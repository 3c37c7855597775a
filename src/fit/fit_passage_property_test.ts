/**
 * Properties of fitPassage over random prose, tables and long lines: the
 * fragments rebuild the passage exactly, each input is what was counted and
 * within budget, no fragment is blank, no cut splits a surrogate pair.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import fc from "fast-check";
import { LlamaEmbedder } from "../embed/mod.ts";
import { writeTinyModel } from "../model/mod.ts";
import { type FitPassage, fitPassage, type FittedPassage } from "./fit_passage.ts";
import { countRuns } from "./testdata/run_counter.ts";

const word = fc.string({ unit: fc.constantFrom(..."abcdefxyz_-.:"), minLength: 1, maxLength: 9 });
const space = fc.constantFrom(" ", "  ", "\t", "\n", "\r\n", "\n\n", "\u00a0", "\u3000");
const wide = fc.constantFrom("😀", "𝔘", "中", "é", "\u0301");
const longRun = fc.string({ unit: "grapheme", minLength: 20, maxLength: 120 });
const prose = fc.array(fc.oneof(word, space, space, wide, longRun), { maxLength: 60 })
  .map((parts) => parts.join(""));

const HEADER = "| name | value |\n| ---- | ----- |\n";
const cell = fc.array(fc.oneof(word, wide, fc.constant(" ")), { minLength: 1, maxLength: 12 })
  .map((parts) => parts.join(""));
const rows = fc.array(fc.tuple(cell, cell), { minLength: 1, maxLength: 25 })
  .map((pairs) => pairs.map(([a, b]) => `| ${a} | ${b} |`).join("\n"));
/** A table chunk: the first part (header included) or a later part (rows only). */
const table = fc.tuple(rows, fc.boolean()).map(([body, first]): FitPassage => ({
  text: first ? HEADER + body : body,
  lines: true,
  header: { text: HEADER, from: first ? HEADER.length : 0 },
}));

const codeToken = fc.constantFrom("f(x)+", "a=b;", "𝔘", "\t", "  ", "\n", "return x", "}");
const longLine = fc.array(codeToken, { minLength: 50, maxLength: 400 }).map((t) => t.join(""));
const context = fc.constantFrom("", "a.md\n", "src/some/deep/path/name.ts Service.refresh\n");

const passages: fc.Arbitrary<FitPassage> = fc.oneof(
  fc.record({ text: prose, context }),
  fc.tuple(table, context).map(([t, c]) => ({ ...t, context: c })),
  fc.record({ text: longLine, context, lines: fc.constant(true) }),
);

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** The invariants of one fitted passage; `count` recounts an input. */
async function checkFitted(
  passage: FitPassage,
  fitted: FittedPassage,
  maxTokens: number,
  count: (text: string) => Promise<number>,
): Promise<void> {
  const { text } = passage;
  let at = 0;
  for (const f of fitted.fragments) {
    assert.equal(f.start, at, "fragments are consecutive");
    assert.ok(f.end > f.start || text === "", "fragments are not empty");
    const body = text.slice(f.start, f.end);
    const header = passage.header && f.start >= passage.header.from ? passage.header.text : "";
    const prefix = fitted.contextOmitted ? "" : (passage.context ?? "") + header;
    assert.equal(f.input, prefix + body, "the input is the context and the fragment");
    assert.ok(f.tokens <= maxTokens, `${f.tokens} > ${maxTokens}`);
    assert.equal(f.tokens, await count(f.input));
    if (text.trim() !== "") assert.notEqual(body.trim(), "", "no fragment is blank");
    if (f.end < text.length) {
      assert.ok(!isHigh(text.charCodeAt(f.end - 1)), "no cut inside a surrogate pair");
      if (!fitted.codePointSplit) {
        assert.match(text[f.end - 1]!, /\s/, "ordinary cuts follow whitespace");
      }
    }
    at = f.end;
  }
  if (fitted.fits) {
    assert.equal(fitted.fragments.map((f) => text.slice(f.start, f.end)).join(""), text);
  }
}

Deno.test("fitPassage() rebuilds random prose, tables and long lines exactly, every input within budget", async () => {
  const count = (text: string) => Promise.resolve(countRuns(text));
  await fc.assert(
    fc.asyncProperty(passages, fc.integer({ min: 1, max: 40 }), async (passage, maxTokens) => {
      const fitted = await fitPassage(passage, { maxTokens, countTokens: count });
      // One non-blank code point costs three tokens bare: anything more always fits.
      if (passage.text.trim() !== "") assert.equal(fitted.fits, maxTokens >= 3);
      await checkFitted(passage, fitted, maxTokens, count);
    }),
    { numRuns: 300 },
  );
});

Deno.test("fitPassage() rebuilds random passages exactly with the tiny model's real tokenizer", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wayfinder-fit-" });
  const modelPath = join(dir, "tiny.gguf");
  await writeTinyModel(modelPath);
  const embedder = await LlamaEmbedder.create({ modelPath, threads: 1 });
  try {
    const count = (text: string) => embedder.countTokens(text, "document");
    await fc.assert(
      fc.asyncProperty(passages, fc.integer({ min: 4, max: 60 }), async (passage, maxTokens) => {
        const fitted = await fitPassage(passage, { maxTokens, countTokens: count });
        if (passage.text.trim() !== "") assert.ok(fitted.fits, "one code point always fits");
        await checkFitted(passage, fitted, maxTokens, count);
      }),
      { numRuns: 40 },
    );
  } finally {
    await embedder.close();
    await Deno.remove(dir, { recursive: true });
  }
});
