import { parseQrels, type Qrels } from "./load_qrels.ts";
import { parseSpanQrels, type SpanQrels } from "./load_span_qrels.ts";
import { readJson } from "./read_json.ts";

/** Judgments as read from a file, with the matching their shape calls for. */
export type Judgments =
  | { match: "stable-id"; judgments: Qrels }
  | { match: "span-overlap"; judgments: SpanQrels };

/**
 * Reads a judgments file once and tells its shape: span qrels
 * (`{qid: [{path, …}]}`, matched by span overlap) or chunk-id qrels
 * (`{qid: {chunkId: grade}}`, matched by stable id).
 *
 * @throws {WayfinderError} "io" when unreadable, "input" when malformed.
 *
 * @example Tell span qrels from chunk-id qrels
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadJudgments } from "./mod.ts";
 * const path = await Deno.makeTempFile({ suffix: ".json" });
 * await Deno.writeTextFile(path, JSON.stringify({ q1: [{ path: "a.ts", grade: 2 }] }));
 * assert.equal((await loadJudgments(path)).match, "span-overlap");
 * ```
 */
export async function loadJudgments(path: string): Promise<Judgments> {
  const data = await readJson(path, "qrels");
  const first = typeof data === "object" && data !== null ? Object.values(data)[0] : undefined;
  return Array.isArray(first)
    ? { match: "span-overlap", judgments: parseSpanQrels(data, path) }
    : { match: "stable-id", judgments: parseQrels(data, path) };
}
