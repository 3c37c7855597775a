import assert from "node:assert/strict";
import { makeChunk } from "./make_chunk.ts";
import { splitToFit } from "./split_to_fit.ts";

const source = "intro\nclass A {\n  one();\n  two();\n  three();\n}\n";
const file = { path: "a.ts", absolutePath: "/a.ts", content: source, bytes: source.length };
const whole = makeChunk(file, {
  start: 6,
  end: source.length,
  type: "class",
  language: "typescript",
  symbol: "A",
});

Deno.test("splitToFit() keeps a chunk that fits", async () => {
  assert.deepEqual(await splitToFit(whole, () => Promise.resolve(true)), [whole]);
});

Deno.test("splitToFit() cuts at line boundaries into exact slices that fit", async () => {
  const parts = await splitToFit(whole, (c) => Promise.resolve(c.content.length <= 20));
  assert.ok(parts.length > 1);
  assert.equal(parts.map((p) => p.content).join(""), whole.content);
  for (const part of parts) {
    assert.equal(source.slice(part.startOffset, part.endOffset), part.content);
    assert.ok(part.content.length <= 20 || !part.content.slice(0, -1).includes("\n"));
    assert.equal(part.symbol, "A");
    assert.equal(part.metadata.fitParts, parts.length);
  }
  assert.equal(parts[0]!.lineStart, 2);
  assert.equal(parts.at(-1)!.lineEnd, 6);
  assert.equal(new Set(parts.map((p) => p.id)).size, parts.length);
});

Deno.test("splitToFit() leaves a single over-long line whole", async () => {
  const parts = await splitToFit(whole, () => Promise.resolve(false));
  assert.equal(parts.map((p) => p.content).join(""), whole.content);
  assert.ok(parts.every((p) => !p.content.slice(0, -1).includes("\n")), "one line per fragment");
});
