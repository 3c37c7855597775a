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
 * English function words that carry no topic in a query ("find user *by*
 * email", "hash data *for* storage") but occur in most comments. Kept short:
 * words that are also meaningful in code (`new`, `get`, `set`, `not`, `if`)
 * are not listed.
 */
export const STOPWORDS = new Set(
  ("an and are as at be been but by can could did do does for from had has have how " +
    "in into is it its of on or should than that the their then there these they this " +
    "those to was were what when where which while who why will with would you your")
    .split(" "),
);

/**
 * Harman's "S" stemmer (1991), a conservative plural folder, with `-sses`
 * and `-xes`/`-ches`/`-shes` added: `orders` → `order`, `queries` → `query`,
 * `classes` → `class`, `hashes` → `hash`; `status`, `analysis`, `address`
 * are left alone. It never touches `-ing`/`-ed`, whose stripping would merge
 * unrelated identifiers (`string` → `str`).
 */
export function stemPlural(word: string): string {
  const ending = pluralEnding(word.length, (i) => word.charCodeAt(i));
  if (ending === 0) return word;
  const stem = word.slice(0, word.length - Math.abs(ending));
  return ending < 0 ? stem.slice(0, -1) + "y" : stem;
}

const [A, C, E, H, I, S, U, X, Z] = [..."acehisuxz"].map((c) => c.charCodeAt(0));

/**
 * `stemPlural`'s rule, over the code units of a word of `length` units (one
 * rule for strings and for the index builder's byte buffers): how many units
 * to drop from the end, negated when the new last unit becomes `y`.
 */
export function pluralEnding(length: number, unit: (i: number) => number): number {
  const back = (i: number) => unit(length - i);
  if (length <= 3 || back(1) !== S) return 0;
  if (back(2) === E && back(3) === I && back(4) !== E && back(4) !== A) return -2; // -ies → -y
  if (back(2) === E) {
    if (back(3) === S && back(4) === S) return 2; // -sses
    if (back(3) === X || (back(3) === H && (back(4) === C || back(4) === S))) return 2;
    if (back(3) === Z && back(4) === Z) return 2;
  }
  if (back(2) === S || back(2) === U || back(2) === I) return 0; // -ss, -us, -is
  return 1;
}

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
 *   kept whatever their length, since versions and codes are often searched;
 * - English stopwords are dropped as parts (`getOrderById` → `get`, `order`,
 *   `id`, `getorderbyid`) but still spelled in the joined form;
 * - plurals are folded (`orders` → `order`, `OrderItems` → `orderitem`).
 *
 * Tokens come in order of appearance, duplicates kept.
 *
 * @param text Any text: code, Markdown, a query.
 * @returns The tokens.
 * @example Identifiers split into words plus the joined form
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(tokenizeCode("refreshAuthTokens()"), ["refresh", "auth", "token", "refreshauthtoken"]);
 * ```
 */
export function tokenizeCode(text: string): string[] {
  const tokens: string[] = [];
  for (const [word] of text.matchAll(IDENTIFIER)) {
    const parts = word.match(PARTS);
    if (parts === null) continue;
    for (const part of parts) {
      const lower = part.toLowerCase();
      if ((lower.length > 1 || DIGITS.test(lower)) && !STOPWORDS.has(lower)) {
        tokens.push(stemPlural(lower));
      }
    }
    if (parts.length > 1) tokens.push(stemPlural(parts.join("").toLowerCase()));
  }
  return tokens;
}

/** Longest run of query words joined into one compound token. */
const MAX_COMPOUND = 3;

/**
 * Tokens of a search query: `tokenizeCode`'s, deduplicated, plus runs of 2
 * to 3 adjacent query words joined (`to json` → `tojson`, `copy with` →
 * `copywith`), so words typed apart meet the joined form `tokenizeCode`
 * gives identifiers (`toJson`, `copyWith`), stopwords included.
 *
 * @param query The query text.
 * @returns Distinct tokens, in order of appearance.
 * @example
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(tokenizeQuery("order to json"), ["order", "json", "orderto", "ordertojson", "tojson"]);
 * ```
 */
export function tokenizeQuery(query: string): string[] {
  const tokens = tokenizeCode(query);
  const words = [...query.matchAll(IDENTIFIER)].map(([word]) => word);
  for (let i = 0; i < words.length; i++) {
    for (let n = 2; n <= MAX_COMPOUND && i + n <= words.length; n++) {
      const parts = words.slice(i, i + n).flatMap((word) => word.match(PARTS) ?? []);
      tokens.push(stemPlural(parts.join("").toLowerCase()));
    }
  }
  return [...new Set(tokens)];
}
