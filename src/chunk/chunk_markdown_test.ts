import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { Chunk, SourceFile } from "../types.ts";
import { WayfinderError } from "../error.ts";
import { chunkMarkdown } from "./chunk_markdown.ts";
import { countNonWhitespace } from "./make_chunk.ts";
import { assertGolden } from "../testdata/golden.ts";
import { FIXTURES, fromFile, fromText, REPO } from "../testdata/source_files.ts";

const GOLDENS = new URL("chunk/markdown/goldens/", FIXTURES);

/** Every invariant a chunk list must keep, whatever the input. */
function assertWellFormed(file: SourceFile, chunks: Chunk[]): void {
  let previousEnd = 0;
  for (const c of chunks) {
    const where = `${file.path}:${c.lineStart} (${c.type})`;
    assert.equal(file.content.slice(c.startOffset, c.endOffset), c.content, where);
    assert.ok(c.startOffset >= previousEnd, `${where} overlaps the previous chunk`);
    assert.ok(countNonWhitespace(c.content) > 0, `${where} is blank`);
    assert.equal(c.content, c.content.trimEnd(), `${where} ends in whitespace`);
    assert.equal(c.language, "markdown");
    assert.ok(Array.isArray(c.metadata.headingPath), `${where} has no headingPath`);
    const path = c.metadata.headingPath as string[];
    assert.equal(c.symbol, path.length > 0 ? path.join(" > ") : undefined, where);
    assert.equal(
      c.lineStart,
      file.content.slice(0, c.startOffset).split("\n").length,
      `${where} lineStart`,
    );
    assert.equal(
      c.lineEnd - c.lineStart,
      c.content.split("\n").length - 1,
      `${where} lineEnd`,
    );
    previousEnd = c.endOffset;
  }
}

async function markdownFilesUnder(dir: URL): Promise<URL[]> {
  const out: URL[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
    if (entry.isDirectory) out.push(...await markdownFilesUnder(url));
    else if (entry.name.endsWith(".md")) out.push(url);
  }
  return out.sort((a, b) => a.href.localeCompare(b.href));
}

const guideUrl = new URL("chunk/markdown/guide.md", FIXTURES);

Deno.test("chunkMarkdown() matches its goldens", async () => {
  const guide = await fromFile(guideUrl, "chunk/markdown/guide.md");
  await assertGolden(new URL("guide.json", GOLDENS), chunkMarkdown(guide));
  await assertGolden(new URL("guide_max80.json", GOLDENS), chunkMarkdown(guide, { maxChars: 80 }));
  const tables = await fromFile(new URL("samples/tables.md", FIXTURES), "samples/tables.md");
  await assertGolden(new URL("tables.json", GOLDENS), chunkMarkdown(tables));
});

Deno.test("chunkMarkdown() gives each block its type", async () => {
  const chunks = chunkMarkdown(await fromFile(guideUrl, "guide.md"));
  assert.deepEqual(chunks.map((c) => `${c.lineStart}-${c.lineEnd} ${c.type}`), [
    "1-4 front_matter",
    "6-6 heading",
    "8-9 paragraph",
    "11-11 heading",
    "13-13 heading",
    "15-15 paragraph",
    "17-21 code",
    "23-23 heading",
    "25-30 list",
    "32-32 heading",
    "34-35 blockquote",
    "37-45 table",
    "47-50 html",
    "52-52 heading",
    "54-55 paragraph",
    "57-61 footnote",
    "63-63 heading",
    "66-66 paragraph",
    "68-68 code",
    "72-72 paragraph",
  ]);
});

Deno.test("chunkMarkdown() keeps the fence language on code", async () => {
  const guide = chunkMarkdown(await fromFile(guideUrl, "guide.md"), { maxChars: 40 });
  const fenced = guide.filter((c) => c.type === "code" && c.lineStart >= 17 && c.lineEnd <= 21);
  assert.ok(fenced.length > 1, "the fenced block should split at 40 characters");
  for (const c of fenced) assert.equal(c.metadata.codeLanguage, "bash");
  assert.ok(fenced[0].content.startsWith("```bash"), "opening fence stays with code");
  assert.ok(fenced.at(-1)!.content.endsWith("\n```"), "closing fence stays with code");
  const indented = guide.find((c) => c.type === "code" && c.lineStart === 68)!;
  assert.equal(indented.metadata.codeLanguage, undefined);
  const tables = chunkMarkdown(fromText("t.md", "~~~ts {linenos}\nlet a = 1;\n~~~\n"));
  assert.equal(tables[0].metadata.codeLanguage, "ts");
});

