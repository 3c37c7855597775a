import type { Node } from "web-tree-sitter";

/** A half-open range of UTF-16 offsets. */
export type Span = [start: number, end: number];

/** What splitting needs to know about the grammar. */
export interface SplitContext {
  text: string;
  /** Statement-list node types; cuts go between their children. */
  blocks: readonly string[];
  /** Comment node types: a cut never separates a comment from what follows it. */
  comments: readonly string[];
  /** Non-whitespace budget per part. */
  maxChars: number;
  /** Non-whitespace characters of a span of `text` (see `nonWhitespaceCounter`). */
  count: (start: number, end: number) => number;
}

/** How deep under the split nodes a statement list may sit (`const f = () => { … }` is three levels). */
const BLOCK_DEPTH = 4;

function size(ctx: SplitContext, start: number, end: number): number {
  return ctx.count(start, end);
}

/** The first statement list (breadth first) with at least two statements. */
function findBlock(nodes: readonly Node[], blocks: readonly string[]): Node | undefined {
  let level: Node[] = [...nodes];
  for (let depth = 0; depth <= BLOCK_DEPTH && level.length > 0; depth++) {
    const next: Node[] = [];
    for (const node of level) {
      if (blocks.includes(node.type) && node.namedChildCount >= 2) return node;
      for (const child of node.namedChildren) if (child) next.push(child);
    }
    level = next;
  }
  return undefined;
}

/** The start of `offset`'s line when only indentation precedes it there, so parts keep whole lines. */
function lineCut(text: string, offset: number): number | undefined {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*$/.test(text.slice(lineStart, offset)) ? lineStart : undefined;
}

/**
 * Packs consecutive atoms into parts within budget; an atom over budget
 * alone is handed to `oversized`.
 */
function pack(
  ctx: SplitContext,
  atoms: readonly Span[],
  oversized: (atom: Span, index: number) => Span[],
): Span[] {
  const parts: Span[] = [];
  let open: Span | undefined;
  atoms.forEach((atom, index) => {
    if (open && size(ctx, open[0], atom[1]) <= ctx.maxChars) {
      open = [open[0], atom[1]];
      return;
    }
    if (open) parts.push(open);
    open = undefined;
    if (size(ctx, atom[0], atom[1]) <= ctx.maxChars) open = atom;
    else parts.push(...oversized(atom, index));
  });
  if (open) parts.push(open);
  return parts;
}

function atomsBetween(start: number, end: number, cuts: readonly number[]): Span[] {
  const bounds = [start, ...cuts.filter((c) => c > start && c < end), end];
  const atoms: Span[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    if (bounds[i + 1] > bounds[i]) atoms.push([bounds[i], bounds[i + 1]]);
  }
  return atoms;
}

/** Cuts a single line that alone exceeds the budget where its non-whitespace count reaches it. */
function hardSplit(ctx: SplitContext, start: number, end: number): Span[] {
  const parts: Span[] = [];
  let from = start;
  let count = 0;
  for (let i = start; i < end; i++) {
    const c = ctx.text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) continue;
    if (count === ctx.maxChars) {
      // Keep surrogate pairs whole so every part is valid text.
      const cut = c >= 0xdc00 && c <= 0xdfff ? i - 1 : i;
      parts.push([from, cut]);
      from = cut;
      count = 0;
    }
    count++;
  }
  parts.push([from, end]);
  return parts;
}

function splitLines(ctx: SplitContext, start: number, end: number): Span[] {
  const cuts: number[] = [];
  for (
    let i = ctx.text.indexOf("\n", start);
    i !== -1 && i < end;
    i = ctx.text.indexOf("\n", i + 1)
  ) {
    cuts.push(i + 1);
  }
  return pack(ctx, atomsBetween(start, end, cuts), (atom) => hardSplit(ctx, atom[0], atom[1]));
}

/**
 * Splits a span over the non-whitespace budget into consecutive parts that
 * together cover it exactly: between the statements of the span's body when
 * there is one, else between lines, else (one huge line) mid-line.
 *
 * @param nodes The syntax nodes the span covers, searched for a statement list.
 */
export function splitSpan(
  ctx: SplitContext,
  start: number,
  end: number,
  nodes: readonly Node[],
): Span[] {
  if (size(ctx, start, end) <= ctx.maxChars) return [[start, end]];
  const block = findBlock(nodes, ctx.blocks);
  if (!block) return splitLines(ctx, start, end);
  const statements = block.namedChildren.filter((c): c is Node => c !== null);
  const cuts: number[] = [];
  const starters: Node[] = [statements[0]];
  for (let i = 1; i < statements.length; i++) {
    // Never between a comment and its statement, nor mid-line (a trailing comment).
    const cut = lineCut(ctx.text, statements[i].startIndex);
    if (cut === undefined || ctx.comments.includes(statements[i - 1].type)) continue;
    cuts.push(cut);
    starters.push(statements[i]);
  }
  const atoms = atomsBetween(start, end, cuts);
  // Atoms and starters line up unless a cut fell outside the span; then fall back to lines.
  if (atoms.length !== starters.length) return splitLines(ctx, start, end);
  return pack(ctx, atoms, (atom, i) => splitSpan(ctx, atom[0], atom[1], [starters[i]]));
}
