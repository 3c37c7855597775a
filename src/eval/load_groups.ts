import { isRecord, malformed, readJson } from "./read_json.ts";

/** Group name by query id, e.g. `{q1: "dart"}`. */
export type QueryGroups = Record<string, string>;

/** Checks parsed JSON against the groups shape. */
export function parseGroups(data: unknown, path: string): QueryGroups {
  const fail = malformed("query groups", path);
  if (!isRecord(data)) fail("expected an object of {queryId: group}");
  const groups: QueryGroups = {};
  for (const [qid, group] of Object.entries(data as Record<string, unknown>)) {
    if (typeof group !== "string" || group.trim() === "") {
      fail(`group of '${qid}' must be a non-empty string`);
    }
    groups[qid] = (group as string).trim();
  }
  return groups;
}

/**
 * Loads query groups, `{qid: group}`, so metrics are also reported per group.
 *
 * @param path The JSON file to read.
 * @returns Group by query id.
 * @throws {WayfinderError} "io" when unreadable, "input" when malformed.
 *
 * @example Read groups
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadGroups } from "./mod.ts";
 * const path = await Deno.makeTempFile({ suffix: ".json" });
 * await Deno.writeTextFile(path, JSON.stringify({ q1: "dart" }));
 * assert.deepEqual(await loadGroups(path), { q1: "dart" });
 * ```
 */
export async function loadGroups(path: string): Promise<QueryGroups> {
  return parseGroups(await readJson(path, "query groups"), path);
}
