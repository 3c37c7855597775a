import assert from "node:assert/strict";
import { MAX_FRONT_MATTER_BYTES, parseYamlBlock, splitFrontMatter } from "./parse_front_matter.ts";

Deno.test("splitFrontMatter() finds the block, its lines and the body line, CRLF too", () => {
  for (const nl of ["\n", "\r\n"]) {
    const split = splitFrontMatter(["---", "type: Guide", "title: T", "---", "# Body"].join(nl));
    assert.equal(split.block, "present");
    assert.equal(split.bodyLine, 5);
    assert.equal(split.body, "# Body");
    const parsed = parseYamlBlock(split);
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.frontMatter.data, { type: "Guide", title: "T" });
    assert.deepEqual(parsed.frontMatter.keys.get("title"), { line: 3, column: 1 });
  }
});

Deno.test("splitFrontMatter() tells absent from unclosed blocks", () => {
  assert.equal(splitFrontMatter("# Title\n---\n").block, "absent");
  assert.equal(splitFrontMatter("---\ntype: x\n").block, "unclosed");
  // A block past the size limit that does close is oversized, not unclosed, and keeps its body.
  const huge = `---\nx: "${"a".repeat(MAX_FRONT_MATTER_BYTES)}"\n---\n# Body\n`;
  const oversized = splitFrontMatter(huge);
  assert.equal(oversized.block, "oversized");
  assert.equal(oversized.body, "# Body\n");
  assert.equal(oversized.bodyLine, 4);
  assert.equal(oversized.yaml, "");
  assert.equal(splitFrontMatter(huge.replace(/---\n# Body/, "# Body")).block, "unclosed");
});

Deno.test("parseYamlBlock() refuses alias bombs, duplicate keys and non-mappings", () => {
  const bomb = ["a: &a [x, x, x, x, x, x, x, x]"];
  for (const n of "bcdefgh") {
    const prev = String.fromCharCode(n.charCodeAt(0) - 1);
    bomb.push(`${n}: &${n} [${Array(8).fill(`*${prev}`).join(", ")}]`);
  }
  const cases: [string, RegExp][] = [
    [bomb.join("\n") + "\ntype: x\n", /alias/i],
    ["type: a\ntype: b\n", /Key `type` is repeated/],
    ["- a\n- b\n", /not a mapping/],
    ["just text\n", /not a mapping/],
  ];
  for (const [yaml, why] of cases) {
    const parsed = parseYamlBlock(splitFrontMatter(`---\n${yaml}---\n`));
    assert.ok(!parsed.ok, yaml);
    assert.match(parsed.message, why);
  }
});

Deno.test("parseYamlBlock() keeps timestamps and dates as written, and reads an empty block as {}", () => {
  const parsed = parseYamlBlock(
    splitFrontMatter("---\nat: 2026-05-28T14:30:00Z\nd: 2026-01-01\n---\n"),
  );
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.frontMatter.data, { at: "2026-05-28T14:30:00Z", d: "2026-01-01" });
  const empty = parseYamlBlock(splitFrontMatter("---\n---\n"));
  assert.ok(empty.ok);
  assert.deepEqual(empty.frontMatter.data, {});
});

Deno.test("parseYamlBlock() turns nesting deep enough to exhaust the parser's stack into a failure", () => {
  const deep = `---\nx: ${"[".repeat(200_000)}${"]".repeat(200_000)}\n---\n`;
  const parsed = parseYamlBlock(splitFrontMatter(deep));
  assert.ok(!parsed.ok);
  assert.match(parsed.message, /nests too deeply/);
});

Deno.test("parseYamlBlock() locates each list item and its keys, one position per item", () => {
  const text = "---\ntype: Guide\nsources:\n  - id: a\n  -\n  - resource: /b.md\n    id: b\n---\n";
  const parsed = parseYamlBlock(splitFrontMatter(text));
  assert.ok(parsed.ok);
  const items = parsed.frontMatter.items.get("sources")!;
  assert.equal(items.length, 3);
  assert.deepEqual(items[0]!.keys.get("id"), { line: 4, column: 5 });
  assert.deepEqual(items[2]!.at, { line: 6, column: 5 });
  assert.deepEqual(items[2]!.keys.get("id"), { line: 7, column: 5 });
  assert.equal(parsed.frontMatter.items.has("type"), false);
});

Deno.test("parseYamlBlock() finds a repeated key at any depth, where the parser would point", () => {
  const cases: [string, string, number, number][] = [
    ["type: a\nb:\n  c: 1\n  c: 2\n", "c", 5, 3],
    ["x: [{a: 1, a: 2}]\n", "a", 2, 12],
    ["- a: 1\n  a: 2\n", "a", 3, 3],
    // The first failure in the file wins, a syntax error after the repeat included.
    ["a: 1\na: 2\nb: [\n", "a", 3, 1],
  ];
  for (const [yaml, key, line, column] of cases) {
    const parsed = parseYamlBlock(splitFrontMatter(`---\n${yaml}---\n`));
    assert.ok(!parsed.ok, yaml);
    assert.deepEqual(
      { message: parsed.message, line: parsed.line, column: parsed.column },
      { message: `Key \`${key}\` is repeated in its mapping; keep one of them`, line, column },
      yaml,
    );
  }
  const sameValue = parseYamlBlock(splitFrontMatter("---\n'1': x\n1: y\n---\n"));
  assert.ok(sameValue.ok, "a string and a number are different keys");
});

Deno.test("parseYamlBlock() checks a mapping of 60,000 keys for repeats in linear time", () => {
  const keys = Array.from({ length: 60_000 }, (_, i) => `k${i}: ${i}\n`).join("");
  const started = performance.now();
  const distinct = parseYamlBlock(splitFrontMatter(`---\ntype: Guide\n${keys}---\n`));
  const repeated = parseYamlBlock(splitFrontMatter(`---\ntype: Guide\n${keys}k7: again\n---\n`));
  // The parser's own check took some 20 s here; this takes well under one.
  assert.ok(performance.now() - started < 10_000, `${performance.now() - started} ms`);
  assert.ok(distinct.ok);
  assert.equal(distinct.frontMatter.keys.size, 60_001);
  assert.ok(!repeated.ok);
  assert.equal(repeated.line, 60_003);
});
