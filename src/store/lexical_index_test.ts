import { deepEqual, equal, ok } from "node:assert/strict";
import { insertMultiple, search } from "@orama/orama";
import type { Chunk } from "../types.ts";
import { _createDb, buildLexical, loadLexical } from "./lexical_index.ts";
import { syntheticGeneration } from "./testdata/synthetic.ts";

function chunk(sourcePath: string, content: string, symbol?: string): Chunk {
  return {
    id: sourcePath,
    sourcePath,
    lineStart: 1,
    lineEnd: 1,
    startOffset: 0,
    endOffset: content.length,
    type: "function",
    language: "typescript",
    content,
    metadata: {},
    ...(symbol === undefined ? {} : { symbol }),
  };
}

const CHUNKS = [
  chunk(
    "src/cache.ts",
    "export function evictCache(key: string) { cache.delete(key); }",
    "evictCache",
  ),
  chunk(
    "docs/auth.md",
    "Tokens expire after an hour. Call the refresh endpoint before then.",
    "Auth > Tokens",
  ),
  chunk(
    "src/auth/session.ts",
    "async function refreshAuthToken(session: Session) { return await client.post('/token'); }",
    "SessionManager.refreshAuthToken",
  ),
  chunk("src/http.ts", "const server = new HTTPServer({ port: 8080 });"),
];

Deno.test("loadLexical() ranks refreshAuthToken first for 'refresh auth token'", () => {
  const search = loadLexical(buildLexical(CHUNKS));
  const hits = search("refresh auth token", 10);
  equal(hits[0]!.index, 2);
  ok(hits[0]!.score > 0);
  // OR semantics: the Markdown passage matching only some tokens is still found.
  ok(hits.some((hit) => hit.index === 1));
  ok(!hits.some((hit) => hit.index === 0));
  for (let i = 1; i < hits.length; i++) ok(hits[i - 1]!.score >= hits[i]!.score);
});

Deno.test("loadLexical() matches identifiers, acronyms and paths", () => {
  const search = loadLexical(buildLexical(CHUNKS));
  equal(search("refreshAuthToken", 1)[0]!.index, 2);
  equal(search("http server", 1)[0]!.index, 3);
  equal(search("evict_cache", 1)[0]!.index, 0);
  const byPath = search("session.ts", 5).map((hit) => hit.index);
  equal(byPath[0], 2);
  ok(!byPath.includes(1)); // not a .ts file
});

Deno.test("loadLexical() returns nothing for empty or symbol-only queries and respects limit", () => {
  const search = loadLexical(buildLexical(CHUNKS));
  deepEqual(search("", 5), []);
  deepEqual(search("+ - ;", 5), []);
  deepEqual(search("nothingmatcheshere", 5), []);
  equal(search("refresh auth token", 1).length, 1);
  deepEqual(search("refresh", 0), []);
});

Deno.test("loadLexical() scores as an Orama index built in memory, despite the slimmed file", () => {
  const { chunks } = syntheticGeneration(300, 4, 3);
  const db = _createDb();
  insertMultiple(
    db,
    chunks.map((c, i) => ({
      id: String(i),
      content: c.content,
      symbol: c.symbol ?? "",
      sourcePath: c.sourcePath,
    })),
  );
  const stored = loadLexical(buildLexical(chunks));
  for (
    const query of [
      "user session",
      "cache token retry",
      "file_12 search",
      "queueSocket",
      "constructor",
    ]
  ) {
    const fresh = search(db, {
      term: query,
      properties: ["content", "symbol", "sourcePath"],
      limit: 20,
      threshold: 1,
    });
    if (fresh instanceof Promise) throw new Error("async search");
    deepEqual(
      stored(query, 20),
      fresh.hits.map((hit) => ({ index: Number(hit.id), score: hit.score })),
      query,
    );
  }
});

Deno.test("loadLexical() counts term frequency: more mentions rank higher at equal length", () => {
  const search = loadLexical(buildLexical([
    chunk("a.ts", "cache alpha beta gamma delta epsilon"),
    chunk("b.ts", "cache cache cache delta epsilon zeta"),
    chunk("c.ts", "alpha beta gamma delta epsilon zeta"),
  ]));
  deepEqual(search("cache", 5).map((hit) => hit.index), [1, 0]);
  // A repeated query word counts once.
  deepEqual(search("cache cache", 5), search("cache", 5));
});

Deno.test("loadLexical() handles tokens named like Object.prototype members", () => {
  const search = loadLexical(buildLexical([
    chunk("a.ts", "constructor() { toString(); }"),
    chunk("b.ts", "constructor(constructor) { toString(); }"),
    chunk("c.ts", "valueOf(hasOwnProperty) { toString(); }"),
  ]));
  deepEqual(search("constructor", 5).map((hit) => hit.index), [1, 0]);
  const hits = search("toString valueOf", 5);
  deepEqual(hits.map((hit) => hit.index).sort(), [0, 1, 2]);
  ok(hits.every((hit) => Number.isFinite(hit.score) && hit.score > 0));
});
