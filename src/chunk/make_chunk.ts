import { createHash } from "node:crypto";
import type { Chunk, SourceFile } from "../types.ts";
import { upperBound } from "../sorted_search.ts";

/** Fields a chunker decides; the rest is derived from the source text. */
export interface ChunkSpec {
  /** UTF-16 offsets into `file.content`, end exclusive. */
  start: number;
  end: number;
  type: string;
  language: string;
  symbol?: string;
  parent?: string;
  metadata?: Record<string, unknown>;
}

function sha1(text: string): string {
  return createHash("sha1").update(text).digest("hex");
}

/**
 * The stable chunk id: sha1 of `path|lineStart|lineEnd|type|sha1(content)`,
 * the same recipe as the peer project's, so ids survive re-indexing and
 * compare across tools.
 */
export function chunkId(
  path: string,
  lineStart: number,
  lineEnd: number,
  type: string,
  content: string,
): string {
  return sha1(`${path}|${lineStart}|${lineEnd}|${type}|${sha1(content)}`);
}

/** 1-based line number of a UTF-16 offset. */
export function lineAt(text: string, offset: number): number {
  return upperBound(lineStarts(text), offset);
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

// Line starts per file, computed once: chunkers call makeChunk many times per file.
const startsOfFile = new WeakMap<SourceFile, { content: string; starts: number[] }>();

function fileLineStarts(file: SourceFile): number[] {
  const cached = startsOfFile.get(file);
  if (cached && cached.content === file.content) return cached.starts;
  const starts = lineStarts(file.content);
  startsOfFile.set(file, { content: file.content, starts });
  return starts;
}

/**
 * Builds a chunk from a span of a file, so that every chunker derives lines,
 * content and id the same way. Trailing newlines are kept out of the span's
 * last line: a span ending right after "\n" ends on the line before.
 */
export function makeChunk(file: SourceFile, spec: ChunkSpec): Chunk {
  const content = file.content.slice(spec.start, spec.end);
  const starts = fileLineStarts(file);
  const lineStart = upperBound(starts, spec.start);
  const lastChar = spec.end > spec.start ? spec.end - 1 : spec.start;
  const lineEnd = upperBound(starts, lastChar);
  const chunk: Chunk = {
    id: chunkId(file.path, lineStart, lineEnd, spec.type, content),
    sourcePath: file.path,
    lineStart,
    lineEnd,
    startOffset: spec.start,
    endOffset: spec.end,
    type: spec.type,
    language: spec.language,
    content,
    metadata: spec.metadata ?? {},
  };
  if (spec.symbol !== undefined) chunk.symbol = spec.symbol;
  if (spec.parent !== undefined) chunk.parent = spec.parent;
  return chunk;
}

/** Space, tab, line feed and carriage return: what budgets do not count. */
function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** Budgets count non-whitespace characters, so indentation style does not change chunking. */
export function countNonWhitespace(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (!isBlank(text.charCodeAt(i))) n++;
  return n;
}

/**
 * `countNonWhitespace(text.slice(start, end))` for offsets from 0, in
 * constant time after one pass over `text`: the code chunker sizes
 * overlapping spans of a file many times (each merge and split step
 * re-measures a growing span).
 */
export function nonWhitespaceCounter(text: string): (start: number, end: number) => number {
  const before = new Uint32Array(text.length + 1);
  for (let i = 0, n = 0; i < text.length; i++) {
    if (!isBlank(text.charCodeAt(i))) n++;
    before[i + 1] = n;
  }
  const at = (offset: number) => before[Math.min(offset, text.length)]!;
  return (start, end) => Math.max(0, at(end) - at(start));
}
