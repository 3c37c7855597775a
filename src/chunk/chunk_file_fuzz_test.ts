/**
 * Property tests for the chunkers over generated files: every chunk is the
 * exact slice of the source at its offsets, its lines are where that slice
 * starts and ends, chunks come in order without overlap, and no visible
 * character is lost (code drops only the closing brace of a container cut
 * into members, on a line of its own; Markdown only what it documents:
 * rules, heading marks, setext underlines and empty front matter fences).
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import type { Chunk } from "../types.ts";
import { chunkFile, chunkMarkdown, chunkText, createCodeChunker } from "./mod.ts";
import { fromText } from "../testdata/source_files.ts";

const RUNS = Number(Deno.env.get("WAYFINDER_FUZZ_RUNS") ?? 150);

function lineAt(text: string, offset: number): number {
  return text.slice(0, offset).split("\n").length;
}

/** Offsets, lines and order; returns which offsets some chunk covers. */
function checkChunks(source: string, chunks: Chunk[]): Uint8Array {
  const covered = new Uint8Array(source.length);
  let previousEnd = 0;
  for (const c of chunks) {
    assert.equal(c.content, source.slice(c.startOffset, c.endOffset), "content is its slice");
    assert.ok(c.endOffset > c.startOffset, "no empty chunk");
    assert.equal(c.lineStart, lineAt(source, c.startOffset), "lineStart");
    assert.equal(c.lineEnd, lineAt(source, c.endOffset - 1), "lineEnd");
    assert.ok(c.startOffset >= previousEnd, "in order, no overlap");
    previousEnd = c.endOffset;
    covered.fill(1, c.startOffset, c.endOffset);
  }
  return covered;
}

/** Visible characters no chunk holds, with their offsets, for the message. */
function lost(source: string, covered: Uint8Array, allowed?: (offset: number) => boolean) {
  const missing: string[] = [];
  for (let i = 0; i < source.length; i++) {
    if (covered[i] || /\s/.test(source[i]!) || allowed?.(i)) continue;
    missing.push(`${i}:${JSON.stringify(source[i])}`);
  }
  return missing;
}

const noise = fc.string({
  unit: fc.constantFrom(
    "a",
    "Z",
    "é",
    "😀",
    " ",
    "\t",
    "\n",
    "\r\n",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ";",
    "'",
    '"',
    "`",
    "#",
    "/",
    "*",
    "\\",
    "-",
    "=",
    "<",
    ">",
    "|",
    ":",
  ),
  maxLength: 40,
});
const eol = fc.constantFrom("\n", "\r\n", "\n\n", "\r\n\r\n");

/** Files built from pieces of a language, with noise between them. */
function source(pieces: string[]) {
  return fc.array(fc.tuple(fc.constantFrom(...pieces), eol, fc.oneof(fc.constant(""), noise)), {
    maxLength: 14,
  }).map((parts) => parts.map(([piece, end, extra]) => piece + end + extra).join(""));
}

const LANGUAGES: Record<string, string[]> = {
  typescript: [
    "export function alpha(a: number): number {\n  return a + 1;\n}",
    "class Service {\n  private x = 1;\n  run(): void {\n    this.x++;\n  }\n\n  stop() {}\n}",
    "// a comment\n/** docs */\ninterface Shape { area(): number }",
    'import { b } from "./b.ts";',
    "const arrow = (x) => { if (x) { return [1, 2, 3]; } };",
    "export default {\n  key: 'value',\n};",
    "type T = { a: string } | null;",
  ],
  python: [
    "def alpha(a):\n    return a + 1",
    "class Service:\n    x = 1\n\n    def run(self):\n        return self.x\n",
    "# comment\nimport os\nfrom sys import path",
    "@decorator\ndef wrapped():\n    pass",
    "if __name__ == '__main__':\n    alpha(1)",
    'TEXT = """\nmulti\nline\n"""',
  ],
  go: [
    "package main",
    'import "fmt"',
    "func alpha(a int) int {\n\treturn a + 1\n}",
    "type Service struct {\n\tx int\n}",
    "func (s *Service) Run() {\n\tfmt.Println(s.x)\n}",
    "// comment\nvar x = []int{1, 2, 3}",
  ],
};

