import { isRecord, malformed, parseJson, readText } from "./read_json.ts";

/** Query texts by query id, in file order. */
export type Queries = Record<string, string>;

/**
 * Parses queries in any of three formats: a JSON map `{qid: text}`, a JSON
 * list of `{id|qid, text|query}` objects, or TSV lines `id<TAB>text` (blank
 * lines and `#` comments skipped).
 */
export function parseQueries(text: string, path: string): Queries {
  const trimmed = text.trimStart();
  const fail = malformed("queries", path);
  const queries: Queries = {};
  const add = (id: unknown, query: unknown, where: string) => {
    if (typeof id !== "string" && typeof id !== "number") fail(`${where} has no id`);
    const key = String(id).trim();
    if (key === "") fail(`${where} has an empty id`);
    if (typeof query !== "string" || query.trim() === "") fail(`query '${key}' has no text`);
    if (Object.hasOwn(queries, key)) fail(`query id '${key}' appears twice`);
    queries[key] = (query as string).trim();
  };
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    const data = parseJson(text, path, "queries");
    if (Array.isArray(data)) {
      data.forEach((item, i) => {
        if (!isRecord(item)) fail(`item ${i + 1} is not an object`);
        const row = item as Record<string, unknown>;
        add(row.id ?? row.qid, row.text ?? row.query, `item ${i + 1}`);
      });
    } else {
      for (const [id, query] of Object.entries(data as Record<string, unknown>)) {
        add(id, query, `query '${id}'`);
      }
    }
  } else {
    text.split(/\r?\n/).forEach((line, i) => {
      if (line.trim() === "" || line.startsWith("#")) return;
      const tab = line.indexOf("\t");
      if (tab === -1) fail(`line ${i + 1} has no tab between id and text`);
      add(line.slice(0, tab), line.slice(tab + 1), `line ${i + 1}`);
    });
  }
  if (Object.keys(queries).length === 0) fail("no queries");
  return queries;
}

/**
 * Loads queries from a JSON map, a JSON list or a TSV file.
 *
 * @param path The file to read.
 * @returns Query text by id.
 * @throws {WayfinderError} "io" when unreadable, "input" when malformed.
 *
 * @example Read a TSV file
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadQueries } from "./mod.ts";
 * const path = await Deno.makeTempFile({ suffix: ".tsv" });
 * await Deno.writeTextFile(path, "q1\tfind user by email\n");
 * assert.deepEqual(await loadQueries(path), { q1: "find user by email" });
 * ```
 */
export async function loadQueries(path: string): Promise<Queries> {
  return parseQueries(await readText(path, "queries"), path);
}
