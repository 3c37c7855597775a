import { deepEqual } from "node:assert/strict";
import { stemPlural, tokenizeCode, tokenizeQuery } from "./code_tokenizer.ts";

Deno.test("tokenizeCode() splits camelCase and keeps the joined identifier", () => {
  deepEqual(tokenizeCode("refreshAuthToken"), ["refresh", "auth", "token", "refreshauthtoken"]);
});

Deno.test("tokenizeCode() splits acronyms from the following word", () => {
  deepEqual(tokenizeCode("HTTPServer"), ["http", "server", "httpserver"]);
  deepEqual(tokenizeCode("getHTTPResponseCode"), [
    "get",
    "http",
    "response",
    "code",
    "gethttpresponsecode",
  ]);
});

Deno.test("tokenizeCode() gives snake, kebab, camel and Pascal spellings one joined token", () => {
  const joined = [
    "refresh_auth_token",
    "refresh-auth-token",
    "refreshAuthToken",
    "RefreshAuthToken",
    "REFRESH_AUTH_TOKEN",
  ]
    .map((spelling) => tokenizeCode(spelling).at(-1));
  deepEqual(new Set(joined), new Set(["refreshauthtoken"]));
});

Deno.test("tokenizeCode() splits at letter-digit boundaries and keeps digits", () => {
  deepEqual(tokenizeCode("utf8"), ["utf", "8", "utf8"]);
  deepEqual(tokenizeCode("v2Api"), ["2", "api", "v2api"]);
});

Deno.test("tokenizeCode() drops one-letter parts and punctuation", () => {
  deepEqual(tokenizeCode("a + b = c; $scope.__init__()"), ["scope", "init"]);
});

Deno.test("tokenizeCode() splits paths and keeps non-Latin words whole", () => {
  deepEqual(tokenizeCode("src/auth/refresh_token.ts"), [
    "src",
    "auth",
    "refresh",
    "token",
    "refreshtoken",
    "ts",
  ]);
  deepEqual(tokenizeCode("naïveCafé 日本語"), ["naïve", "café", "naïvecafé", "日本語"]);
});

Deno.test("tokenizeCode() drops English stopwords as parts but keeps them in joined identifiers", () => {
  deepEqual(tokenizeCode("find the user by email"), ["find", "user", "email"]);
  deepEqual(tokenizeCode("getOrderById"), ["get", "order", "id", "getorderbyid"]);
  // Words that mean something in code stay.
  deepEqual(tokenizeCode("new get set not"), ["new", "get", "set", "not"]);
});

Deno.test("stemPlural() folds plurals and leaves other endings alone", () => {
  const cases: [string, string][] = [
    ["orders", "order"],
    ["queries", "query"],
    ["classes", "class"],
    ["hashes", "hash"],
    ["boxes", "box"],
    ["bytes", "byte"],
    ["status", "status"],
    ["analysis", "analysis"],
    ["address", "address"],
    ["string", "string"],
    ["encrypted", "encrypted"],
    ["has", "has"],
  ];
  deepEqual(cases.map(([word]) => [word, stemPlural(word)]), cases);
  deepEqual(tokenizeCode("OrderItems order_items"), [
    "order",
    "item",
    "orderitem",
    "order",
    "item",
    "orderitem",
  ]);
});

Deno.test("tokenizeQuery() adds adjacent words joined, deduplicated", () => {
  deepEqual(tokenizeQuery("order to json"), ["order", "json", "orderto", "ordertojson", "tojson"]);
  deepEqual(tokenizeQuery("copy with copy"), ["copy", "copywith", "copywithcopy", "withcopy"]);
  deepEqual(tokenizeQuery("refreshAuthToken"), ["refresh", "auth", "token", "refreshauthtoken"]);
  deepEqual(tokenizeQuery("list orders"), ["list", "order", "listorder"]);
});