Deno.test("chunkMarkdown() gives every table fragment the header and delimiter", async () => {
  const file = await fromFile(guideUrl, "guide.md");
  const header = "| Setting | Default | Meaning |\n| ------- | ------- | ------- |";
  for (const maxChars of [80, 120, 200]) {
    const tables = chunkMarkdown(file, { maxChars }).filter((c) => c.type === "table");
    assert.ok(tables.length > 1, `table should split at ${maxChars}`);
    // At 80 the header cannot take a row along and stands alone.
    assert.equal(tables[0].content === header, maxChars === 80);
    assert.ok(tables[0].content.startsWith(header));
    assert.equal(tables[0].metadata.embeddingText, undefined);
    for (const t of tables.slice(1)) {
      assert.ok(!t.content.startsWith("| Setting"), "later fragments hold rows only");
      assert.equal(t.metadata.embeddingText, `${header}\n${t.content}`);
    }
    for (const t of tables) {
      assert.equal(t.metadata.tableHeader, header);
      const embedded = (t.metadata.embeddingText as string | undefined) ?? t.content;
      assert.ok(embedded.startsWith(header));
      // Rows stay whole, so header + row may pass a budget smaller than both.
      if (maxChars >= 120) assert.ok(countNonWhitespace(embedded) <= maxChars);
    }
    // The fragments together hold every row once, whole and in order.
    const rows = tables.map((t) => t.content).join("\n");
    assert.equal(rows, file.content.slice(tables[0].startOffset, tables.at(-1)!.endOffset));
  }
});

Deno.test("chunkMarkdown() keeps a footnote run with its continuations in one chunk", async () => {
  const file = await fromFile(guideUrl, "guide.md");
  const notes = chunkMarkdown(file).filter((c) => c.type === "footnote");
  assert.equal(notes.length, 1);
  assert.equal(
    notes[0].content,
    "[^interval]: The interval is measured from the end of the previous run,\n" +
      "    not its start, so long runs never overlap.\n" +
      "[^backoff]: Backoff doubles from 5 seconds up to 5 minutes.\n\n" +
      "    After ten failures the mirror is paused until the next restart.",
  );
  // What follows the run is lexed normally again.
  const after = chunkMarkdown(fromText("f.md", "[^a]: note\n  lazy\n# Next\n\nText.\n"));
  assert.deepEqual(after.map((c) => [c.type, c.content]), [
    ["footnote", "[^a]: note\n  lazy"],
    ["heading", "Next"],
    ["paragraph", "Text."],
  ]);
});

Deno.test("chunkMarkdown() records heading paths", async () => {
  const chunks = chunkMarkdown(await fromFile(guideUrl, "guide.md"));
  const at = (line: number) => chunks.find((c) => c.lineStart === line)!;
  assert.equal(at(1).symbol, undefined);
  assert.deepEqual(at(1).metadata.headingPath, []);
  assert.equal(at(13).content, "Linux");
  assert.equal(at(13).symbol, "Harbor Guide > Install > Linux");
  assert.equal(at(13).parent, "Harbor Guide > Install");
  assert.equal(at(13).metadata.headingLevel, 3);
  assert.equal(at(17).symbol, "Harbor Guide > Install > Linux");
  assert.equal(at(17).metadata.parentHeadingId, at(13).id);
  assert.equal(at(17).parent, "Harbor Guide > Install > Linux");
  assert.equal(at(6).parent, undefined);
  assert.equal(at(25).symbol, "Harbor Guide > Install > macOS");
  // A level-2 heading closes the level-3 section before it.
  assert.deepEqual(at(34).metadata.headingPath, ["Harbor Guide", "Configuration"]);
  // Setext headings count, and their path uses the text without the underline.
  assert.equal(at(63).content, "Setup Notes");
  assert.equal(at(68).symbol, "Harbor Guide > Setup Notes");
  const inline = chunkMarkdown(fromText("i.md", "# The `wf` **CLI** ##\n\ntext\n"));
  assert.equal(inline[1].symbol, "The wf CLI");
});

