import { escapeLine } from "../escape.ts";
import type { Chunk } from "../types.ts";
import type { ParentContext } from "./expand.ts";
import type { SearchHit } from "./search_types.ts";
import { shownPassage, type SourceReader } from "./source_text.ts";

/** How much context to build and where to read gaps between passages from. */
export interface ContextOptions {
  /** Budget for the whole text, in UTF-16 code units; never exceeded. */
  maxChars: number;
  /** The files' text, to merge neighbouring passages with what lies between them. */
  read?: SourceReader;
  /**
   * Which hit must be there: packed first (cut when alone it does not fit),
   * yet shown in its place among the others, as a knowledge search's best
   * match after the sources governing it. @default 0
   */
  lead?: number;
  /**
   * What each hit's heading should say besides its place, by hit: a
   * knowledge concept's title and status, why a passage is there. One line.
   */
  notes?: readonly (string | undefined)[];
}

/** A stretch of one file in the context. */
interface Block {
  path: string;
  language: string;
  /** Named only while the block is one passage. */
  label?: string;
  /** The note of the hit it shows first, kept when passages of its file join it. */
  note?: string;
  lineStart: number;
  lineEnd: number;
  startOffset: number;
  endOffset: number;
  text: string;
  /** The file's text, when trusted, for gaps. */
  source?: string;
  /** The best place among the hits of what the block shows: blocks are shown in this order. */
  rank: number;
}

/**
 * The passages that may show `hit`, preferred first: its parent context when
 * it was expanded, then the hit alone (for a budget the parent overflows).
 */
function passagesOf(hit: SearchHit, rank: number, read?: SourceReader, note?: string): Block[] {
  const { chunk, parent } = hit;
  const block = (
    span: Chunk | ParentContext,
    name: string | undefined,
    startOffset: number,
    text: string,
  ) => ({
    rank,
    path: chunk.sourcePath,
    language: chunk.language,
    label: `${name ? `${name} ` : ""}(${span.type})`,
    note,
    lineStart: span.lineStart,
    lineEnd: span.lineEnd,
    startOffset,
    endOffset: span.endOffset,
    text,
    source: read?.(chunk),
  });
  const shown = shownPassage(chunk, read);
  const own = block(chunk, chunk.symbol, shown.startOffset, shown.text);
  // A context that does not hold the hit (built by hand, or for another chunk) would show
  // everything but the match: the hit alone then.
  const holds = parent && parent.startOffset <= chunk.startOffset &&
    chunk.endOffset <= parent.endOffset;
  return holds ? [block(parent, parent.symbol, parent.startOffset, parent.content), own] : [own];
}

/** What lies between two passages of a file, if it may be shown: whitespace only. */
function gapBetween(a: Block, b: Block): string | undefined {
  if (b.startOffset <= a.endOffset) return "";
  const source = a.source ?? b.source;
  if (source !== undefined) {
    const gap = source.slice(a.endOffset, b.startOffset);
    return gap.trim() === "" ? gap : undefined;
  }
  return b.lineStart <= a.lineEnd + 1 ? "\n" : undefined;
}

/** `a` and `b` as one block when they overlap or only whitespace parts them. */
function merged(a: Block, b: Block): Block | undefined {
  if (a.path !== b.path) return undefined;
  const [first, second] = a.startOffset <= b.startOffset ? [a, b] : [b, a];
  const rank = Math.min(a.rank, b.rank);
  if (second.endOffset <= first.endOffset) {
    return first === a ? { ...a, rank } : { ...b, source: a.source, rank };
  }
  const gap = gapBetween(first, second);
  if (gap === undefined) return undefined;
  const tail = second.text.slice(Math.max(0, first.endOffset - second.startOffset));
  return {
    ...first,
    label: undefined,
    lineEnd: Math.max(first.lineEnd, second.lineEnd),
    endOffset: second.endOffset,
    text: first.text + gap + tail,
    source: first.source ?? second.source,
    rank,
  };
}

/**
 * `blocks` with `passage` added: merged into a neighbour, or appended. A
 * merged block may now reach another one (a passage bridging two), so it
 * goes on merging until nothing more joins; it takes the earliest place.
 */
function withPassage(blocks: Block[], passage: Block): Block[] {
  const rest = [...blocks];
  let joined = passage;
  let place = rest.length;
  for (;;) {
    const i = rest.findIndex((block) => merged(block, joined) !== undefined);
    if (i === -1) break;
    joined = merged(rest[i]!, joined)!;
    place = Math.min(place, i);
    rest.splice(i, 1);
  }
  rest.splice(Math.min(place, rest.length), 0, joined);
  return rest;
}

