import { resultJson } from "../src/corpus/mod.ts";
import type { SearchHit } from "../src/search/mod.ts";
import { type Command, printJson, printJsonLine } from "./_command.ts";
import { escapeLine, escapeText } from "../src/escape.ts";
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
    const result = await withCorpus(
      config,
      context,
      (corpus) => corpus.search(query, searchOptions(config)),
    );
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
        context.stdout(`[${entry.reason}${via}] ${formatHit(entry.passage)}`);
      }
    } else {
      for (const hit of result.matches) context.stdout(formatHit(hit));
    }
    return 0;
  },
};

function formatHit(hit: SearchHit): string {
  const c = hit.chunk;
  const path = escapeLine(c.sourcePath);
  const head = `${path}:${c.lineStart}-${c.lineEnd}  ${hit.similarity.toFixed(3)}  ${
    escapeLine(c.symbol ?? c.type)
  }`;
  const p = hit.parent;
  const within = p
    ? `\n  in ${p.type}${
      p.symbol ? ` ${escapeLine(p.symbol)}` : ""
    } (${path}:${p.lineStart}-${p.lineEnd})`
    : "";
  const body = escapeText(c.content.replace(/\s+$/, "")).split("\n").map((line) => `    ${line}`)
    .join("\n");
  return `${head}${within}\n${body}\n\n`;
}
