import assert from "node:assert/strict";
import type { Chunk, Hit } from "../types.ts";
import { buildContext } from "./build_context.ts";

function hit(id: string, content: string, extra: Partial<Chunk> = {}): Hit {
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
  return { chunk, similarity: 1 };
}

Deno.test("buildContext() lays out hits as fenced blocks under headings", () => {
  const text = buildContext([
    hit("a", "function a() {}\n", { symbol: "a" }),
    hit("b", "# Title\n", { language: "markdown", type: "heading", sourcePath: "README.md" }),
  ]);
  assert.equal(
    text,
    "## src/a.ts:1-2 a (function)\n```typescript\nfunction a() {}\n```\n\n" +
      "## README.md:1-2 (heading)\n```markdown\n# Title\n```\n",
  );
});

Deno.test("buildContext() lengthens the fence around content holding fences", () => {
  const text = buildContext([hit("md", "```ts\nx\n```", { language: "markdown" })]);
  assert.ok(text.includes("\n````markdown\n```ts\nx\n```\n````\n"));
});

Deno.test("buildContext() stops at the budget and cuts only a first oversized hit", () => {
  const hits = [hit("a", "a".repeat(50)), hit("b", "b".repeat(50)), hit("c", "c".repeat(5))];
  const one = buildContext(hits, { maxChars: 120 });
  assert.ok(one.length <= 120);
  assert.ok(one.includes("src/a.ts") && !one.includes("src/b.ts") && !one.includes("src/c.ts"));
  const cut = buildContext(hits, { maxChars: 70 });
  assert.ok(cut.length <= 70, `${cut.length}`);
  assert.ok(cut.includes("\n…\n"));
  assert.equal(buildContext([], { maxChars: 100 }), "");
});