Deno.test("chunkMarkdown() splits oversized blocks within the budget", async () => {
  const file = await fromFile(guideUrl, "guide.md");
  for (const maxChars of [80, 120, 300, 1500]) {
    const chunks = chunkMarkdown(file, { maxChars });
    assertWellFormed(file, chunks);
    for (const c of chunks) {
      assert.ok(countNonWhitespace(c.content) <= maxChars, `${c.lineStart} over ${maxChars}`);
    }
    // Nothing is lost but heading marks, setext underlines and the rule.
    const ends = [0, ...chunks.map((c) => c.endOffset)];
    const gaps = [...chunks.map((c, i) => [ends[i], c.startOffset]), [ends.at(-1)!, Infinity]];
    for (const [from, to] of gaps) assert.match(file.content.slice(from, to), /^[\s#*=-]*$/);
  }
  const lists = chunkMarkdown(file, { maxChars: 80 }).filter((c) => c.type === "list");
  assert.deepEqual(lists.map((c) => c.content.split("\n")[0]), [
    "- Homebrew users:",
    "- Everyone else:",
  ]);
  assert.deepEqual(lists.map((c) => [c.metadata.part, c.metadata.parts]), [[1, 2], [2, 2]]);
});

Deno.test("chunkMarkdown() keeps offsets exact in CRLF files", async () => {
  const lf = await fromFile(guideUrl, "guide.md");
  const crlf = fromText("guide.md", lf.content.replaceAll("\n", "\r\n"));
  for (const maxChars of [80, 1500]) {
    const a = chunkMarkdown(lf, { maxChars });
    const b = chunkMarkdown(crlf, { maxChars });
    assertWellFormed(crlf, b);
    assert.deepEqual(
      b.map((c) => [c.type, c.lineStart, c.lineEnd, c.content.replaceAll("\r\n", "\n")]),
      a.map((c) => [c.type, c.lineStart, c.lineEnd, c.content]),
    );
    const table = b.find((c) => c.metadata.embeddingText !== undefined);
    if (table) assert.ok((table.metadata.tableHeader as string).includes("\r\n"));
  }
});

Deno.test("chunkMarkdown() keeps offsets exact on real documents", async () => {
  const urls = [
    new URL("corpus/docs/observability.md", FIXTURES),
    new URL("README.md", REPO),
    new URL("docs/cli.md", REPO),
    ...await markdownFilesUnder(new URL("chunk/markdown/examples/", FIXTURES)),
  ];
  assert.ok(urls.length >= 10, `found only ${urls.length} documents`);
  let total = 0;
  for (const url of urls) {
    const file = await fromFile(url, fileURLToPath(url));
    for (const maxChars of [200, 1500]) {
      const chunks = chunkMarkdown(file, { maxChars });
      assertWellFormed(file, chunks);
      total += chunks.length;
    }
  }
  assert.ok(total > urls.length * 4);
});

Deno.test("chunkMarkdown() agrees with the peer's spans and ids", async () => {
  // The peer's chunk goldens, vendored (baseline_chunks.json keeps only this document's entry).
  const cases = [
    ["samples/tables.md", "tables.md", "sample_chunks.json"],
    ["corpus/docs/observability.md", "docs/observability.md", "baseline_chunks.json"],
  ];
  for (const [source, path, golden] of cases) {
    const url = new URL(source, FIXTURES);
    const goldenUrl = new URL(`chunk/markdown/peer_goldens/${golden}`, FIXTURES);
    const theirs = JSON.parse(await Deno.readTextFile(goldenUrl))[path].chunks as {
      id: string;
      lineStart: number;
      lineEnd: number;
      type: string;
    }[];
    const ours = chunkMarkdown(await fromFile(url, path));
    assert.deepEqual(
      ours.map((c) => [c.lineStart, c.lineEnd]),
      theirs.map((c) => [c.lineStart, c.lineEnd]),
    );
    ours.forEach((c, i) => {
      // The peer calls a list a paragraph; everything else matches exactly.
      if (c.type === "list") assert.equal(theirs[i].type, "paragraph");
      else assert.deepEqual([c.type, c.id], [theirs[i].type, theirs[i].id]);
    });
  }
});

Deno.test("chunkMarkdown() takes front matter only when it is YAML", () => {
  const types = (text: string) => chunkMarkdown(fromText("f.md", text)).map((c) => c.type);
  assert.deepEqual(types("---\ntitle: T\n---\n# H\n"), ["front_matter", "heading"]);
  assert.deepEqual(types("\uFEFF---\na: 1\n...\ntext\n"), ["front_matter", "paragraph"]);
  // A rule above a setext heading is not front matter.
  assert.deepEqual(types("---\nJust words\n---\n"), ["heading"]);
  // Empty front matter is skipped.
  assert.deepEqual(types("---\n---\nbody\n"), ["paragraph"]);
});

Deno.test("chunkMarkdown() returns nothing for blank input", () => {
  assert.deepEqual(chunkMarkdown(fromText("e.md", "")), []);
  assert.deepEqual(chunkMarkdown(fromText("b.md", "\n  \n\t\n")), []);
  assert.deepEqual(chunkMarkdown(fromText("r.md", "***\n\n---\n")), []);
});

Deno.test("chunkMarkdown() rejects a bad budget", () => {
  assert.throws(
    () => chunkMarkdown(fromText("a.md", "# A\n"), { maxChars: 0 }),
    (e: unknown) => e instanceof WayfinderError && e.code === "usage",
  );
});
