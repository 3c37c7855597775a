import { WayfinderError } from "../error.ts";
import { checkQualifiers, type KnowledgePolicy } from "../okf/mod.ts";
import type { SearchMode } from "../search/mod.ts";

/** The numbers and words a library caller may pass, checked as the CLI's flags are. */
interface AskedOptions {
  mode?: SearchMode | "bm25";
  rerank?: boolean | number;
  contextChars?: number;
  policy?: KnowledgePolicy;
}

/**
 * Rejects option values no search can honour, with the one-line reason the
 * CLI gives for the same flag, and reads the `bm25` alias as `lexical`. A
 * policy's qualifiers are checked here for every caller (CLI, MCP, library).
 * Limit, lambda and fetchK are checked by the searchers that use them.
 */
export function checkSearchOptions<T extends AskedOptions>(
  options: T,
): T & { mode?: SearchMode } {
  for (
    const [name, value] of [["rerank", options.rerank], ["contextChars", options.contextChars]]
  ) {
    if (typeof value === "number" && !(Number.isInteger(value) && value >= 1)) {
      throw new WayfinderError(
        "usage",
        `Cannot search: ${name} must be a positive integer, got ${value}`,
      );
    }
  }
  checkQualifiers(options.policy ?? {});
  return { ...options, mode: options.mode === "bm25" ? "lexical" : options.mode };
}
