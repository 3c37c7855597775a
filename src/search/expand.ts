import type { Chunk } from "../types.ts";
import type { SearchableIndex, SearchHit } from "./search_index.ts";
import type { Searcher } from "./searcher.ts";
import type { SourceReader } from "./source_text.ts";

/**
 * The context a hit is shown in, by preference: the declaration that holds
 * it (a class, mixin, extension, impl, namespace, …), else the smallest
 * enclosing range (a Markdown section, an outer function), else the file.
 */
export interface ParentContext {
  reason: "declaration" | "enclosing" | "file";
  /** The declaration's or section's symbol, when it has one. */
  symbol?: string;
  /** class, impl, heading, file, … */
  type: string;
  lineStart: number;
  lineEnd: number;
  /** UTF-16 offsets into the file, end exclusive. */
  startOffset: number;
  endOffset: number;
  content: string;
}

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

/** The range covering `parts`, its text from the file when trusted, else the parts joined. */
function spanOf(
  parts: Chunk[],
  base: Omit<ParentContext, "lineStart" | "lineEnd" | "startOffset" | "endOffset" | "content">,
  read: SourceReader,
): ParentContext {
  const startOffset = Math.min(...parts.map((c) => c.startOffset));
  const endOffset = Math.max(...parts.map((c) => c.endOffset));
  const text = parts.every((c) => read(c) !== undefined) ? read(parts[0]) : undefined;
  const content = text?.slice(startOffset, endOffset) ??
    parts.filter((c, i) => !parts.slice(0, i).some((p) => p.endOffset >= c.endOffset))
      .map((c) => c.content).join("\n");
  return {
    ...base,
    lineStart: Math.min(...parts.map((c) => c.lineStart)),
    lineEnd: Math.max(...parts.map((c) => c.lineEnd)),
    startOffset,
    endOffset,
    content,
  };
}

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

/** The whole file, from its text when trusted, else from its chunks. */
function fileOf(chunk: Chunk, file: Chunk[], read: SourceReader): ParentContext {
  const text = read(chunk);
  if (text === undefined) return spanOf(file, { reason: "file", type: "file" }, read);
  const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  return {
    reason: "file",
    type: "file",
    lineStart: 1,
    lineEnd: Math.max(1, lines),
    startOffset: 0,
    endOffset: text.length,
    content: text,
  };
}

/**
 * The context of one chunk: its container declaration (or the chunk itself
 * when it is one, with its members), else the smallest section, chunk or
 * split declaration (all its parts) that encloses it, else its file.
 */
export function parentOf(index: SearchableIndex, chunk: Chunk, read: SourceReader): ParentContext {
  const file = chunksOfFile(index, chunk.sourcePath);
  const owner = CONTAINERS.has(chunk.type) && chunk.symbol
    ? chunk
    : file.find((c) => c.symbol === chunk.parent && CONTAINERS.has(c.type));
  if (owner) {
    const base = { reason: "declaration" as const, symbol: owner.symbol, type: owner.type };
    return spanOf(membersOf(owner, file), base, read);
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
 * `ParentContext`, and later hits in a context already shown collapse into
 * the first (best) one, so three methods of one class read as one match in
 * that class.
 */
export function expandingSearcher(
  inner: Searcher,
  index: SearchableIndex,
  read: SourceReader,
): Searcher {
  return {
    async search(request) {
      // Collapsing drops hits, so fetch more than asked, widening until enough contexts remain.
      for (let fetch = request.limit * 4;; fetch *= 4) {
        const result = await inner.search({ ...request, limit: fetch });
        const matches = collapse(result.matches, index, read, request.limit);
        const exhausted = result.matches.length < fetch || fetch >= index.chunks.length;
        if (matches.length >= request.limit || exhausted) return { ...result, matches };
      }
    },
  };
}

/** Each hit with its context, keeping the first hit of each context, up to `limit`. */
function collapse(
  hits: SearchHit[],
  index: SearchableIndex,
  read: SourceReader,
  limit: number,
): SearchHit[] {
  const seen = new Set<string>();
  const matches: SearchHit[] = [];
  for (const hit of hits) {
    const parent = parentOf(index, hit.chunk, read);
    const key = `${hit.chunk.sourcePath}:${parent.startOffset}-${parent.endOffset}`;
    if (seen.has(key)) continue;
    seen.add(key);
    matches.push({ ...hit, parent });
    if (matches.length === limit) break;
  }
  return matches;
}
