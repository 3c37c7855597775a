import { escapeLine } from "../escape.ts";
import type { SearchHit } from "./search_index.ts";

/**
 * Where an expanded hit is shown, for a line of text: `in class X`, or, when
 * later hits were folded into that context, `matched A, B (31-35) in class
 * X`: the hit, then each folded hit with its lines, so the reader knows they
 * matched too. Undefined for a hit without a context. Symbols are escaped.
 */
export function describeParent(hit: SearchHit): string | undefined {
  const { chunk, parent } = hit;
  if (!parent) return undefined;
  const within = `in ${parent.type}${parent.symbol ? ` ${escapeLine(parent.symbol)}` : ""}`;
  if (!parent.matched?.length) return within;
  const folded = parent.matched.map((m) =>
    `${escapeLine(m.symbol ?? m.type)} (${m.lineStart}-${m.lineEnd})`
  );
  return `matched ${[escapeLine(chunk.symbol ?? chunk.type), ...folded].join(", ")} ${within}`;
}
