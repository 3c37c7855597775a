import type { CorpusSearchResult } from "../corpus/mod.ts";
import { escapeLine, escapeText } from "../escape.ts";
import type { SearchHit } from "../search/mod.ts";

/**
 * A compact text rendering of a search for the model: one cited line per
 * hit (on a knowledge bundle, per context entry with its reason), notices,
 * then the prompt context. Paths and symbols are escaped, so a file name
 * cannot forge a line of the answer.
 */
export function renderSearch(result: CorpusSearchResult): string {
  const cited = result.context
    ? result.context.map((entry) =>
      `[${entry.reason}${entry.viaPath ? ` for ${escapeLine(entry.viaPath)}` : ""}] ` +
      citation(entry.passage)
    )
    : result.matches.map(citation);
  const lines = cited.map((line, i) => `${i + 1}. ${line}`);
  if (lines.length === 0) lines.push("No matches.");
  for (const notice of result.notices) lines.push(`note: ${escapeLine(notice)}`);
  if (result.contextText) lines.push("", escapeText(result.contextText));
  return lines.join("\n");
}

function citation(hit: SearchHit): string {
  const c = hit.chunk;
  const p = hit.parent;
  const within = p
    ? ` in ${p.type}${p.symbol ? ` ${escapeLine(p.symbol)}` : ""} (${p.lineStart}-${p.lineEnd})`
    : "";
  return `${escapeLine(c.sourcePath)}:${c.lineStart}-${c.lineEnd} ${
    escapeLine(c.symbol ?? c.type)
  }${within} [${hit.similarity.toFixed(3)}]`;
}
