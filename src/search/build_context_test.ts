import assert from "node:assert/strict";
import fc from "fast-check";
import type { Chunk } from "../types.ts";
import { buildContext } from "./build_context.ts";
import type { SearchHit } from "./search_types.ts";

function hit(id: string, content: string, extra: Partial<Chunk> = {}): SearchHit {
  const chunk: Chunk = {
    id,
    sourcePath: `src/${id}.ts`,
    lineStart: 1,
    lineEnd: 2,
    startOffset: 0,
    endOffset: content.length,
    type: "function",
    language: "typescript",
    content,
    metadata: {},
    ...extra,
  };
  return { chunk, score: 1, similarity: 1, scores: {} };
}

Deno.test("buildContext() lays out hits as fenced blocks cited path:lines", () => {
  const text = buildContext([
    hit("a", "function a() {}\n", { symbol: "a" }),
    hit("b", "# Title\n", { language: "markdown", type: "heading", sourcePath: "README.md" }),
  ], { maxChars: 1000 });
  assert.equal(
    text,
    "## src/a.ts:1-2 a (function)\n```typescript\nfunction a() {}\n```\n\n" +
      "## README.md:1-2 (heading)\n```markdown\n# Title\n```\n",
  );
});

Deno.test("buildContext() lengthens the fence around content holding fences", () => {
  const text = buildContext([hit("md", "```ts\nx\n```", { language: "markdown" })], {
    maxChars: 1000,
  });
  assert.ok(text.includes("\n````markdown\n```ts\nx\n```\n````\n"));
});

Deno.test("buildContext() skips what overflows, keeps smaller later hits, and cuts only a lone first hit", () => {
  const hits = [hit("a", "a".repeat(50)), hit("b", "b".repeat(50)), hit("c", "c".repeat(5))];
  const packed = buildContext(hits, { maxChars: 150 });
  assert.ok(packed.length <= 150);
  assert.ok(packed.includes("src/a.ts") && !packed.includes("src/b.ts"));
  assert.ok(packed.includes("src/c.ts"), "a smaller later passage still fits");
  const cut = buildContext(hits.slice(0, 2), { maxChars: 70 });
  assert.ok(cut.length <= 70, `${cut.length}`);
  assert.ok(cut.includes("\n…\n"));
  assert.equal(buildContext(hits, { maxChars: 10 }), "");
  assert.equal(buildContext([], { maxChars: 100 }), "");
});

/** Passage text with fences and backtick runs of every length, which lengthen the fence around them. */
const passageText = fc.array(
  fc.oneof(
    fc.constantFrom("x", "y\n", "\n", " ", "`", "``", "```", "````", "``````", "```ts\n", "😀"),
    fc.integer({ min: 1, max: 12 }).map((n) => "`".repeat(n)),
  ),
  { minLength: 1, maxLength: 80 },
).map((parts) => parts.join(""));

const hitsArbitrary = fc.array(
  fc.record({
    content: passageText,
    start: fc.nat({ max: 300 }),
    shared: fc.boolean(),
    label: fc.option(fc.constantFrom("login", "Auth.refresh", "Title > Part"), { nil: undefined }),
  }),
  { minLength: 1, maxLength: 6 },
).map((specs) =>
  specs.map(({ content, start, shared, label }, i) =>
    hit(`h${i}`, content, {
      sourcePath: shared ? "src/one.ts" : `src/f${i}.ts`,
      symbol: label,
      startOffset: start,
      endOffset: start + content.length,
      lineStart: 1 + start,
      lineEnd: 1 + start + content.split("\n").length,
    })
  )
);

Deno.test("buildContext() never exceeds the budget, whatever the hits", () => {
  fc.assert(
    fc.property(hitsArbitrary, fc.nat({ max: 400 }), (hits, budget) => {
      const text = buildContext(hits, { maxChars: budget });
      assert.ok(text.length <= budget, `${text.length} > ${budget}`);
    }),
    { numRuns: 500 },
  );
});

