import { deepEqual, equal } from "node:assert/strict";
import fc from "fast-check";
import { tokenizeCode } from "./code_tokenizer.ts";
import { TypedList } from "./growable.ts";
import { TermTable } from "./term_table.ts";

/** The tokens a table gives for `text`, as strings. */
function tokensOf(table: TermTable, text: string): string[] {
  const out = new TypedList(Uint32Array);
  table.tokenize(text, out);
  return Array.from(out.values(), (term) => table.terms[term]!);
}

const TRICKY = [
  "refreshAuthTokens() HTTPServer getHTTPResponseCode utf8 v2Api S3Bucket IDs ABCdef",
  "refresh_auth_token refresh-auth-token REFRESH_AUTH_TOKEN __init__ $scope.x a + b = c;",
  "a--b -lead trail- x-_y _-_ -- - a-1 1-a a-b-c-d ab--cd",
  "queries classes hashes boxes bytes status analysis address has aies eies sses xes zzes",
  "find the user by email getOrderById OrderItems order_items the_by_for THE BY",
  "naïveCafé 日本語abc café-bar barCafé ǅungla İstanbul ΣΑΣ straße ﬁle Ⅻ ²³ ٣٤",
  "x\u0301y a\u0301bc 😀emoji 𝔘nicode lone\ud800surrogate \udc00tail",
  "src/auth/refresh_token.ts 1234567 0x1F 3.14 e2e 2fa ABC123def",
];

Deno.test("TermTable gives tokenizeCode()'s tokens on identifiers, paths, stopwords, plurals and Unicode", () => {
  const table = new TermTable();
  for (const text of TRICKY) deepEqual(tokensOf(table, text), tokenizeCode(text), text);
});

Deno.test("TermTable gives tokenizeCode()'s tokens on random text, one number per distinct term", () => {
  const piece = fc.oneof(
    fc.string({ unit: fc.constantFrom(..."aAbBzZsSyYeEiI09_$-"), maxLength: 12 }),
    fc.constantFrom(" ", "\n", ".", "(", "/", "ies", "sses", "ches", "the", "by", "HTTP", "Xml"),
    fc.constantFrom("é", "É", "日", "\u0301", "ǅ", "😀", "\ud800", "ß", "İ", "²"),
  );
  const text = fc.array(piece, { maxLength: 40 }).map((pieces) => pieces.join(""));
  const table = new TermTable();
  fc.assert(
    fc.property(text, (t) => deepEqual(tokensOf(table, t), tokenizeCode(t))),
    { numRuns: 2000 },
  );
  equal(new Set(table.terms).size, table.terms.length);
});
