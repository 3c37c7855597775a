import type { CorpusSearchResult } from "../corpus/mod.ts";

/** A compact text rendering of a search for the model: one cited line per hit, then context. */
export function renderSearch(result: CorpusSearchResult): string {
  const lines = result.matches.map((hit, i) => {
    const c = hit.chunk;
    const p = hit.parent;
    const within = p
      ? ` in ${p.type}${p.symbol ? ` ${p.symbol}` : ""} (${p.lineStart}-${p.lineEnd})`
      : "";
    return `${i + 1}. ${c.sourcePath}:${c.lineStart}-${c.lineEnd} ${c.symbol ?? c.type}${within} ` +
      `[${hit.similarity.toFixed(3)}]`;
  });
  if (lines.length === 0) lines.push("No matches.");
  for (const notice of result.notices) lines.push(`note: ${notice}`);
  if (result.contextText) lines.push("", result.contextText);
  return lines.join("\n");
}
