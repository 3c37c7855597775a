/**
 * A tokenizer for source code and prose, used by the lexical (BM25) index for
 * both passages and queries, so `refresh auth token` finds `refreshAuthToken`.
 */

// An identifier: letters, digits, `_` and `$`, with inner `-` kept so kebab-case stays one word.
const IDENTIFIER = /[\p{L}\p{M}\p{N}_$]+(?:-[\p{L}\p{M}\p{N}_$]+)*/gu;
// Boundaries inside an identifier: `fooBar`, `HTTPServer`, `utf8`, `v2Api`.
const PARTS = /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+|\p{Lu}+|\p{N}+|[\p{L}\p{M}]+/gu;
const DIGITS = /^\p{N}+$/u;

/**
 * Splits text into lowercase search tokens:
 * - words are runs of letters and digits; everything else separates them;
 * - each word is split at `_`, `-`, camelCase and PascalCase humps
 *   (`HTTPServer` → `http`, `server`) and letter/digit boundaries
 *   (`utf8` → `utf`, `8`);
 * - a word made of several parts also yields its parts joined
 *   (`refresh_auth_token` → `refreshauthtoken`), so the spellings of one
 *   identifier across languages meet on one token;
 * - one-letter parts are dropped (`x`, the `s` of `s3`) as noise; digits are
 *   kept whatever their length, since versions and codes are often searched.
 *
 * Tokens come in order of appearance, duplicates kept.
 *
 * @param text Any text: code, Markdown, a query.
 * @returns The tokens.
 * @example Identifiers split into words plus the joined form
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(tokenizeCode("refreshAuthToken()"), ["refresh", "auth", "token", "refreshauthtoken"]);
 * ```
 */
export function tokenizeCode(text: string): string[] {
  const tokens: string[] = [];
  for (const [word] of text.matchAll(IDENTIFIER)) {
    const parts = word.match(PARTS);
    if (parts === null) continue;
    for (const part of parts) {
      if (part.length > 1 || DIGITS.test(part)) tokens.push(part.toLowerCase());
    }
    if (parts.length > 1) tokens.push(parts.join("").toLowerCase());
  }
  return tokens;
}
