import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { chunkMarkdown } from "../chunk/mod.ts";
import type { Chunk } from "../types.ts";
import { buildContext } from "./build_context.ts";
import { describeParent } from "./describe_parent.ts";
import { expandingSearcher, parentOf } from "./expand.ts";
import { indexSearcher } from "./searcher.ts";
import type { SourceReader } from "./source_text.ts";
import { chunk, cut, makeIndex } from "./testdata/index.ts";
import { fromText } from "../testdata/source_files.ts";

const EAST = new Float32Array([1, 0, 0]);
const embedQuery = () => Promise.resolve(EAST);

/** A Dart-like file: class header, two methods, a top-level function, and its text. */
function classFile(): { chunks: Chunk[]; source: string } {
  const source = [
    "class Auth {", //        1
    "  String token;", //     2
    "  login() {}", //        3
    "  logout() {}", //       4
    "}", //                   5
    "void main() {}", //      6
  ].join("\n") + "\n";
  const at = (line: number) =>
    source.split("\n").slice(0, line - 1).join("\n").length + (line > 1 ? 1 : 0);
  const make = (
    id: string,
    first: number,
    last: number,
    type: string,
    symbol?: string,
    parent?: string,
  ) => {
    const startOffset = at(first);
    const endOffset = at(last) + source.split("\n")[last - 1].length;
    return {
      ...chunk(id, "lib/auth.dart", type, "dart"),
      lineStart: first,
      lineEnd: last,
      startOffset,
      endOffset,
      content: source.slice(startOffset, endOffset),
      symbol,
      parent,
    };
  };
  return {
    source,
    chunks: [
      make("header", 1, 2, "class", "Auth"),
      make("login", 3, 3, "method", "Auth.login", "Auth"),
      make("logout", 4, 4, "method", "Auth.logout", "Auth"),
      make("main", 6, 6, "function", "main"),
    ],
  };
}

Deno.test("parentOf() prefers the declaration, then an enclosing range, then the file", () => {
  const { chunks, source } = classFile();
  const index = makeIndex(chunks, chunks.map(() => [1, 0, 0]));
  const read: SourceReader = () => source;
  const inClass = parentOf(index, chunks[1], read);
  assert.equal(inClass.reason, "declaration");
  assert.equal(inClass.symbol, "Auth");
  // The chunks leave out the class's closing brace; its context takes it back.
  assert.deepEqual([inClass.lineStart, inClass.lineEnd], [1, 5]);
  assert.equal(inClass.content, "class Auth {\n  String token;\n  login() {}\n  logout() {}\n}");
  assert.equal(
    parentOf(index, chunks[0], read).symbol,
    "Auth",
    "a class header expands to its class",
  );
  const file = parentOf(index, chunks[3], read);
  assert.equal(file.reason, "file");
  assert.deepEqual([file.lineStart, file.lineEnd, file.content], [1, 6, source]);
  // A chunk nested inside a larger one, with no declaration: the smallest enclosing chunk.
  const outer = {
    ...chunks[3],
    id: "outer",
    symbol: "outer",
    type: "function",
    startOffset: 0,
    endOffset: source.length,
  };
  const nested = makeIndex([outer, chunks[3]], [[1, 0, 0], [1, 0, 0]]);
  assert.equal(parentOf(nested, chunks[3], read).symbol, "outer");
  // A file changed since indexing: context is assembled from the index instead.
  const stale = parentOf(index, chunks[1], () => undefined);
  assert.equal(stale.content, "class Auth {\n  String token;\n  login() {}\n  logout() {}");
});

