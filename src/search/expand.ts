import { markdownBodyStart } from "../chunk/mod.ts";
import type { Chunk } from "../types.ts";
import type { SearchableIndex, SearchHit } from "./search_types.ts";
import type { Searcher } from "./searcher.ts";
import { lineStartBefore, type SourceReader } from "./source_text.ts";

/**
 * The context a hit is shown in, by preference: the declaration that holds
 * it (a class, mixin, extension, impl, namespace, …), else the smallest
 * enclosing range (a Markdown section, an outer function), else the file.
 */
export type ParentContext = NonNullable<SearchHit["parent"]>;

/** A hit folded into the context of a better one: where it is and what it scored. */
export type FoldedHit = NonNullable<ParentContext["matched"]>[number];

/** Declarations whose members are shown with them. */
const CONTAINERS = new Set([
  "class",
  "mixin",
  "extension",
  "impl",
  "namespace",
  "module",
  "trait",
  "interface",
  "struct",
  "enum",
  "object",
]);

/** Chunks of each file in offset order, computed once per index. */
const filesOf = new WeakMap<SearchableIndex, Map<string, Chunk[]>>();

function chunksOfFile(index: SearchableIndex, path: string): Chunk[] {
  let files = filesOf.get(index);
  if (!files) {
    files = new Map();
    for (const chunk of index.chunks) {
      const list = files.get(chunk.sourcePath) ?? [];
      list.push(chunk);
      files.set(chunk.sourcePath, list);
    }
    for (const list of files.values()) list.sort((a, b) => a.startOffset - b.startOffset);
    filesOf.set(index, files);
  }
  return files.get(path) ?? [];
}

/** `owner` and every chunk declared inside it (`Owner.member`, `Title > Section`). */
function membersOf(owner: Chunk, file: Chunk[]): Chunk[] {
  const name = owner.symbol!;
  const inside = (symbol?: string) =>
    symbol !== undefined &&
    (symbol === name || symbol.startsWith(`${name}.`) || symbol.startsWith(`${name} > `));
  return file.filter((c) => c === owner || inside(c.parent) || (c !== owner && inside(c.symbol)));
}

/**
 * The range covering `parts`, its text from the file when trusted, else the
 * parts joined. It starts at the first part's line when only indentation (or
 * a heading's `#` marks) comes before it there, so its first line keeps its
 * indent; a container's range ends with its closing token.
 */
function spanOf(
  parts: Chunk[],
  base: Omit<ParentContext, "lineStart" | "lineEnd" | "startOffset" | "endOffset" | "content">,
  read: SourceReader,
): ParentContext {
  const first = parts.reduce((a, b) => (b.startOffset < a.startOffset ? b : a));
  const last = Math.max(...parts.map((c) => c.endOffset));
  const lineEnd = Math.max(...parts.map((c) => c.lineEnd));
  const text = parts.every((c) => read(c) !== undefined) ? read(parts[0]) : undefined;
  if (text === undefined) {
    const outer = parts.filter((c, i) =>
      !parts.slice(0, i).some((p) => p.endOffset >= c.endOffset)
    );
    const content = outer.map((c) => c.content).join("\n");
    const startOffset = first.startOffset;
    return { ...base, lineStart: first.lineStart, lineEnd, startOffset, endOffset: last, content };
  }
  const startOffset = lineStartBefore(text, first.startOffset, first.type === "heading");
  const endOffset = base.reason === "declaration"
    ? declarationEnd(text, startOffset, last, first.language)
    : last;
  return {
    ...base,
    lineStart: first.lineStart,
    lineEnd: lineEnd + countLineBreaks(text.slice(last, endOffset)),
    startOffset,
    endOffset,
    content: text.slice(startOffset, endOffset),
  };
}

const countLineBreaks = (text: string) => text.split("\n").length - 1;

/**
 * Where a container declaration spanning `start..end` really ends: the
 * chunker leaves a split container's closing token (`}`, Ruby's `end`, and a
 * `;` after it) out of every chunk, so when it follows and the span is still
 * open, it is taken in, and code shown from the span is balanced.
 */
function declarationEnd(text: string, start: number, end: number, language: string): number {
  const closer = /^\s*(\}|end\b)[ \t]*;?/.exec(text.slice(end));
  if (!closer) return end;
  const span = text.slice(start, end);
  const count = (pattern: RegExp) => span.match(pattern)?.length ?? 0;
  const open = closer[1] === "}"
    ? count(/\{/g) > count(/\}/g)
    : language === "ruby" && count(RUBY_OPENERS) > count(RUBY_ENDS);
  return open ? end + closer[0].length : end;
}

