import { BUILD_DEFAULTS } from "../build_defaults.ts";
import type { Chunk, SourceFile } from "../types.ts";
import { WayfinderError } from "../error.ts";
import { countNonWhitespace, makeChunk } from "./make_chunk.ts";

/** How `chunkText` cuts a file. */
export interface TextOptions {
  /** Budget per chunk, in non-whitespace characters. @default 1000 */
  maxChars?: number;
  /** The chunks' `language`. @default "text" */
  language?: string;
}

/** A half-open range of UTF-16 offsets into a text. */
export interface _Span {
  start: number;
  end: number;
}

/** A way to cut a span into smaller units, coarsest first. */
export type _Level = "paragraph" | "sentence" | "line" | "hard";

/** The same four characters `countNonWhitespace` skips, so spans and budgets agree. */
function isWs(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

function trimEnd(text: string, start: number, end: number): number {
  while (end > start && isWs(text.charCodeAt(end - 1))) end--;
  return end;
}

function skipWs(text: string, start: number, end: number): number {
  while (start < end && isWs(text.charCodeAt(start))) start++;
  return start;
}

/** Non-whitespace size of a span. */
export function _size(text: string, span: _Span): number {
  return countNonWhitespace(text.slice(span.start, span.end));
}

/**
 * The non-blank lines of a span, each from its line start (indentation kept)
 * to its last non-whitespace character.
 */
export function _lines(text: string, span: _Span): _Span[] {
  const out: _Span[] = [];
  let s = span.start;
  while (s < span.end) {
    let nl = text.indexOf("\n", s);
    if (nl === -1 || nl >= span.end) nl = span.end;
    const e = trimEnd(text, s, nl);
    if (e > s) out.push({ start: s, end: e });
    s = nl + 1;
  }
  return out;
}

/** Runs of non-blank lines: a blank line between two lines starts a new paragraph. */
export function _paragraphs(text: string, span: _Span): _Span[] {
  const out: _Span[] = [];
  for (const line of _lines(text, span)) {
    const last = out.at(-1);
    const gap = last ? text.slice(last.end, line.start) : "";
    if (last && gap.indexOf("\n") === gap.lastIndexOf("\n")) last.end = line.end;
    else out.push({ ...line });
  }
  return out;
}

// A sentence ends at terminal punctuation, optionally closed by quotes or
// brackets, followed by whitespace.
const SENTENCE_END = /[.!?\u2026\u3002\uff01\uff1f]+["'\u201d\u2019)\]]*(?=\s)/g;
const LOWER = /\p{Ll}/u;

/**
 * Sentences of a span. A sentence never crosses a blank line; an end followed
 * by a lowercase word ("e.g. this") is not treated as one.
 */
export function _sentences(text: string, span: _Span): _Span[] {
  const out: _Span[] = [];
  for (const para of _paragraphs(text, span)) {
    const seg = text.slice(para.start, para.end);
    let s = 0;
    for (const m of seg.matchAll(SENTENCE_END)) {
      const b = m.index + m[0].length;
      const next = skipWs(seg, b, seg.length);
      if (next >= seg.length || LOWER.test(seg[next])) continue;
      if (b > s) out.push({ start: para.start + s, end: para.start + b });
      s = next;
    }
    if (s < seg.length) out.push({ start: para.start + s, end: para.end });
  }
  return out;
}

/**
 * Cuts a span into pieces of at most `budget` non-whitespace characters,
 * preferring the last whitespace of a piece when that keeps it at least
 * half full, and never cutting a surrogate pair.
 */
export function _hardSplit(text: string, span: _Span, budget: number): _Span[] {
  const out: _Span[] = [];
  let s = skipWs(text, span.start, span.end);
  while (s < span.end) {
    let n = 0;
    let i = s;
    let lastWs = -1;
    let nAtWs = 0;
    while (i < span.end && n < budget) {
      if (isWs(text.charCodeAt(i))) {
        lastWs = i;
        nAtWs = n;
      } else n++;
      i++;
    }
    let cut = i;
    if (skipWs(text, i, span.end) < span.end) {
      if (lastWs > s && nAtWs * 2 >= budget) cut = lastWs;
      else if (isHighSurrogate(text.charCodeAt(cut - 1))) cut = cut - 1 > s ? cut - 1 : cut + 1;
    }
    out.push({ start: s, end: trimEnd(text, s, cut) });
    s = skipWs(text, cut, span.end);
  }
  return out;
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

/**
 * Cuts a span into units that fit the budget, trying each level in turn on
 * whatever is still too big. Units that fit are returned whole.
 */
export function _fit(text: string, span: _Span, budget: number, levels: _Level[]): _Span[] {
  if (levels.length === 0 || _size(text, span) <= budget) return [span];
  const [level, ...rest] = levels;
  if (level === "hard") return _hardSplit(text, span, budget);
  const units = level === "paragraph"
    ? _paragraphs(text, span)
    : level === "sentence"
    ? _sentences(text, span)
    : _lines(text, span);
  if (units.length <= 1) return _fit(text, span, budget, rest);
  return units.flatMap((u) => _fit(text, u, budget, rest));
}

/**
 * Greedily joins consecutive units while their combined size fits the budget;
 * each group becomes one span from its first unit's start to its last's end.
 */
export function _pack(text: string, units: _Span[], budget: number): _Span[] {
  const sizes = units.map((u) => _size(text, u));
  const out: _Span[] = [];
  let first = 0;
  while (first < units.length) {
    let last = first;
    let total = sizes[first];
    while (last + 1 < units.length && total + sizes[last + 1] <= budget) total += sizes[++last];
    out.push({ start: units[first].start, end: units[last].end });
    first = last + 1;
  }
  return out;
}

function positiveInt(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new WayfinderError(
      "usage",
      `Cannot chunk: ${name} must be a positive integer, got '${value}'`,
    );
  }
  return value;
}

/** Checks a `maxChars` option; without one, the build default: the budget every chunker cuts to. */
export function chunkBudget(maxChars: number | undefined): number {
  return positiveInt(maxChars ?? BUILD_DEFAULTS.maxChunkChars, "maxChars");
}

/**
 * Splits plain text into `text` chunks: blank-line-separated paragraphs
 * packed up to the budget; a paragraph over it is cut at sentences, then
 * lines, then anywhere but inside a surrogate pair. Chunks start at a line
 * start (or a sentence start when a paragraph had to be cut) and end at
 * their last non-whitespace character.
 *
 * @param file the file to chunk
 * @param options budget and language
 * @returns the chunks in file order; none for a blank file
 * @throws {WayfinderError} `usage` for a bad budget
 */
export function chunkText(file: SourceFile, options: TextOptions = {}): Chunk[] {
  const budget = chunkBudget(options.maxChars);
  const language = options.language ?? "text";
  const text = file.content;
  const units = _paragraphs(text, { start: 0, end: text.length }).flatMap((p) =>
    _fit(text, p, budget, ["sentence", "line", "hard"])
  );
  return _pack(text, units, budget).map((s) =>
    makeChunk(file, { start: s.start, end: s.end, type: "text", language, metadata: {} })
  );
}