Deno.test("expandingSearcher() collapses hits in one class into the first child hit", async () => {
  const { chunks, source } = classFile();
  const index = makeIndex(chunks, [[0.9, 0.1, 0], [1, 0, 0], [0.95, 0.05, 0], [0.5, 0.5, 0]]);
  const searcher = expandingSearcher(
    indexSearcher(index, { mode: "dense", embedQuery }),
    index,
    () => source,
  );
  const { matches } = await searcher.search({ query: "q", limit: 2 });
  assert.deepEqual(matches.map((m) => m.chunk.id), ["login", "main"]);
  assert.equal(matches[0].parent?.symbol, "Auth");
  // The class's other hits are folded into it, and say so.
  assert.deepEqual(
    matches[0].parent?.matched?.map((m) => [m.id, m.symbol, m.lineStart, m.lineEnd]),
    [["logout", "Auth.logout", 4, 4], ["header", "Auth", 1, 2]],
  );
  assert.equal(
    describeParent(matches[0]),
    "matched Auth.login, Auth.logout (4-4), Auth (1-2) in class Auth",
  );
  // main's context, the file, holds class Auth already shown: main comes on its own lines.
  assert.equal(matches[1].parent, undefined);
  assert.equal(parentOf(index, chunks[3], () => source).reason, "file");
});

/** Markdown as `chunkMarkdown` cuts it, indexed, with its text. */
function markdownIndex(path: string, source: string) {
  const chunks = chunkMarkdown(fromText(path, source));
  return { chunks, source, index: makeIndex(chunks, chunks.map(() => [1, 0, 0])) };
}

Deno.test("parentOf() gives a heading its own section, from the heading line", () => {
  const { chunks, source, index } = markdownIndex(
    "docs/hooks.md",
    "# Hooks\n\nIntro.\n\n## Files\n\nPer file.\n\n## Metrics\n\nCounts.\n",
  );
  const read: SourceReader = () => source;
  const files = chunks.find((c) => c.type === "heading" && c.symbol === "Hooks > Files")!;
  const section = parentOf(index, files, read);
  assert.deepEqual([section.symbol, section.lineStart, section.lineEnd], ["Hooks > Files", 5, 7]);
  assert.equal(section.content, "## Files\n\nPer file.");
  const perFile = chunks.find((c) => c.content === "Per file.")!;
  assert.deepEqual(parentOf(index, perFile, read), section, "its paragraph shares it");
  const top = parentOf(index, chunks[0], read);
  assert.deepEqual([top.symbol, top.lineStart, top.lineEnd], ["Hooks", 1, 11]);
  assert.ok(top.content.startsWith("# Hooks\n"));
});

Deno.test("expandingSearcher() never returns overlapping contexts", async () => {
  const { chunks, source, index } = markdownIndex(
    "docs/hooks.md",
    "# Hooks\n\nIntro.\n\n## Files\n\nPer file.\n\n## Metrics\n\nCounts.\n",
  );
  // Best first: the Files heading, its paragraph, the top heading, the Metrics paragraph.
  const order = ["Hooks > Files", "Per file.", "Hooks", "Counts."];
  const rank = (c: Chunk) =>
    order.findIndex((o) => c.content === o || c.symbol === o && c.type === "heading");
  const ranked = {
    search: (request: { limit: number }) =>
      Promise.resolve({
        matches: chunks.filter((c) => rank(c) >= 0).sort((a, b) => rank(a) - rank(b))
          .slice(0, request.limit).map((c) => ({ chunk: c, score: 1, similarity: 1, scores: {} })),
        notices: [],
        examined: 0,
      }),
  };
  const { matches } = await expandingSearcher(ranked, index, () => source)
    .search({ query: "q", limit: 10 });
  assert.deepEqual(
    matches.map((
      m,
    ) => [m.chunk.content, m.parent ? `${m.parent.lineStart}-${m.parent.lineEnd}` : "-"]),
    [["Files", "5-7"], ["Hooks", "-"], ["Counts.", "9-11"]],
    "the paragraph collapses into its heading's section; the top section would hold it, so the top heading comes alone",
  );
});

Deno.test("parentOf() bounds a Markdown file to its body: no front matter, no footnote definitions", () => {
  const source =
    "---\r\ntitle: Recovery\r\n---\r\n\r\nRequest an email.[^1]\r\n\r\n[^1]: Handbook.\r\n";
  const { chunks, index } = markdownIndex("guide/recovery.md", source);
  const passage = chunks.find((c) => c.type === "paragraph")!;
  const file = parentOf(index, passage, () => source);
  assert.equal(file.reason, "file");
  assert.equal(file.content, "Request an email.[^1]");
  assert.deepEqual([file.lineStart, file.lineEnd], [5, 5]);
  // As a knowledge index holds it: no front matter or footnote chunk at all.
  const bodyOnly = makeIndex([passage], [[1, 0, 0]]);
  assert.equal(parentOf(bodyOnly, passage, () => source).content, "Request an email.[^1]");
  const footnote = chunks.find((c) => c.type === "footnote")!;
  assert.ok(parentOf(index, footnote, () => source).content.includes("[^1]: Handbook."));
});