function fenceFor(text: string): string {
  const longest = Math.max(2, ...(text.match(/`{3,}/g) ?? []).map((run) => run.length));
  return "`".repeat(longest + 1);
}

function render(block: Block, text = block.text.replace(/\n+$/, "")): string {
  const fence = fenceFor(text);
  const label = block.label ? ` ${block.label}` : "";
  const note = block.note ? ` — ${escapeLine(block.note)}` : "";
  // A file name must not break the heading into lines of its own.
  return `## ${escapeLine(block.path)}:${block.lineStart}-${block.lineEnd}${label}${note}\n` +
    `${fence}${block.language}\n${text}\n${fence}\n`;
}

function renderAll(blocks: Block[]): string {
  return [...blocks].sort((a, b) => a.rank - b.rank).map((b) => render(b)).join("\n");
}

/**
 * Packs hits into prompt-ready context: the best passages first (a hit's
 * parent context when it was expanded and fits, else the hit alone), copies
 * dropped, overlapping or neighbouring passages of one file merged, each
 * block cited as `path:lineStart-lineEnd`. A passage that would overflow the
 * budget is skipped for smaller ones after it, but the lead hit (the best,
 * unless `lead` names another) is always there: when not even it fits alone, it is cut to its first lines (marked
 * "…", cited by the lines it shows), so there is context whenever there are
 * hits and the budget allows a heading. The result never exceeds `maxChars`.
 *
 * @example Two hits in one budget
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildContext } from "./mod.ts";
 * const chunk = {
 *   id: "a", sourcePath: "src/a.ts", lineStart: 3, lineEnd: 4, startOffset: 0, endOffset: 9,
 *   type: "function", language: "typescript", symbol: "login", content: "login()\n", metadata: {},
 * };
 * const hit = { chunk, score: 0.9, similarity: 0.9, scores: {} };
 * const text = buildContext([hit], { maxChars: 200 });
 * assert.ok(text.startsWith("## src/a.ts:3-4 login (function)\n"));
 * assert.ok(text.length <= 200);
 * ```
 */
export function buildContext(hits: SearchHit[], options: ContextOptions): string {
  const { maxChars } = options;
  let blocks: Block[] = [];
  // Texts already shown: a vendored copy or a repeated licence header adds nothing.
  const shown = new Set<string>();
  if (hits.length === 0) return "";
  const lead = Math.min(options.lead ?? 0, hits.length - 1);
  const order = [lead, ...hits.keys().filter((rank) => rank !== lead)];
  for (const rank of order) {
    const passages = passagesOf(hits[rank]!, rank, options.read, options.notes?.[rank]);
    if (passages.some((passage) => shown.has(passage.text))) continue;
    const fitting = passages.map((passage) => ({ passage, next: withPassage(blocks, passage) }))
      .find(({ next }) => renderAll(next).length <= maxChars);
    if (fitting) {
      blocks = fitting.next;
      shown.add(fitting.passage.text);
    } else if (rank === lead) {
      return cutToFit(passages[passages.length - 1], maxChars);
    }
  }
  return renderAll(blocks);
}

/**
 * `block` cut to its first lines (marked "…") to fit `maxChars` with its
 * heading and fences, or "" when not even those fit. Only whole lines are
 * kept, unless the first alone is too long; the heading cites the lines
 * kept. The fence grows with the backtick runs of the text kept, so the cut
 * shrinks until the text it actually renders fits.
 */
function cutToFit(block: Block, maxChars: number): string {
  let room = maxChars - render(block, "").length - "\n…".length;
  while (room > 0) {
    const head = headOf(block, room);
    const text = render(head, `${head.text}\n…`);
    if (text.length <= maxChars) return text;
    room -= text.length - maxChars;
  }
  return "";
}

/** The first `room` characters of `block`, back to its last whole line when one fits, cited by its lines. */
function headOf(block: Block, room: number): Block {
  let text = block.text.slice(0, room).replace(/[\uD800-\uDBFF]$/, "");
  const lineBreak = text.lastIndexOf("\n");
  if (lineBreak > 0 && block.text[text.length] !== "\n") text = text.slice(0, lineBreak);
  text = text.replace(/\n+$/, "");
  const lines = text.split("\n").length;
  return {
    ...block,
    lineEnd: Math.min(block.lineEnd, block.lineStart + lines - 1),
    endOffset: block.startOffset + text.length,
    text,
  };
}