/** What Ruby closes with `end`: block keywords that begin a line, and `do` blocks ending one. */
const RUBY_OPENERS =
  /^[ \t]*(?:class|module|def|if|unless|case|while|until|for|begin)\b|\bdo[ \t]*(?:\|[^|\n]*\|)?[ \t]*$/gm;
const RUBY_ENDS = /^[ \t]*end\b/gm;

/** A chunk's place among its declaration's pieces: chunker part, then fitter fragment (1 of 1 if whole). */
function pieceOf(c: Chunk) {
  const n = (value: unknown) => (typeof value === "number" ? value : 1);
  const { part, parts, fitPart, fitParts } = c.metadata;
  return { part: n(part), parts: n(parts), fit: n(fitPart), fits: n(fitParts) };
}

/** Whether `b` is the piece right after `a` of one declaration the chunker or the fitter split. */
function follows(a: Chunk, b: Chunk): boolean {
  if (a.symbol !== b.symbol || a.type !== b.type) return false;
  const [p, q] = [pieceOf(a), pieceOf(b)];
  if (p.parts !== q.parts) return false;
  if (q.part === p.part) return p.fits === q.fits && q.fit === p.fit + 1;
  return q.part === p.part + 1 && p.fit === p.fits && q.fit === 1;
}

/** The consecutive pieces of the declaration `chunk` was split from, itself alone when whole. */
function piecesOf(chunk: Chunk, file: Chunk[]): Chunk[] {
  const at = file.findIndex((c) => c.id === chunk.id);
  if (at < 0) return [chunk];
  let [first, last] = [at, at];
  while (first > 0 && follows(file[first - 1], file[first])) first--;
  while (last < file.length - 1 && follows(file[last], file[last + 1])) last++;
  return file.slice(first, last + 1);
}

/** Chunk types of a Markdown file that are not its body: metadata and footnote definitions. */
const OUTSIDE_BODY = new Set(["front_matter", "footnote"]);

/**
 * The whole file, from its text when trusted, else from its chunks. A
 * Markdown file is bounded to its body: front matter is metadata and
 * footnote definitions at the end are references, neither a passage to read
 * (unless the hit itself lies there).
 */
function fileOf(chunk: Chunk, file: Chunk[], read: SourceReader): ParentContext {
  const base = { reason: "file" as const, type: "file" };
  const markdown = chunk.language === "markdown";
  const body = markdown ? file.filter((c) => c === chunk || !OUTSIDE_BODY.has(c.type)) : file;
  const text = read(chunk);
  if (text === undefined) return spanOf(body, base, read);
  let [startOffset, endOffset] = [0, text.length];
  if (markdown) {
    const bodyStart = markdownBodyStart(text);
    const blankLines = /^(?:[ \t]*\r?\n)*/.exec(text.slice(bodyStart))![0].length;
    startOffset = Math.min(bodyStart + blankLines, chunk.startOffset);
    endOffset = Math.max(...body.map((c) => c.endOffset));
  }
  return {
    ...base,
    lineStart: lineAt(text, startOffset),
    lineEnd: lineAt(text, Math.max(startOffset, endOffset - 1)),
    startOffset,
    endOffset,
    content: text.slice(startOffset, endOffset),
  };
}

/** The 1-based line holding `offset`, lines ending at LF. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/**
 * The named container that declares `chunk`, if any. A top-level chunk has
 * no parent, and must not match a container without a symbol (a run of
 * top-level statements) by their two missing names.
 */
function declarationOf(chunk: Chunk, file: Chunk[]): Chunk | undefined {
  if (chunk.parent === undefined) return undefined;
  return file.find((c) => c.symbol === chunk.parent && CONTAINERS.has(c.type));
}

/**
 * The context of one chunk: its container declaration (or the chunk itself
 * when it is one, with its members), else, for a Markdown heading, the
 * section it opens, else the smallest section, chunk or split declaration
 * (all its parts) that encloses it, else its file.
 */