Deno.test("parentOf() expands a part of a split declaration to all its parts", () => {
  // helper (1), giantRoutine split in three, its second part cut again by the fitter, helper (8).
  const lines = ["helper()", "giant {", "  a", "  b", "  c", "  d", "}", "other()"];
  const source = lines.join("\n") + "\n";
  const at = (line: number) => lines.slice(0, line - 1).join("\n").length + (line > 1 ? 1 : 0);
  const piece = (id: string, first: number, last: number, symbol: string, metadata = {}) => ({
    ...chunk(id, "src/big.ts"),
    lineStart: first,
    lineEnd: last,
    startOffset: at(first),
    endOffset: at(last) + lines[last - 1].length,
    content: source.slice(at(first), at(last) + lines[last - 1].length),
    symbol,
    metadata,
  });
  const chunks = [
    piece("helper", 1, 1, "helper"),
    piece("g1", 2, 3, "giant", { part: 1, parts: 3 }),
    piece("g2a", 4, 4, "giant", { part: 2, parts: 3, fitPart: 1, fitParts: 2 }),
    piece("g2b", 5, 5, "giant", { part: 2, parts: 3, fitPart: 2, fitParts: 2 }),
    piece("g3", 6, 7, "giant", { part: 3, parts: 3 }),
    piece("other", 8, 8, "other"),
  ];
  const index = makeIndex(chunks, chunks.map(() => [1, 0, 0]));
  for (const hit of chunks.slice(1, 5)) {
    const parent = parentOf(index, hit, () => source);
    assert.equal(parent.reason, "enclosing", hit.id);
    assert.equal(parent.symbol, "giant");
    assert.deepEqual([parent.lineStart, parent.lineEnd], [2, 7]);
    assert.equal(parent.content, "giant {\n  a\n  b\n  c\n  d\n}");
  }
  assert.equal(
    parentOf(index, chunks[0], () => source).reason,
    "file",
    "a whole chunk stays alone",
  );
});

/** Top-level statements (one `module` chunk with no symbol), a class and a top-level function. */
const SCHEDULE = [
  'import { readFileSync } from "node:fs";',
  "",
  'const settings = JSON.parse(readFileSync("settings.json", "utf8"));',
  "const defaults = { retries: 3, timeoutSeconds: 30 };",
  "settings.retries ??= defaults.retries;",
  'console.log("loaded settings", settings.retries);',
  "",
  "export class JobQueue {",
  "  private jobs: string[] = [];",
  "  push(job: string): void {",
  "    this.jobs.push(job);",
  "  }",
  "}",
  "",
  '/** Converts a duration such as "1h30m" into seconds. */',
  "export function parseDurationSeconds(text: string): number {",
  "  let total = 0;",
  "  for (const [, amount, unit] of text.matchAll(/(\\d+)([hms])/g)) {",
  '    total += Number(amount) * (unit === "h" ? 3600 : unit === "m" ? 60 : 1);',
  "  }",
  "  return total;",
  "}",
].join("\n") + "\n";

Deno.test("parentOf() gives a top-level function its file, not an unnamed run of statements", async () => {
  const chunks = await cut("src/schedule.ts", SCHEDULE);
  const statements = chunks.find((c) => c.type === "module")!;
  assert.equal(statements.symbol, undefined, "the statements are no declaration with a name");
  const fn = chunks.find((c) => c.symbol === "parseDurationSeconds")!;
  assert.equal(fn.parent, undefined);
  const index = makeIndex(chunks, chunks.map((c) => c === fn ? [1, 0, 0] : [0, 1, 0]));
  const context = parentOf(index, fn, () => SCHEDULE);
  assert.deepEqual([context.reason, context.lineStart, context.lineEnd], ["file", 1, 22]);
  // Expanded and packed, the best hit is in the context: not swapped for the statements above it.
  const { matches } = await expandingSearcher(
    indexSearcher(index, { mode: "dense", embedQuery }),
    index,
    () => SCHEDULE,
  ).search({ query: "q", limit: 1 });
  assert.equal(matches[0].chunk, fn);
  const text = buildContext(matches, { maxChars: 4000, read: () => SCHEDULE });
  assert.ok(text.includes("export function parseDurationSeconds"), text);
});

