import { marked, type Token, type Tokens } from "marked";
import { isMap, parseDocument } from "yaml";
import type { Chunk, SourceFile } from "../types.ts";
import { makeChunk } from "./make_chunk.ts";
import { _lines, type _Span, chunkBudget } from "./chunk_text.ts";
import { type Block, splitBlock, tableHeaderSpan } from "./split_markdown_block.ts";

/** How `chunkMarkdown` cuts a file. */
export interface MarkdownOptions {
  /**
   * Budget per chunk, in non-whitespace characters. Bigger blocks are split
   * at line boundaries (lists at item boundaries, tables at row boundaries).
   * @default 1000
   */
  maxChars?: number;
}

interface Section {
  level: number;
  text: string;
  id: string;
}

// Footnote definitions ("[^x]: …") are not part of marked's grammar, so
// runs of them are found by hand.
const FOOTNOTE_START = /^ {0,3}\[\^[^\]\s]+\]:/;
const INDENTED = /^( {4}|\t)/;
// A line that would start another block ends a footnote's lazy continuation.
const BLOCK_START =
  /^ {0,3}(#{1,6}(\s|$)|```|~~~|>|[-*+](\s|$)|\d{1,9}[.)](\s|$)|\||<|([-*_=])(\s*\3){2,}\s*$)/;
const ATX_OPEN = /^ {0,3}#{1,6}(?:[ \t]+|$)/;
const ATX_CLOSE = /(?:^|[ \t]+)#+[ \t]*$/;
const FRONT_MATTER = /^(\uFEFF)?---[ \t]*\n(?:[\s\S]*?\n)?(?:---|\.\.\.)[ \t]*(?:\n|$)/;

/**
 * Splits Markdown into retrievable blocks: `front_matter`, `heading`,
 * `paragraph`, `list`, `blockquote`, `code`, `table`, `footnote` and `html`.
 *
 * Every chunk carries `metadata.headingPath` (the enclosing headings; a
 * heading's own path ends with itself). Under a heading, `symbol` is that
 * path joined with " > ", `parent` the enclosing section's symbol, and
 * `metadata.parentHeadingId` the id of the nearest heading chunk; chunks
 * before the first heading have neither symbol nor parent. Headings stay
 * their own chunks, holding the heading text without its `#` marks, so
 * spans and ids match the peer project's (and its judged spans).
 * Fenced code keeps `metadata.codeLanguage`. Horizontal rules are dropped.
 *
 * Blocks over the budget are split, each fragment numbered by
 * `metadata.part`/`parts`. A table splits by rows; because a chunk's content
 * is a contiguous slice, only the first fragment contains the header, so
 * every table chunk carries `metadata.tableHeader` and later fragments also
 * `metadata.embeddingText` = header + "\n" + rows: embed `embeddingText ?? content`.
 *
 * @param file the file to chunk
 * @param options the budget
 * @returns the chunks in file order
 * @throws {WayfinderError} `usage` for a bad budget
 */
// Over 60 lines: one pass over the blocks with the section stack it maintains.
export function chunkMarkdown(file: SourceFile, options: MarkdownOptions = {}): Chunk[] {
  const budget = chunkBudget(options.maxChars);
  // marked turns CRLF and CR into LF; work on that text and map back.
  const norm = file.content.replace(/\r\n?/g, "\n");
  const toOriginal = offsetMap(file.content, norm);
  const chunks: Chunk[] = [];
  const sections: Section[] = [];

  for (const block of blocksOf(norm)) {
    const span = block.type === "heading" ? headingSpan(norm, block) : trimBlock(norm, block);
    if (span.end <= span.start) continue;
    const heading = block.type === "heading" ? block.token as Tokens.Heading : undefined;
    if (heading) {
      while (sections.length > 0 && sections[sections.length - 1].level >= heading.depth) {
        sections.pop();
      }
    }
    const enclosing = sections.map((s) => s.text);
    const title = heading ? plainText(heading) : "";
    // An empty heading ("#") closes sections but names nothing.
    if (heading && title === "") continue;
    const path = heading ? [...enclosing, title] : enclosing;
    const base: Record<string, unknown> = { headingPath: path };
    if (heading) base.headingLevel = heading.depth;
    else if (sections.length > 0) base.parentHeadingId = sections[sections.length - 1].id;
    if (block.type === "code") {
      const code = block.token as Tokens.Code;
      const lang = code.codeBlockStyle === "indented"
        ? ""
        : (code.lang ?? "").trim().split(/\s+/)[0];
      if (lang) base.codeLanguage = lang;
    }

    const pieces = splitBlock(norm, block, span, budget);
    const tableHeader = block.type === "table" ? tableHeaderSpan(norm, span) : undefined;
    pieces.forEach((piece, i) => {
      const metadata = { ...base };
      if (pieces.length > 1) {
        metadata.part = i + 1;
        metadata.parts = pieces.length;
      }
      if (tableHeader) {
        const header = file.content.slice(
          toOriginal[tableHeader.start],
          toOriginal[tableHeader.end],
        );
        metadata.tableHeader = header;
        if (piece.start > tableHeader.start) {
          const rows = file.content.slice(toOriginal[piece.start], toOriginal[piece.end]);
          metadata.embeddingText = `${header}\n${rows}`;
        }
      }
      const chunk = makeChunk(file, {
        start: toOriginal[piece.start],
        end: toOriginal[piece.end],
        type: block.type,
        language: "markdown",
        symbol: path.length > 0 ? path.join(" > ") : undefined,
        // The enclosing section: a heading's parent section, a block's own.
        parent: enclosing.length > 0 ? enclosing.join(" > ") : undefined,
        metadata,
      });
      chunks.push(chunk);
      if (heading && i === 0) {
        sections.push({ level: heading.depth, text: path.at(-1)!, id: chunk.id });
      }
    });
  }
  return chunks;
}

/** Maps each offset of the normalised text (and its end) to the original text. */
function offsetMap(original: string, norm: string): Int32Array {
  const map = new Int32Array(norm.length + 1);
  let o = 0;
  for (let n = 0; n < norm.length; n++) {
    map[n] = o;
    o += original.charCodeAt(o) === 13 && original.charCodeAt(o + 1) === 10 ? 2 : 1;
  }
  map[norm.length] = original.length;
  return map;
}

/**
 * Top-level blocks with offsets found by summing each token's `raw`. After a
 * footnote run the rest is lexed afresh, since marked reads footnotes as
 * paragraphs, link definitions or indented code.
 */
function blocksOf(norm: string): Block[] {
  const blocks: Block[] = [];
  let pos = 0;
  const fm = frontMatterOf(norm);
  if (fm) {
    // Empty front matter is consumed but says nothing worth a chunk.
    if (fm.yaml.trim() !== "") blocks.push({ type: "front_matter", start: fm.start, end: fm.end });
    pos = fm.end;
  }
  while (pos < norm.length) {
    let off = pos;
    // Tokens that end inside a footnote run are skipped; one that runs past
    // its end was read with the footnote's lines, so lexing restarts there.
    let runEnd = -1;
    let restart = -1;
    for (const token of marked.lexer(norm.slice(pos))) {
      if (!norm.startsWith(token.raw, off)) {
        // Should not happen; keep the text rather than lose it.
        blocks.push({ type: "paragraph", start: off, end: norm.length });
        break;
      }
      const start = off;
      const end = off + token.raw.length;
      off = end;
      const lastChar = start + token.raw.trimEnd().length;
      if (start < runEnd) {
        if (lastChar <= runEnd) continue;
        restart = runEnd;
        break;
      }
      if (FOOTNOTE_START.test(token.raw) && isProse(token)) {
        runEnd = footnoteRunEnd(norm, start);
        blocks.push({ type: "footnote", start, end: runEnd });
        if (lastChar > runEnd) {
          restart = runEnd;
          break;
        }
        continue;
      }
      const type = blockType(token);
      const last = blocks.at(-1);
      if (type === "definitions" && last?.type === "definitions") last.end = end;
      else if (type) blocks.push({ type, start, end, token });
    }
    if (restart < 0) break;
    pos = restart;
  }
  for (const b of blocks) if (b.type === "definitions") b.type = "paragraph";
  return blocks;
}

/**
 * Whether fenced text at the top is YAML front matter rather than a rule
 * followed by a setext heading: it must be empty or a YAML mapping.
 */
/** The front matter opening normalised Markdown, when its YAML is a mapping (a BOM stays outside). */
function frontMatterOf(norm: string): { start: number; end: number; yaml: string } | undefined {
  const fm = FRONT_MATTER.exec(norm);
  if (!fm) return undefined;
  const yaml = fm[0].replace(/^\uFEFF?---[^\n]*\n/, "").replace(/[^\n]*\n?$/, "");
  return isYamlMapping(yaml) ? { start: fm[1] ? 1 : 0, end: fm[0].length, yaml } : undefined;
}

/**
 * Where the body of Markdown `text` starts: just after its front matter, as
 * {@linkcode chunkMarkdown} reads it, else 0. An offset into `text` itself,
 * whatever its line endings.
 */
export function markdownBodyStart(text: string): number {
  const norm = text.replace(/\r\n?/g, "\n");
  const end = frontMatterOf(norm)?.end;
  return end === undefined ? 0 : offsetMap(text, norm)[end];
}

function isYamlMapping(text: string): boolean {
  if (text.trim() === "") return true;
  try {
    // The syntax tree only: aliases are never expanded, so an alias bomb costs its own size.
    const doc = parseDocument(text);
    return doc.errors.length === 0 && isMap(doc.contents);
  } catch {
    return false;
  }
}

function isProse(token: Token): boolean {
  return token.type === "paragraph" || token.type === "def" || token.type === "text";
}

/** The chunk type of a top-level token, or undefined for ones to drop. */
function blockType(token: Token): string | undefined {
  switch (token.type) {
    case "space":
    case "hr":
      return undefined;
    case "heading":
    case "code":
    case "table":
    case "list":
    case "blockquote":
    case "html":
    case "paragraph":
      return token.type;
    case "def":
      // Link reference definitions: consecutive ones become one paragraph.
      return "definitions";
    default:
      return "paragraph";
  }
}

/** Where a run of footnote definitions starting at `start` ends (last non-blank line). */
function footnoteRunEnd(norm: string, start: number): number {
  let end = start;
  let prevNonBlank = false;
  let s = start;
  while (s < norm.length) {
    let nl = norm.indexOf("\n", s);
    if (nl === -1) nl = norm.length;
    const line = norm.slice(s, nl);
    if (line.trim() === "") prevNonBlank = false;
    else if (
      FOOTNOTE_START.test(line) || INDENTED.test(line) ||
      (prevNonBlank && !BLOCK_START.test(line))
    ) {
      end = s + line.trimEnd().length;
      prevNonBlank = true;
    } else break;
    s = nl + 1;
  }
  return end;
}

/** A block's span from its first non-blank line to its last non-whitespace character. */
function trimBlock(norm: string, block: Block): _Span {
  const lines = _lines(norm, block);
  if (lines.length === 0) return { start: block.start, end: block.start };
  return { start: lines[0].start, end: lines[lines.length - 1].end };
}

/**
 * A heading's text without its markers: `## Install ##` gives "Install", a
 * setext heading its text lines without the underline. This matches the
 * peer project's heading chunks, so their ids agree.
 */
function headingSpan(norm: string, block: Block): _Span {
  const lines = _lines(norm, block);
  if (lines.length === 0) return { start: block.start, end: block.start };
  const first = lines[0];
  const atx = ATX_OPEN.exec(norm.slice(first.start, first.end));
  if (!atx) {
    const text = lines.length > 1 ? lines.slice(0, -1) : lines;
    return trimStart(norm, { start: text[0].start, end: text[text.length - 1].end });
  }
  const line = norm.slice(first.start, first.end);
  const close = ATX_CLOSE.exec(line.slice(atx[0].length));
  const end = first.end - (close ? close[0].length : 0);
  const start = first.start + atx[0].length;
  return end > start ? { start, end } : first;
}

function trimStart(norm: string, span: _Span): _Span {
  let start = span.start;
  while (start < span.end && (norm[start] === " " || norm[start] === "\t")) start++;
  return { start, end: span.end };
}

/** A heading's text without inline Markdown (`**x**`, links, code spans). */
function plainText(heading: Tokens.Heading): string {
  const walk = (tokens: Token[] | undefined): string =>
    (tokens ?? []).map((t) =>
      "tokens" in t && Array.isArray(t.tokens)
        ? walk(t.tokens as Token[])
        : "text" in t && typeof t.text === "string"
        ? t.text
        : ""
    ).join("");
  return walk(heading.tokens).replace(/\s+/g, " ").trim();
}
