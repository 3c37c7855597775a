import { deepEqual, equal, ok } from "node:assert/strict";
import { throws } from "node:assert/strict";
import type { Chunk } from "../types.ts";
import type { LexicalFilter } from "./lexical_filter.ts";
import { decodeLexical, readPostings } from "./lexical_format.ts";
import { buildLexical, loadLexical } from "./lexical_index.ts";
import { syntheticGeneration } from "./testdata/synthetic.ts";

function chunk(
  sourcePath: string,
  content: string,
  symbol?: string,
  type = "function",
  language = "typescript",
): Chunk {
  return {
    id: sourcePath,
    sourcePath,
    lineStart: 1,
    lineEnd: 1,
    startOffset: 0,
    endOffset: content.length,
    type,
    language,
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

Deno.test("loadLexical() scores BM25F: fields weighted and length-normalised before saturation", () => {
  const chunks = [
    chunk("a.ts", "cache cache miss", "warm"),
    chunk("b.ts", "miss hit", "cache"),
    chunk("c.ts", "alpha beta gamma delta"),
  ];
  const k1 = 1.2;
  const b = { content: 0.75, symbol: 0.5, sourcePath: 0.5 };
  const w = { content: 1, symbol: 3, sourcePath: 1 };
  // Token counts: content 3, 2, 4 (avg 3); symbol 1, 1, 0 (avg 2/3); path 1 each ("ts").
  const norm = (field: keyof typeof b, len: number, avg: number) =>
    w[field] / (1 - b[field] + b[field] * len / avg);
  const tfA = 2 * norm("content", 3, 3);
  const tfB = 1 * norm("symbol", 1, 2 / 3);
  const idf = Math.log(1 + (3 - 2 + 0.5) / (2 + 0.5));
  const hits = loadLexical(buildLexical(chunks))("cache", 5);
  deepEqual(hits.map((h) => h.index), [1, 0]);
  ok(Math.abs(hits[0]!.score - idf * tfB / (k1 + tfB)) < 1e-12);
  ok(Math.abs(hits[1]!.score - idf * tfA / (k1 + tfA)) < 1e-12);
});

Deno.test("loadLexical() ranks a symbol match above a passage that only mentions the word", () => {
  const search = loadLexical(buildLexical([
    chunk("src/a.ts", "function handle(order) { return audit.log(order, invoice); }", "handle"),
    chunk("src/b.ts", "function invoice(order) { return total(order); }", "invoice"),
    chunk("src/c.ts", "function ship(order) { return send(order); }", "ship"),
  ]));
  deepEqual(search("invoice", 5).map((h) => h.index), [1, 0]);
});

Deno.test("loadLexical() does not let a short passage win on length alone", () => {
  // Both hold `user` once; the long one also holds the query's rarer `email`.
  const search = loadLexical(buildLexical([
    chunk("a.ts", "enum UserRole { admin }"),
    chunk("b.ts", "find the user whose email matches, then load the profile and settings"),
    chunk("c.ts", "user"),
    chunk("d.ts", "user admin"),
  ]));
  equal(search("find user by email", 5)[0]!.index, 1);
});

Deno.test("loadLexical() matches whole tokens, not every word a token begins", () => {
  const search = loadLexical(buildLexical([
    chunk("a.ts", "const tokenizer = makeTokenizer();"),
    chunk("b.ts", "const token = refresh();"),
  ]));
  deepEqual(search("token", 5).map((h) => h.index), [1]);
  deepEqual(search("tokenizer", 5).map((h) => h.index), [0]);
});

Deno.test("loadLexical() folds plurals and meets identifiers typed as separate words", () => {
  const search = loadLexical(buildLexical([
    chunk("models/order.ts", "toJson() { return { id: this.id }; }", "Order.toJson"),
    chunk("models/order.ts", "fromJson(json) { return new Order(json.id); }", "Order.fromJson"),
    chunk("services/orders.ts", "listOrders() { return db.orders.all(); }", "listOrders"),
  ]));
  equal(search("order to json", 1)[0]!.index, 0);
  equal(search("list order", 1)[0]!.index, 2);
});

Deno.test("loadLexical() rejects files of other formats, naming the format", () => {
  const bytes = buildLexical(CHUNKS);
  new DataView(bytes.buffer).setUint32(4, 2, true);
  throws(() => loadLexical(bytes), /^Error: written in lexical format 2, this wayfinder reads 3$/);
  const saved = new TextEncoder().encode(JSON.stringify({ wayfinderLexical: 2, index: {} }));
  throws(() => loadLexical(saved), /not a wayfinder lexical file/);
});

Deno.test("loadLexical() refuses a truncated file and a posting past the last row", () => {
  const bytes = buildLexical(CHUNKS);
  throws(() => loadLexical(bytes.subarray(0, bytes.length - 1)), /damaged|truncated/);
  // One chunk whose only content token is at row 0; point it at row 5 of 1.
  const one = buildLexical([chunk("", "zebra")]);
  const last = one.length - 1; // the file ends with its only posting: gap 0, count 1
  equal(one[last], 0);
  one[last] = 5 * 2;
  throws(() => loadLexical(one)("zebra", 5), /a posting names row 5 of 1/);
});

Deno.test("buildLexical() is compact: well under the chunks' own JSON", () => {
  const { chunks } = syntheticGeneration(300, 4, 3);
  const bytes = buildLexical(chunks);
  ok(bytes.length < JSON.stringify(chunks).length / 3, `${bytes.length} bytes`);
  const search = loadLexical(bytes);
  equal(search(chunks[7]!.symbol!, 1)[0]!.index, 7);
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

const MIXED = [
  chunk(
    "src/auth/token.ts",
    "function refreshToken() {}",
    "refreshToken",
    "function",
    "typescript",
  ),
  chunk("src/authz.ts", "class TokenPolicy { token() {} }", "TokenPolicy", "class", "typescript"),
  chunk("lib/token.dart", "String token() => refresh();", "token", "method", "dart"),
  chunk("docs/auth.md", "Refresh the token hourly.", "Auth > Tokens", "heading", "markdown"),
];

Deno.test("lexical filters keep types, languages and directories, AND'd across, OR'd within", () => {
  const search = loadLexical(buildLexical(MIXED));
  const rows = (filter: LexicalFilter) => search("token", 10, filter).map((h) => h.index).sort();
  deepEqual(rows({}), [0, 1, 2, 3]);
  deepEqual(rows({ types: ["method", "heading"] }), [2, 3]);
  deepEqual(rows({ languages: ["dart"] }), [2]);
  deepEqual(rows({ languages: ["typescript"], types: ["class", "method"] }), [1]);
  // A prefix is a path or a directory, not the start of a name: src/auth keeps not src/authz.ts.
  deepEqual(rows({ pathPrefixes: ["src/auth"] }), [0]);
  deepEqual(rows({ pathPrefixes: ["./src/auth/", "docs"] }), [0, 3]);
  deepEqual(rows({ pathPrefixes: ["lib/token.dart"] }), [2]);
  deepEqual(rows({ pathPrefixes: ["."] }), [0, 1, 2, 3]);
  deepEqual(rows({ languages: ["rust"] }), []);
  deepEqual(rows({ types: [], languages: [], pathPrefixes: [] }), [0, 1, 2, 3]);
  deepEqual(rows({ rows: (row) => row % 2 === 1 }), [1, 3]);
  deepEqual(rows({ languages: ["typescript"], rows: (row) => row !== 0 }), [1]);
});

Deno.test("lexical filters restrict hits, not statistics, and fill the limit from kept rows", () => {
  const search = loadLexical(buildLexical(MIXED));
  const all = new Map(search("refresh token", 10).map((h) => [h.index, h.score]));
  equal(search("refresh token", 1)[0]!.index, 0); // so the limit must apply after the filter
  const dart = search("refresh token", 1, { languages: ["dart", "markdown"] });
  equal(dart.length, 1);
  ok([2, 3].includes(dart[0]!.index));
  equal(dart[0]!.score, all.get(dart[0]!.index));
  // The search after a filtered one is unaffected by it.
  deepEqual(new Map(search("refresh token", 10).map((h) => [h.index, h.score])), all);
});

Deno.test("field boosts: a word counts thrice in the symbol, once in the path or the body", () => {
  // Same word, same field lengths (1 token each), in one field per chunk.
  const search = loadLexical(buildLexical([
    chunk("xx/aa", "ledger", "bb"),
    chunk("xx/ledger", "cc", "dd"),
    chunk("xx/ee", "ff", "ledger"),
    chunk("xx/gg", "hh", "ii"),
  ]));
  const score = new Map(search("ledger", 5).map((h) => [h.index, h.score]));
  deepEqual([...score.keys()], [2, 0, 1]);
  // Body and path: weight 1 each, lengths at their averages (body 1 of 1, path 2 of 2).
  ok(Math.abs(score.get(0)! - score.get(1)!) < 1e-12);
  const idf = Math.log(1 + (4 - 3 + 0.5) / (3 + 0.5));
  const tfSymbol = 3; // weight 3, length 1 = average 1
  ok(Math.abs(score.get(2)! - idf * tfSymbol / (1.2 + tfSymbol)) < 1e-12);
});

Deno.test("the index tokenizes passages with tokenizeCode and queries with tokenizeQuery", () => {
  const search = loadLexical(buildLexical([
    chunk("a.ts", "getOrderById(id) { return db.find(id); }", "getOrderById"),
    chunk("b.ts", "orderBy(field) { return this.sort(field); }", "orderBy"),
    chunk("c.ts", "utf8Decode(bytes) {}", "utf8Decode"),
  ]));
  // The query's joined words meet the passage's joined identifier, stopword `by` included.
  equal(search("get order by id", 1)[0]!.index, 0);
  equal(search("order by", 1)[0]!.index, 1);
  // Letter/digit boundaries split in both: `utf 8` finds `utf8Decode`.
  deepEqual(search("utf 8", 5).map((h) => h.index), [2]);
  // Stopwords alone find nothing; `by` is never a token of its own.
  deepEqual(search("by the", 5), []);
});

Deno.test("buildLexical() counts occurrences right in a passage of thousands of distinct words", () => {
  // Over a thousand distinct words, each twice, in one passage and again in a second one.
  const letters = "abcdefghijklmnopqrtu"; // no `s`: plurals would fold
  const words = Array.from(
    { length: 1500 },
    (_, i) =>
      `zq${letters[i % 20]}${letters[Math.floor(i / 20) % 20]}${letters[Math.floor(i / 400)]}`,
  );
  const text = [...words, ...words].join(" ");
  const data = decodeLexical(buildLexical([chunk("a.ts", text), chunk("b.ts", text)]));
  equal(data.terms.length, 1500 + 1); // the words and `ts` (`a` and `b` are too short)
  for (let term = 0; term < data.terms.length; term++) {
    const counts = new Uint32Array(2);
    equal(
      readPostings(data, term, 0, new Uint32Array(2), counts),
      data.terms[term] === "ts" ? 0 : 2,
    );
    if (data.terms[term] !== "ts") deepEqual([...counts], [2, 2], data.terms[term]);
  }
});