Deno.test("parentOf() gives every chunk of the samples and the peer corpus a context holding it", async () => {
  const roots = ["../../fixtures/samples/", "../../fixtures/corpus/"]
    .map((dir) => fileURLToPath(new URL(dir, import.meta.url)));
  const files: { path: string; source: string }[] = [{ path: "src/schedule.ts", source: SCHEDULE }];
  for (const root of roots) {
    for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const absolute = join(entry.parentPath, entry.name);
      files.push({ path: relative(root, absolute), source: await readFile(absolute, "utf8") });
    }
  }
  for (const { path, source } of files) {
    const chunks = await cut(path, source);
    const index = makeIndex(chunks, chunks.map(() => [1, 0, 0]));
    for (const chunk of chunks) {
      const context = parentOf(index, chunk, () => source);
      const where =
        `${path}:${chunk.lineStart}-${chunk.lineEnd} in ${context.reason} ${context.lineStart}-${context.lineEnd}`;
      assert.ok(
        context.startOffset <= chunk.startOffset && chunk.endOffset <= context.endOffset,
        where,
      );
      assert.ok(context.content.includes(chunk.content.trim()), where);
      if (context.reason === "declaration" && !/^(python|ruby)$/.test(chunk.language)) {
        const count = (brace: RegExp) => context.content.match(brace)?.length ?? 0;
        assert.equal(count(/\{/g), count(/\}/g), `${where}: braces balance`);
      }
    }
  }
});

/** A class split into members inside a namespace (then a small class, one chunk, in TypeScript). */
const NESTED = {
  "src/billing.ts": [
    "export namespace Billing {",
    "  /** The ledger of one account, with its running balance. */",
    "  export class Ledger {",
    "    private entries: number[] = [];",
    "    /** Records one amount, positive or negative, at the end of the ledger. */",
    "    record(amount: number): void {",
    "      this.entries.push(amount);",
    "    }",
    "    /** The sum of every amount recorded so far, zero for an empty ledger. */",
    "    balance(): number {",
    "      return this.entries.reduce((sum, amount) => sum + amount, 0);",
    "    }",
    "  }",
    "  export class Tag { name = 'x'; }",
    "}",
  ],
  "lib/billing.rb": [
    "module Billing",
    "  # The ledger of one account, with its running balance.",
    "  class Ledger",
    "    # Records one amount, positive or negative, at the end of the ledger.",
    "    def record(amount)",
    "      entries.push(amount)",
    "    end",
    "",
    "    # The sum of every amount recorded so far, zero for an empty ledger.",
    "    def balance",
    "      entries.sum { |amount| amount }",
    "    end",
    "  end",
    "end",
  ],
};

Deno.test("parentOf() ends a container with its own closing token, its first line indented", async () => {
  for (const [path, lines] of Object.entries(NESTED)) {
    const source = lines.join("\n") + "\n";
    const chunks = await cut(path, source);
    const index = makeIndex(chunks, chunks.map(() => [1, 0, 0]));
    const record = chunks.find((c) => c.symbol === "Billing.Ledger.record")!;
    const ledger = parentOf(index, record, () => source);
    const last = 13;
    assert.equal(ledger.symbol, "Billing.Ledger", path);
    assert.equal(ledger.lineEnd, last, path);
    assert.equal(ledger.content.split("\n").at(-1), lines[last - 1], path);
    assert.equal(ledger.content.split("\n")[0], lines[ledger.lineStart - 1], "its indent kept");
    const tag = chunks.find((c) => c.symbol === "Billing.Tag");
    // Already closed: the brace after it is the namespace's.
    if (tag) assert.equal(parentOf(index, tag, () => source).content, lines[13]);
  }
});