const MARKDOWN = [
  "# Title",
  "## Sub ##",
  "Setext\n======",
  "Paragraph text with *emphasis* and `code`.",
  "- item one\n- item two\n  - nested",
  "1. first\n2. second",
  "```ts\nconst x = 1;\n```",
  "~~~\nunclosed fence",
  "| a | b |\n|---|---|\n| 1 | 2 |",
  "> quoted\n> more",
  "<div>html</div>",
  "[^1]: A footnote.",
  "[ref]: https://example.com",
  "---",
  "***",
  "#",
  "    indented code",
];

const FRONT = fc.constantFrom(
  "",
  "---\ntitle: T\ntags: [a, b]\n---\n",
  "---\n---\n",
  "---\nbad: [\n---\n",
);

/** Offsets Markdown may drop: rule lines, heading marks, setext underlines, fences of empty front matter. */
function markdownDroppable(text: string): (offset: number) => boolean {
  const droppable = new Uint8Array(text.length);
  let start = 0;
  for (const line of text.split("\n")) {
    const body = line.replace(/\r$/, "");
    const rule = /^ {0,3}([-*_=])(\s*\1)*\s*$/.test(body) || /^ {0,3}#{1,6}\s*#*\s*$/.test(body);
    if (rule) droppable.fill(1, start, start + line.length);
    const heading = /^( {0,3}#{1,6})(?:[ \t]|$)/.exec(body);
    if (heading) droppable.fill(1, start, start + heading[1]!.length);
    const closing = /[ \t]#+[ \t]*$/.exec(body);
    if (heading && closing) droppable.fill(1, start + closing.index, start + body.length);
    start += line.length + 1;
  }
  return (offset) => droppable[offset] === 1;
}

/** Offsets code may drop: a container's closing token on its own line, with its punctuation. */
function codeDroppable(text: string): (offset: number) => boolean {
  const droppable = new Uint8Array(text.length);
  let start = 0;
  for (const line of text.split("\n")) {
    // The closer, and punctuation of the declaration around it (`};`).
    if (/^\s*(\}|\)|\]|end)[;,)\]]*\s*$/.test(line)) {
      droppable.fill(1, start, start + line.length);
    }
    start += line.length + 1;
  }
  return (offset) => droppable[offset] === 1;
}

const chunker = await createCodeChunker({ languages: Object.keys(LANGUAGES) });

for (const [language, pieces] of Object.entries(LANGUAGES)) {
  Deno.test(`code chunker (${language}): exact slices, right lines, nothing visible lost`, () => {
    fc.assert(
      fc.property(
        source(pieces),
        fc.integer({ min: 10, max: 400 }),
        fc.integer({ min: 0, max: 250 }),
        (text, maxChars, minChars) => {
          const options = { maxChars, minChars };
          const chunks = chunkFile(fromText(`f.${language}`, text), language, chunker, options);
          assert.deepEqual(lost(text, checkChunks(text, chunks), codeDroppable(text)), []);
        },
      ),
      { numRuns: RUNS },
    );
  });
}

Deno.test("markdown chunker: exact slices, right lines, only documented marks dropped", () => {
  fc.assert(
    fc.property(
      FRONT,
      source(MARKDOWN),
      fc.integer({ min: 10, max: 400 }),
      (front, body, maxChars) => {
        const text = front + body;
        const chunks = chunkMarkdown(fromText("f.md", text), { maxChars });
        assert.deepEqual(lost(text, checkChunks(text, chunks), markdownDroppable(text)), []);
      },
    ),
    { numRuns: RUNS },
  );
});

Deno.test("text chunker: exact slices, right lines, nothing visible lost", () => {
  const text = fc.array(fc.oneof(noise, eol, fc.constant("word ".repeat(30))), { maxLength: 30 })
    .map((parts) => parts.join(""));
  fc.assert(
    fc.property(text, fc.integer({ min: 5, max: 300 }), (content, maxChars) => {
      const chunks = chunkText(fromText("f.txt", content), { maxChars });
      assert.deepEqual(lost(content, checkChunks(content, chunks)), []);
    }),
    { numRuns: RUNS },
  );
});
