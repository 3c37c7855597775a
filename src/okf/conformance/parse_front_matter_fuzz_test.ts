/**
 * Property tests for the front-matter reader over generated documents: the
 * split loses and adds nothing, its line numbers are the document's, every
 * finding points inside the document, nothing throws, and hostile YAML
 * (alias bombs, deep nesting) ends quickly in a verdict.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { parseYamlBlock, splitFrontMatter } from "./parse_front_matter.ts";

const RUNS = Number(Deno.env.get("WAYFINDER_FUZZ_RUNS") ?? 300);

/** Lines a front matter block and its body are made of, the awkward ones included. */
const LINE = fc.oneof(
  fc.constantFrom(
    "---",
    "--- ",
    "---\t",
    "----",
    "...",
    "type: Guide",
    "title: 'a: b'",
    'title: "unterminated',
    "tags: [a, b",
    "tags:\n  - a\n  - b",
    "a: &x [1, 2]",
    "b: *x",
    "c: *missing",
    "<<: *x",
    "type: a\ntype: b",
    "  indented: wrongly",
    "- a list item",
    "? complex key",
    "key: |\n  block\n  text",
    "%YAML 1.2",
    "# comment",
    "\t",
    "",
    "\uFEFFbom: x",
    "\u0000nul: x",
  ),
  fc.string({ maxLength: 30 }),
);

/** A document: an opening fence or not, lines joined by LF or CRLF, perhaps no final newline. */
const DOCUMENT = fc.tuple(
  fc.constantFrom("---\n", "---\r\n", "--- \n", "---", ""),
  fc.array(fc.tuple(LINE, fc.constantFrom("\n", "\r\n")), { maxLength: 14 }),
  fc.boolean(),
).map(([opening, lines, trimEnd]) => {
  const text = opening + lines.map(([line, end]) => line + end).join("");
  return trimEnd ? text.replace(/\r?\n$/, "") : text;
});

/** The 1-based line holding `offset`. */
function lineAt(text: string, offset: number): number {
  return text.slice(0, offset).split("\n").length;
}

Deno.test("splitFrontMatter() gives back the document exactly, with the document's line numbers", () => {
  fc.assert(
    fc.property(DOCUMENT, (text) => {
      const split = splitFrontMatter(text);
      assert.equal(split.raw + split.body, text, "block and body are the document");
      if (split.block !== "present") {
        assert.deepEqual([split.raw, split.yaml, split.bodyLine], ["", "", 1]);
        return;
      }
      assert.match(split.raw, /^---[ \t]*\r?\n/);
      const head = split.raw.indexOf("\n") + 1;
      assert.equal(split.raw.slice(head, head + split.yaml.length), split.yaml, "yaml follows");
      assert.match(
        split.raw.slice(head + split.yaml.length),
        /^---[ \t]*(\r?\n)?$/,
        "then a fence",
      );
      assert.equal(split.yamlLine, 2);
      const fence = lineAt(text, head + split.yaml.length);
      assert.equal(split.bodyLine, fence + 1, "the body starts on the line after the fence");
      if (split.body) assert.equal(split.bodyLine, lineAt(text, split.raw.length));
    }),
    { numRuns: RUNS },
  );
});

Deno.test("parseYamlBlock() never throws, and every position it names lies in the document", () => {
  fc.assert(
    fc.property(DOCUMENT, (text) => {
      const split = splitFrontMatter(text);
      const lines = text.split("\n").length;
      const parsed = parseYamlBlock(split);
      if (!parsed.ok) {
        assert.ok(parsed.line >= 1 && parsed.line <= lines, `line ${parsed.line} of ${lines}`);
        assert.ok(parsed.column >= 1, `column ${parsed.column}`);
        assert.ok(parsed.message.length > 0 && !parsed.message.includes("\n"), parsed.message);
        return;
      }
      assert.equal(parsed.frontMatter.raw, split.raw);
      const blockEnd = split.block === "present" ? split.bodyLine - 1 : 1;
      for (const [key, at] of parsed.frontMatter.keys) {
        assert.ok(at.line >= split.yamlLine && at.line < blockEnd, `${key} at ${at.line}`);
        assert.ok(at.column >= 1);
      }
    }),
    { numRuns: RUNS },
  );
});

/** A "billion laughs" block: each level's anchor repeats the previous level `width` times. */
function aliasBomb(depth: number, width: number): string {
  const lines = ["l0: &l0 [lol]"];
  for (let i = 1; i <= depth; i++) {
    lines.push(`l${i}: &l${i} [${Array(width).fill(`*l${i - 1}`).join(", ")}]`);
  }
  return lines.join("\n") + "\n";
}

/** Nodes in a parsed value: what expanding the aliases cost. */
function size(value: unknown): number {
  if (Array.isArray(value)) return 1 + value.reduce((n: number, v) => n + size(v), 0);
  if (value && typeof value === "object") {
    return 1 + Object.values(value).reduce((n: number, v) => n + size(v), 0);
  }
  return 1;
}

Deno.test("parseYamlBlock() bounds hostile YAML: alias bombs and deep nesting end fast in a verdict", () => {
  const hostile = fc.oneof(
    fc.tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 2, max: 12 }))
      .map(([depth, width]) => aliasBomb(depth, width)),
    fc.integer({ min: 1, max: 3000 }).map((depth) =>
      `x: ${"[".repeat(depth)}${"]".repeat(depth)}\n`
    ),
    fc.integer({ min: 1, max: 3000 }).map((depth) =>
      `x: ${"{a: ".repeat(depth)}1${"}".repeat(depth)}\n`
    ),
    fc.integer({ min: 1, max: 300 }).map((depth) =>
      Array.from({ length: depth }, (_, i) => `${" ".repeat(i)}k${i}:`).join("\n") + " 1\n"
    ),
  );
  fc.assert(
    fc.property(hostile, (yaml) => {
      const started = performance.now();
      const parsed = parseYamlBlock(splitFrontMatter(`---\n${yaml}---\n# Body\n`));
      assert.ok(performance.now() - started < 2000, "a verdict within 2 s");
      // Whatever is accepted was expanded within the alias limit, never exponentially.
      if (parsed.ok) assert.ok(size(parsed.frontMatter.data) < 100_000, "bounded expansion");
      else assert.ok(parsed.line >= 1 && parsed.line <= yaml.split("\n").length + 2);
    }),
    { numRuns: Math.min(RUNS, 100) },
  );
});
