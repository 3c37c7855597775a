/**
 * Cuts a Markdown block over the chunk budget at the boundaries its type
 * allows: a table by rows (the header rows first), code by lines with its
 * fences kept, a list by items, anything else by lines, then sentences.
 */
import type { Token, Tokens } from "marked";
import { _fit, _lines, _pack, _size, type _Span } from "./chunk_text.ts";

/** A top-level block, in offsets of the newline-normalised text. */
export interface Block {
  type: string;
  start: number;
  end: number;
  token?: Token;
}

const OPENING_FENCE = /^ {0,3}(`{3,}|~{3,})/;
const CLOSING_FENCE = /^ {0,3}(`{3,}|~{3,})\s*$/;

/** The header and delimiter rows of a table span. */
export function tableHeaderSpan(norm: string, span: _Span): _Span | undefined {
  const lines = _lines(norm, span);
  return lines.length >= 2 ? { start: lines[0].start, end: lines[1].end } : undefined;
}

/** Cuts an oversized block at the boundaries its type allows. */
export function splitBlock(norm: string, block: Block, span: _Span, budget: number): _Span[] {
  if (_size(norm, span) <= budget) return [span];
  switch (block.type) {
    case "table":
      return splitTable(norm, span, budget);
    case "code":
      return splitCode(norm, span, budget);
    case "list": {
      const items = listItems(norm, block, span);
      const units = items.flatMap((it) => _fit(norm, it, budget, ["line", "sentence", "hard"]));
      return _pack(norm, units, budget);
    }
    default: {
      const units = _lines(norm, span).flatMap((l) => _fit(norm, l, budget, ["sentence", "hard"]));
      return _pack(norm, units, budget);
    }
  }
}

/**
 * Splits code at line boundaries. Fence lines stay with the code next to
 * them rather than becoming fragments of their own; the budget reserves
 * room for them.
 */
function splitCode(norm: string, span: _Span, budget: number): _Span[] {
  const lines = _lines(norm, span);
  const fenced = lines.length > 2 && OPENING_FENCE.test(norm.slice(span.start, lines[0].end)) &&
    CLOSING_FENCE.test(norm.slice(lines[lines.length - 1].start, span.end));
  const body = fenced ? lines.slice(1, -1) : lines;
  const fences = fenced ? _size(norm, lines[0]) + _size(norm, lines[lines.length - 1]) : 0;
  const bodyBudget = Math.max(1, budget - fences);
  const groups = _pack(norm, body.flatMap((l) => _fit(norm, l, bodyBudget, ["hard"])), bodyBudget);
  if (fenced) {
    groups[0].start = span.start;
    groups[groups.length - 1].end = span.end;
  }
  return groups;
}

/** Spans of a list's top-level items, or its lines if the items' raw text does not line up. */
function listItems(norm: string, block: Block, span: _Span): _Span[] {
  const list = block.token as Tokens.List;
  const items: _Span[] = [];
  let off = block.start;
  for (const item of list.items) {
    if (!norm.startsWith(item.raw, off)) return _lines(norm, span);
    const lines = _lines(norm, { start: off, end: off + item.raw.length });
    if (lines.length > 0) items.push({ start: lines[0].start, end: lines[lines.length - 1].end });
    off += item.raw.length;
  }
  return items;
}

/**
 * Splits a table by rows. The first fragment holds the header and delimiter
 * rows; rows are packed so that header + rows fits the budget, which keeps
 * every fragment's `embeddingText` within it unless a single row is too
 * long for that. Rows stay whole unless one alone passes the budget.
 */
function splitTable(norm: string, span: _Span, budget: number): _Span[] {
  const lines = _lines(norm, span);
  if (lines.length <= 2) return [span];
  const header = { start: lines[0].start, end: lines[1].end };
  const rowBudget = Math.max(1, budget - _size(norm, header));
  const rows = lines.slice(2).flatMap((r) => _fit(norm, r, budget, ["hard"]));
  const groups = _pack(norm, rows, rowBudget);
  // A header that cannot take even the first rows along stands alone.
  if (_size(norm, header) + _size(norm, groups[0]) > budget) return [header, ...groups];
  groups[0] = { start: header.start, end: groups[0].end };
  return groups;
}
