import type { SearchHit } from "../src/mod.ts";
import {
  describeConcept,
  describeParent,
  escapeLine,
  escapeText,
  parentIsWider,
  resultJson,
  shownPassage,
  type SourceReader,
  sourceReader,
} from "../src/cli/mod.ts";
import { type Command, printJson, printJsonLine } from "./_command.ts";
import {
  EMBEDDER_SETTINGS,
  INDEX_SETTINGS,
  SEARCH_SETTINGS,
  searchOptions,
  withCorpus,
} from "./_wiring.ts";

/** `wayfinder search <root> <query>`: rank the indexed passages against a question. */
export const searchCommand: Command = {
  spec: {
    name: "search",
    summary: "Search an indexed source tree in plain language",
    positionals: ["root", "query"],
    settings: [...INDEX_SETTINGS, ...EMBEDDER_SETTINGS, ...SEARCH_SETTINGS],
  },
  targetPositional: 0,
  async run(config, context) {
    const query = config.positionals.slice(1).join(" ");
    const options = searchOptions(config);
    const { result, read } = await withCorpus(config, context, async (corpus) => ({
      result: await corpus.search(query, options),
      read: sourceReader(corpus.root),
    }));
    const show = (hit: SearchHit) => formatHit(hit, read, options.policy?.asOf);
    for (const notice of result.notices) context.stderr(`note: ${escapeLine(notice)}\n`);
    const output = config.settings.output;
    if (output !== "json" && result.matches.length === 0) context.stderr("No matches.\n");
    if (output === "json") {
      printJson(context, resultJson(result));
    } else if (output === "jsonl") {
      // A knowledge search's lines are its context entries, in reading order, as in JSON.
      const json = resultJson(result);
      for (const line of json.context ?? json.matches) printJsonLine(context, line);
      if (result.contextText !== undefined) {
        printJsonLine(context, { contextText: result.contextText });
      }
    } else if (result.contextText !== undefined) {
      context.stdout(escapeText(result.contextText));
    } else if (result.context) {
      for (const entry of result.context) {
        const via = entry.viaPath ? ` (for ${entry.viaPath})` : "";
        context.stdout(`[${entry.reason}${via}] ${show(entry.passage)}`);
      }
    } else {
      for (const hit of result.matches) context.stdout(show(hit));
    }
    return 0;
  },
};

/**
 * One hit as text: its place and score, its concept (title, status) on a
 * knowledge bundle, its context with `--expand`, then the passage, its first
 * line indented as in the file.
 */
function formatHit(hit: SearchHit, read: SourceReader, asOf?: string): string {
  const c = hit.chunk;
  const path = escapeLine(c.sourcePath);
  const head = `${path}:${c.lineStart}-${c.lineEnd}  ${hit.score.toFixed(3)}  ${
    escapeLine(c.symbol ?? c.type)
  }`;
  const concept = describeConcept(c, asOf);
  const p = hit.parent;
  const context = describeParent(hit);
  const lines = p && parentIsWider(hit) ? ` (${path}:${p.lineStart}-${p.lineEnd})` : "";
  const notes = [
    concept === undefined ? "" : `\n  ${escapeLine(concept)}`,
    context ? `\n  ${context}${lines}` : "",
  ].join("");
  const body = escapeText(shownPassage(c, read).text.replace(/\s+$/, "")).split("\n")
    .map((line) => `    ${line}`).join("\n");
  return `${head}${notes}\n${body}\n\n`;
}