Deno.test("buildContext() keeps a cut passage holding backticks within the budget", () => {
  // The cut text needs a four-backtick fence; room computed for three ran 2 over.
  const lone = hit("md", "Run it:\n```sh\n" + "make all\n".repeat(40) + "```\n", {
    language: "markdown",
  });
  for (const budget of [200, 300]) {
    const text = buildContext([lone], { maxChars: budget });
    assert.ok(text.length <= budget, `${text.length} > ${budget}`);
    assert.ok(text.endsWith("\n…\n````\n"), text);
  }
  const short = buildContext([lone], { maxChars: 60 });
  assert.ok(short.length <= 60 && short.endsWith("\nRun it:\n…\n```\n"), short);
});

Deno.test("buildContext() cites a cut passage by the whole lines it shows", () => {
  const lines = Array.from({ length: 20 }, (_, i) => `  step${i + 17}();`);
  const lone = hit("run", lines.join("\n"), { lineStart: 17, lineEnd: 36, symbol: "run" });
  for (const budget of [90, 120, 200]) {
    const text = buildContext([lone], { maxChars: budget });
    const shown = text.split("\n").slice(2, text.split("\n").indexOf("…"));
    assert.ok(shown.length > 0 && shown.every((line) => lines.includes(line)), text);
    assert.ok(text.startsWith(`## src/run.ts:17-${16 + shown.length} run (function)\n`), text);
    assert.ok(text.length <= budget);
  }
  const oneLong = hit("long", "x".repeat(300) + "\ny", { lineStart: 5, lineEnd: 6 });
  assert.ok(buildContext([oneLong], { maxChars: 100 }).startsWith("## src/long.ts:5-5 (function)"));
});

Deno.test("buildContext() shows the hit itself when its parent overflows the budget", () => {
  const expanded = (id: string, line: number) => {
    const child = hit(id, `${id}() {}`, { symbol: `Big.${id}`, lineStart: line, lineEnd: line });
    child.parent = {
      reason: "declaration",
      symbol: "Big",
      type: "class",
      lineStart: 1,
      lineEnd: 200,
      startOffset: 0,
      endOffset: 4000,
      content: "class Big {\n" + "  field;\n".repeat(400) + "}",
    };
    return child;
  };
  const text = buildContext([expanded("encrypt", 107), expanded("decrypt", 130)], {
    maxChars: 300,
  });
  assert.ok(text.startsWith("## src/encrypt.ts:107-107 Big.encrypt (function)\n"), text);
  assert.ok(text.includes("encrypt() {}") && text.includes("decrypt() {}"), text);
  assert.ok(!text.includes("…"), "nothing had to be cut");
  assert.ok(text.length <= 300);
});

Deno.test("buildContext() merges overlapping and neighbouring passages of one file and drops copies", () => {
  const source = "line1\nline2\nline3\nline4\n\nline6\n";
  const span = (id: string, start: number, end: number, lineStart: number, lineEnd: number) =>
    hit(id, source.slice(start, end), {
      sourcePath: "src/f.ts",
      startOffset: start,
      endOffset: end,
      lineStart,
      lineEnd,
    });
  const read = () => source;
  const text = buildContext([
    span("a", 0, 11, 1, 2), // line1-2
    span("b", 6, 23, 2, 4), // overlaps a
    span("c", 25, 30, 6, 6), // after a blank line: whitespace between, merged
    { ...span("d", 0, 11, 1, 2), chunk: { ...span("d", 0, 11, 1, 2).chunk, sourcePath: "x.ts" } },
  ], { maxChars: 1000, read });
  assert.equal(
    text,
    "## src/f.ts:1-6\n```typescript\nline1\nline2\nline3\nline4\n\nline6\n```\n",
  );
  // A passage that bridges two blocks joins all three into one.
  const bridged = buildContext([
    span("a", 0, 5, 1, 1), // line1
    span("c", 12, 17, 3, 3), // line3: a line apart from a, so its own block
    span("b", 6, 11, 2, 2), // line2 touches both
  ], { maxChars: 1000, read });
  assert.equal(bridged, "## src/f.ts:1-3\n```typescript\nline1\nline2\nline3\n```\n");
});

