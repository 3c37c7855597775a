/**
 * Inputs built to hurt a chunker: 10,000-deep brackets for tree-sitter,
 * YAML alias bombs and malformed front matter for Markdown, and a grammar
 * that fails outright. Each must leave the process standing and the text
 * indexed.
 */
import assert from "node:assert/strict";
import { chunkFile, chunkMarkdown, type CodeChunker, createCodeChunker } from "./mod.ts";
import { fromText } from "../testdata/source_files.ts";

/** Every chunk is its slice of the source, and every non-blank character is in one. */
function assertCovers(
  source: string,
  chunks: { startOffset: number; endOffset: number; content: string }[],
) {
  const covered = new Uint8Array(source.length);
  for (const c of chunks) {
    assert.equal(source.slice(c.startOffset, c.endOffset), c.content);
    covered.fill(1, c.startOffset, c.endOffset);
  }
  for (let i = 0; i < source.length; i++) {
    if (!covered[i] && source[i]!.trim() !== "") {
      assert.fail(`offset ${i} ('${source[i]}') is lost`);
    }
  }
}

const DEPTH = 10_000;
const DEEP: Record<string, string> = {
  typescript: `export const deep = ${"[".repeat(DEPTH)}1${
    "]".repeat(DEPTH)
  };\nexport function after() {}\n`,
  javascript: `function f() { return ${"(".repeat(DEPTH)}1${")".repeat(DEPTH)}; }\n`,
  python: `x = ${"{".repeat(DEPTH)}${"}".repeat(DEPTH)}\n\ndef after():\n    return 1\n`,
  rust: `fn f() { ${"{".repeat(DEPTH)}${"}".repeat(DEPTH)} }\nfn g() {}\n`,
  java: `class A { int f() { return ${"(".repeat(DEPTH)}1${")".repeat(DEPTH)}; } }\n`,
};

Deno.test("tree-sitter chunks 10,000-deep brackets without crashing, and keeps working after", async () => {
  const chunker = await createCodeChunker({ languages: Object.keys(DEEP) });
  for (const [language, content] of Object.entries(DEEP)) {
    const started = performance.now();
    // Straight to tree-sitter: chunkFile would take these one-line files for minified.
    const chunks = chunker.chunk(fromText(`deep.${language}`, content), language);
    assert.ok(chunks.length > 1, language);
    assert.ok(chunks.some((c) => c.type !== "text"), language);
    assertCovers(content, chunks);
    assert.ok(performance.now() - started < 10_000, `${language} took too long`);
  }
  const fine = "export function fine() { return 1; }\n";
  assert.deepEqual(
    chunkFile(fromText("a.ts", fine), "typescript", chunker).map((c) => c.symbol),
    ["fine"],
  );
});

Deno.test("chunkFile() chunks minified code as text, and well-formed code by syntax", async () => {
  const chunker = await createCodeChunker({ languages: ["javascript"] });
  const statement = "var a=function(b,c){return b.map(function(d){return d*c})};";
  const statements = 2000;
  const minified = statement.repeat(statements);
  const chunks = chunkFile(fromText("bundle.js", minified), "javascript", chunker);
  // Budget-sized text chunks (about 120 at 1,000 characters), never one per statement.
  assert.ok(chunks.length < statements / 10, `${chunks.length} chunks, not one per statement`);
  assert.ok(chunks.every((c) => c.type === "text"));
  assertCovers(minified, chunks);
  const readable = statement.replaceAll(";", ";\n").repeat(3);
  assert.ok(
    chunkFile(fromText("a.js", readable), "javascript", chunker).every((c) => c.type !== "text"),
  );
});

Deno.test("chunkFile() falls back to text when the grammar blows its stack", () => {
  const exploding: CodeChunker = {
    languages: ["typescript"],
    supports: () => true,
    load: () => Promise.resolve(true),
    chunk: () => {
      throw new RangeError("Maximum call stack size exceeded");
    },
  };
  const content = DEEP.typescript!;
  const chunks = chunkFile(fromText("deep.ts", content), "typescript", exploding);
  assert.ok(chunks.length > 0);
  assert.ok(chunks.every((c) => c.type === "text" && c.language === "typescript"));
  assertCovers(content, chunks);
});

const BOMB = [
  "---",
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ..."bcdefghi".split("").map((k, i) =>
    `${k}: &${k} [${Array(9).fill(`*${"abcdefghi"[i]}`).join(",")}]`
  ),
  "---",
  "# Title",
  "",
  "Body text.",
  "",
].join("\n");

Deno.test("chunkMarkdown() keeps a YAML alias bomb as front matter without expanding it", () => {
  const started = performance.now();
  const chunks = chunkMarkdown(fromText("bomb.md", BOMB));
  assert.ok(performance.now() - started < 2000);
  assert.deepEqual(chunks.map((c) => c.type), ["front_matter", "heading", "paragraph"]);
  assert.equal(chunks[0]!.content, BOMB.slice(0, BOMB.indexOf("\n# Title")));
});

Deno.test("chunkMarkdown() survives malformed front matter and keeps its text", () => {
  const cases = [
    "---\ntitle: [unclosed\n---\n# H\n\nbody\n",
    "---\ntitle: [unclosed\nmore: {\n# Heading\n\ntext\n",
    "---\n\tkey: value\n---\nbody\n",
    "---\na: &a [*a]\n---\nbody\n",
    `---\nx: ${"[".repeat(5000)}${"]".repeat(5000)}\n---\nbody\n`,
    "---\n---\n---\n---\n",
    "---\r\nkey: value\r\n---\r\nbody\r\n",
  ];
  for (const content of cases) {
    const chunks = chunkMarkdown(fromText("fm.md", content));
    for (const c of chunks) assert.equal(content.slice(c.startOffset, c.endOffset), c.content);
    assert.ok(
      chunks.some((c) => c.content.includes("body") || c.content.includes("text")) ||
        !/body|text/.test(content),
      JSON.stringify(content.slice(0, 40)),
    );
  }
});
