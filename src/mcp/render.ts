import type { CorpusSearchResult } from "../corpus/mod.ts";
import { escapeLine, escapeText } from "../escape.ts";
import { describeConcept } from "../okf/mod.ts";
import { describeParent, type SearchHit } from "../search/mod.ts";

/**
 * A compact text rendering of a search for the model: one cited line per
 * hit (on a knowledge bundle, per context entry with its reason), notices,
 * then the prompt context. Paths and symbols are escaped, so a file name
 * cannot forge a line of the answer. A knowledge passage names its concept's
 * title and status (stale by `asOf`, default today).
 */
export function renderSearch(result: CorpusSearchResult, asOf?: string): string {
  const cited = result.context
    ? result.context.map((entry) =>
      `[${entry.reason}${entry.viaPath ? ` for ${escapeLine(entry.viaPath)}` : ""}] ` +
      citation(entry.passage, asOf)
    )
    : result.matches.map((hit) => citation(hit, asOf));
  const lines = cited.map((line, i) => `${i + 1}. ${line}`);
  if (lines.length === 0) lines.push("No matches.");
  for (const notice of result.notices) lines.push(`note: ${escapeLine(notice)}`);
  if (result.contextText) lines.push("", escapeText(result.contextText));
  return lines.join("\n");
}

/** A hit's citation: place, symbol, its concept on a knowledge bundle, its context, score. */
function citation(hit: SearchHit, asOf?: string): string {
  const c = hit.chunk;
  const p = hit.parent;
  const concept = describeConcept(c, asOf);
  const about = concept === undefined ? "" : ` — ${escapeLine(concept)}`;
  const within = p ? ` ${describeParent(hit)} (${p.lineStart}-${p.lineEnd})` : "";
  return `${escapeLine(c.sourcePath)}:${c.lineStart}-${c.lineEnd} ${
    escapeLine(c.symbol ?? c.type)
  }${about}${within} [${hit.similarity.toFixed(3)}]`;
}
