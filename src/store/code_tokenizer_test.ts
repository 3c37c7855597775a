import { deepEqual } from "node:assert/strict";
import { tokenizeCode } from "./code_tokenizer.ts";

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
