import type { Hit } from "../types.ts";

/** How much context to build. */
export interface ContextOptions {
  /** Budget for the whole text, in UTF-16 characters. @default 8000 */
  maxChars?: number;
}

function fenceFor(content: string): string {
  const longest = Math.max(2, ...(content.match(/`{3,}/g) ?? []).map((run) => run.length));
  return "`".repeat(longest + 1);
}

function header(hit: Hit): string {
  const { chunk } = hit;
  const name = chunk.symbol ? ` ${chunk.symbol}` : "";
  return `## ${chunk.sourcePath}:${chunk.lineStart}-${chunk.lineEnd}${name} (${chunk.type})`;
}

function block(hit: Hit, content: string): string {
  const fence = fenceFor(content);
  return `${header(hit)}\n${fence}${hit.chunk.language}\n${content}\n${fence}\n`;
}

/**
 * Lays hits out as prompt context for a language model: one fenced block per
 * hit under a `path:lines symbol (type)` heading, best hit first, stopping
 * before the budget is exceeded. A first hit too long for the budget is cut
 * (marked "…") so the context is never empty while there are hits.
 *
 * @param hits Search hits, best first.
 * @param options The character budget.
 * @returns Markdown text; empty when there are no hits.
 *
 * @example One hit under its heading
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildContext } from "./mod.ts";
 * const chunk = {
 *   id: "a", sourcePath: "src/a.ts", lineStart: 3, lineEnd: 4, startOffset: 0, endOffset: 9,
 *   type: "function", language: "typescript", symbol: "login", content: "login()\n", metadata: {},
 * };
 * const text = buildContext([{ chunk, similarity: 0.9 }]);
 * assert.ok(text.startsWith("## src/a.ts:3-4 login (function)\n"));
 * assert.ok(text.includes("typescript\nlogin()\n"));
 * ```
 */
export function buildContext(hits: Hit[], options: ContextOptions = {}): string {
  const maxChars = options.maxChars ?? 8000;
  const parts: string[] = [];
  let used = 0;
  for (const hit of hits) {
    const content = hit.chunk.content.replace(/\n+$/, "");
    let text = block(hit, content);
    const separator = parts.length ? 1 : 0;
    if (used + separator + text.length > maxChars) {
      if (parts.length) break;
      const room = maxChars - block(hit, "").length - "\n…".length;
      if (room <= 0) break;
      text = block(hit, `${content.slice(0, room)}\n…`);
    }
    parts.push(text);
    used += separator + text.length;
  }
  return parts.join("\n");
}