Deno.test("buildContext() shows an expanded hit's parent instead of the hit", () => {
  const child = hit("m", "login() {}", { symbol: "Auth.login", startOffset: 20, endOffset: 30 });
  child.parent = {
    reason: "declaration",
    symbol: "Auth",
    type: "class",
    lineStart: 1,
    lineEnd: 9,
    startOffset: 0,
    endOffset: 60,
    content: "class Auth {\n  login() {}\n}",
  };
  const text = buildContext([child], { maxChars: 500 });
  assert.ok(text.startsWith("## src/m.ts:1-9 Auth (class)\n"));
  assert.ok(text.includes("class Auth {\n  login() {}\n}"));
});

Deno.test("buildContext() shows the hit alone when its parent does not hold it", () => {
  const child = hit("parse", "parseDuration() {}", {
    lineStart: 15,
    lineEnd: 15,
    startOffset: 200,
    endOffset: 218,
  });
  // A context of other lines of the file (as a top-level function once got the statements above it).
  child.parent = {
    reason: "declaration",
    type: "module",
    lineStart: 1,
    lineEnd: 6,
    startOffset: 0,
    endOffset: 120,
    content: "const settings = load();",
  };
  const text = buildContext([child], { maxChars: 500 });
  assert.ok(text.startsWith("## src/parse.ts:15-15 (function)\n"), text);
  assert.ok(text.includes("parseDuration() {}") && !text.includes("const settings"), text);
});

Deno.test("buildContext() packs the lead hit first and still shows it in its place", () => {
  const first = hit("governing", "x".repeat(120));
  const lead = hit("match", "the answer\n");
  const both = buildContext([first, lead], { maxChars: 1000, lead: 1 });
  assert.ok(both.indexOf("src/governing.ts") < both.indexOf("src/match.ts"), "reading order kept");
  const tight = buildContext([first, lead], { maxChars: 80, lead: 1 });
  assert.match(tight, /^## src\/match\.ts:1-2/);
  assert.ok(!tight.includes("governing"));
});

Deno.test("buildContext() escapes a file name that would break its heading into lines", () => {
  const text = buildContext([hit("x", "body\n", { sourcePath: "new\nline\x1b.txt" })], {
    maxChars: 500,
  });
  assert.match(text, /^## new\\x0aline\\x1b\.txt:1-2 /);
});

Deno.test("buildContext() shows a method from the start of its first line, indented like the rest", () => {
  const source = "class A {\n  /** Runs. */\n  run() {\n    go();\n  }\n}\n";
  const start = source.indexOf("/**");
  const end = source.indexOf("  }\n") + 3;
  const method = hit("run", source.slice(start, end), {
    sourcePath: "src/a.ts",
    symbol: "A.run",
    type: "method",
    lineStart: 2,
    lineEnd: 5,
    startOffset: start,
    endOffset: end,
  });
  const text = buildContext([method], { maxChars: 1000, read: () => source });
  assert.ok(text.includes("```typescript\n  /** Runs. */\n  run() {\n    go();\n  }\n```"), text);
  // Without the file's text, the chunk as it is.
  assert.ok(buildContext([method], { maxChars: 1000 }).includes("```typescript\n/** Runs. */\n"));
});

Deno.test("buildContext() puts each hit's note in its heading, on one line", () => {
  const text = buildContext([hit("a", "x"), hit("b", "y")], {
    maxChars: 1000,
    notes: ["Transport security (Standard); governs\nb.md", undefined],
  });
  assert.ok(
    text.startsWith(
      "## src/a.ts:1-2 (function) — Transport security (Standard); governs\\x0ab.md\n",
    ),
    text,
  );
  assert.ok(text.includes("## src/b.ts:1-2 (function)\n"));
});
