import { escapeLine } from "../escape.ts";
import type { SearchHit } from "./search_types.ts";

/**
 * Whether a hit's context spans more lines than the hit: a container that
 * is itself the hit (a small class chunked whole) is no context to name.
 */
export function parentIsWider(hit: SearchHit): boolean {
  const { chunk, parent } = hit;
  return parent !== undefined &&
    (parent.lineStart < chunk.lineStart || parent.lineEnd > chunk.lineEnd);
}

/**
 * Where an expanded hit is shown, for a line of text: `in class X`, or, when
 * later hits were folded into that context, `matched A, B (31-35) in class
 * X`: the hit, then each folded hit with its lines, so the reader knows they
 * matched too. `in …` only for a context wider than the hit (see
 * {@link parentIsWider}); undefined when there is nothing to say. Symbols
 * are escaped.
 */
export function describeParent(hit: SearchHit): string | undefined {
  const { chunk, parent } = hit;
  if (!parent) return undefined;
  const within = parentIsWider(hit)
    ? `in ${parent.type}${parent.symbol ? ` ${escapeLine(parent.symbol)}` : ""}`
    : undefined;
  if (!parent.matched?.length) return within;
  const folded = parent.matched.map((m) =>
    `${escapeLine(m.symbol ?? m.type)} (${m.lineStart}-${m.lineEnd})`
  );
  const matched = `matched ${[escapeLine(chunk.symbol ?? chunk.type), ...folded].join(", ")}`;
  return within ? `${matched} ${within}` : matched;
}