export function parentOf(index: SearchableIndex, chunk: Chunk, read: SourceReader): ParentContext {
  const file = chunksOfFile(index, chunk.sourcePath);
  const owner = CONTAINERS.has(chunk.type) && chunk.symbol ? chunk : declarationOf(chunk, file);
  if (owner) {
    const base = { reason: "declaration" as const, symbol: owner.symbol, type: owner.type };
    return spanOf(membersOf(owner, file), base, read);
  }
  if (chunk.type === "heading" && chunk.symbol) {
    const base = { reason: "enclosing" as const, symbol: chunk.symbol, type: chunk.type };
    return spanOf(membersOf(chunk, file), base, read);
  }
  const candidates: { size: number; make: () => ParentContext }[] = [];
  const section = chunk.parent ? file.find((c) => c.symbol === chunk.parent && c !== chunk) : null;
  if (section) {
    const parts = membersOf(section, file);
    const base = { reason: "enclosing" as const, symbol: section.symbol, type: section.type };
    const size = Math.max(...parts.map((c) => c.endOffset)) - section.startOffset;
    candidates.push({ size, make: () => spanOf(parts, base, read) });
  }
  // A declaration split into parts encloses each of them: one range from the first to the last.
  const pieces = piecesOf(chunk, file);
  if (pieces.length > 1) {
    const base = { reason: "enclosing" as const, symbol: chunk.symbol, type: chunk.type };
    const size = pieces[pieces.length - 1].endOffset - pieces[0].startOffset;
    candidates.push({ size, make: () => spanOf(pieces, base, read) });
  }
  for (const c of file) {
    const size = c.endOffset - c.startOffset;
    if (c !== chunk && c.startOffset <= chunk.startOffset && c.endOffset >= chunk.endOffset) {
      const base = { reason: "enclosing" as const, symbol: c.symbol, type: c.type };
      candidates.push({ size, make: () => spanOf([c], base, read) });
    }
  }
  candidates.sort((a, b) => a.size - b.size);
  return candidates[0]?.make() ?? fileOf(chunk, file, read);
}

/**
 * Parent/child over any searcher: each hit comes back with its
 * `ParentContext`, and contexts never overlap: a later hit inside a context
 * already shown collapses into the first (best) one, so three methods of one
 * class read as one match in that class, and a later hit whose context would
 * overlap one already shown (a heading above a section shown, imports above
 * a class) comes back on its own lines, without `parent`.
 *
 * Collapsing drops hits, so it widens by searching `inner` again for more:
 * stack it below a reranker, which would otherwise score the same passages
 * once per widening.
 */
export function expandingSearcher(
  inner: Searcher,
  index: SearchableIndex,
  read: SourceReader,
): Searcher {
  return {
    async search(request) {
      for (let fetch = request.limit * 4;; fetch *= 4) {
        const result = await inner.search({ ...request, limit: fetch });
        const matches = collapse(result.matches, index, read, request.limit);
        const exhausted = result.matches.length < fetch || fetch >= index.chunks.length;
        if (matches.length >= request.limit || exhausted) return { ...result, matches };
      }
    },
  };
}

/** A stretch of a file, UTF-16 offsets, end exclusive. */
type Range = { startOffset: number; endOffset: number };

const overlaps = (a: Range, b: Range) => a.startOffset < b.endOffset && b.startOffset < a.endOffset;
const within = (inner: Range, outer: Range) =>
  outer.startOffset <= inner.startOffset && inner.endOffset <= outer.endOffset;

/**
 * Each hit with its context, up to `limit`. A hit inside a context already
 * shown is folded into it (`parent.matched`), and one whose context would
 * overlap another comes on its own lines.
 */
function collapse(
  hits: SearchHit[],
  index: SearchableIndex,
  read: SourceReader,
  limit: number,
): SearchHit[] {
  // What each file shows so far: the contexts returned, or a hit's own lines.
  const shown = new Map<string, { range: Range; parent?: ParentContext }[]>();
  const matches: SearchHit[] = [];
  for (const hit of hits) {
    const path = hit.chunk.sourcePath;
    const ranges = shown.get(path) ?? [];
    const holder = ranges.find(({ range }) => within(hit.chunk, range));
    if (holder) {
      holder.parent?.matched?.push(foldedHit(hit));
      continue;
    }
    const parent = { ...parentOf(index, hit.chunk, read), matched: [] };
    const fits = !ranges.some(({ range }) => overlaps(parent, range));
    shown.set(path, [...ranges, fits ? { range: parent, parent } : { range: hit.chunk }]);
    matches.push(fits ? { ...hit, parent } : hit);
    if (matches.length === limit) break;
  }
  // Only a context that folded something in says so.
  for (const { parent } of matches) if (parent?.matched?.length === 0) delete parent.matched;
  return matches;
}

function foldedHit({ chunk, score }: SearchHit): FoldedHit {
  const { id, symbol, type, lineStart, lineEnd } = chunk;
  return {
    id,
    ...(symbol === undefined ? {} : { symbol }),
    type,
    lineStart,
    lineEnd,
    score,
  };
}
