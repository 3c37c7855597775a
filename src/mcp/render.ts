import type { SearchHit } from "../mod.ts";
import type { ConfiguredSearchResult } from "../cli/mod.ts";
import {
  describeConcept,
  describeParent,
  escapeLine,
  escapeText,
  parentIsWider,
  plural,
  shownPassage,
  type SourceReader,
} from "../cli/mod.ts";

/** Lines of a passage shown under its citation; the rest is one `get_chunk` away. */
export const SHOWN_LINES = 8;
/** A longer line (minified code, a long table row) is cut here. */
const SHOWN_LINE_CHARS = 200;

/** What the rendering needs besides the result. */
export interface RenderOptions {
  /** The date a knowledge passage's staleness is judged at; default today. */
  asOf?: string;
  /** The root's files, so a passage's first line keeps its indent. */
  read?: SourceReader;
}

/**
 * A compact text rendering of a search for the model, which may see only
 * this text: one cited line per hit (on a knowledge bundle, per context
 * entry with its reason), each followed by the passage's first lines, then
 * notices. With prompt context asked for, the citations, notices, then that
 * context instead. Paths and symbols are escaped, so a file name cannot
 * forge a line of the answer. A knowledge passage names its concept's title
 * and status (stale by `asOf`, default today).
 */
export function renderSearch(result: ConfiguredSearchResult, options: RenderOptions = {}): string {
  const { asOf, read } = options;
  const withPassages = result.contextText === undefined;
  const entries = result.context
    ? result.context.map((entry) => ({
      hit: entry.passage,
      why: `[${entry.reason}${entry.viaPath ? ` for ${escapeLine(entry.viaPath)}` : ""}] `,
    }))
    : result.matches.map((hit) => ({ hit, why: "" }));
  const lines = entries.flatMap(({ hit, why }, i) => [
    `${i + 1}. ${why}${citation(hit, asOf)}`,
    ...(withPassages ? passageLines(hit, read) : []),
  ]);
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
  const context = describeParent(hit);
  const lines = p && parentIsWider(hit) ? ` (${p.lineStart}-${p.lineEnd})` : "";
  const within = context ? ` ${context}${lines}` : "";
  const score = scoreLabel(hit);
  return `${escapeLine(c.sourcePath)}:${c.lineStart}-${c.lineEnd} ${
    escapeLine(c.symbol ?? c.type)
  }${about}${within}${score ? ` [${score}]` : ""}`;
}

/**
 * The score a hit was ranked by, named by its kind, since the kinds differ
 * in scale: `cos 0.693`, `bm25 8.27`, `rrf 0.0325`, `rerank 4.120`, `ranked 1.350`. Empty
 * for a passage no ranking scored (a knowledge bundle's governing source
 * that the query does not match).
 */
export function scoreLabel(hit: Pick<SearchHit, "score" | "scores">): string {
  const { score, scores } = hit;
  if (scores.rerank === score) return `rerank ${score.toFixed(3)}`;
  if (scores.ranked === score) return `ranked ${score.toFixed(3)}`;
  if (scores.fused === score) return `rrf ${score.toFixed(4)}`;
  if (scores.lexical === score) return `bm25 ${score.toFixed(2)}`;
  if (scores.dense === score) return `cos ${score.toFixed(3)}`;
  return "";
}

/** The first lines of a hit's passage, indented under its citation, and how many more there are. */
function passageLines(hit: SearchHit, read?: SourceReader): string[] {
  const text = shownPassage(hit.chunk, read).text.replace(/^(?:[ \t]*\r?\n)+/, "").trimEnd();
  if (text === "") return [];
  const lines = escapeText(text).split("\n");
  const shown = lines.slice(0, SHOWN_LINES).map((line) =>
    `    ${line.length > SHOWN_LINE_CHARS ? `${line.slice(0, SHOWN_LINE_CHARS)}…` : line}`.trimEnd()
  );
  const more = lines.length - SHOWN_LINES;
  if (more > 0) {
    shown.push(
      `    … ${plural(more, "more line", "more lines")} (get_chunk id=${escapeLine(hit.chunk.id)})`,
    );
  }
  return shown;
}
