/**
 * The fit stage: cuts each passage into embedding inputs that fit the
 * model's token budget, counted with the model's own tokenizer, without
 * overlap or truncation, and says what the cuts cost.
 *
 * @module
 */

export type { FitBudget, FitFragment, FitPassage, FittedPassage } from "./fit_passage.ts";
export type { FitDiagnostic, FitDiagnosticCode, FitNote } from "./fit_diagnostics.ts";
export type { UnfitPassage } from "./assert_fits.ts";

/**
 * Fits one passage to the token budget: whole when its input fits, else the
 * longest fragments that fit, cut at line breaks (for `lines`), then
 * whitespace, then code points, each counted with its context. Leading and
 * trailing whitespace stay on the fragments beside them; the fragments
 * concatenate to the passage. When the context cannot fit beside even one
 * code point, the passage is fitted again without it (`contextOmitted`).
 *
 * @param passage The stored text, its context, a repeated header, and whether it is line-structured.
 * @param budget The model's token budget and tokenizer (special tokens included).
 * @returns The fragments with their inputs and token counts, or `fits: false`
 *   when even one code point alone is over budget.
 * @throws {WayfinderError} "usage" for a budget that is not a positive integer;
 *   "model" when the tokenizer fails.
 *
 * @example Cut a long line at whitespace
 * ```ts
 * import assert from "node:assert/strict";
 * import { fitPassage } from "./mod.ts";
 *
 * // One token per word, plus the two special tokens a BERT model adds.
 * const countTokens = (text: string) => Promise.resolve(text.split(/\s+/).filter(Boolean).length + 2);
 * const fitted = await fitPassage(
 *   { text: "one two three four five", context: "notes.md\n" },
 *   { maxTokens: 5, countTokens },
 * );
 * assert.deepEqual(fitted.fragments.map((f) => f.input), [
 *   "notes.md\none two ",
 *   "notes.md\nthree four ",
 *   "notes.md\nfive",
 * ]);
 * assert.equal(fitted.fragments.map((f) => f.input.slice("notes.md\n".length)).join(""), "one two three four five");
 * ```
 */
export { fitPassage } from "./fit_passage.ts";

/**
 * The diagnostic codes one fitted passage earns: `embedding_context_omitted`
 * when its inputs lost their context, `oversized_segment_split` when a cut
 * fell inside a run of non-whitespace. Cuts at line breaks and whitespace
 * earn none.
 *
 * @param fitted What {@linkcode fitPassage} returned.
 * @returns The codes, context first.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { diagnosticCodes } from "./mod.ts";
 *
 * const fitted = { fits: true, fragments: [], contextOmitted: false, codePointSplit: true };
 * assert.deepEqual(diagnosticCodes(fitted), ["oversized_segment_split"]);
 * ```
 */
export { diagnosticCodes } from "./fit_diagnostics.ts";

/**
 * Aggregates per-chunk notes into one diagnostic per path and code, with the
 * line range enclosing its chunks and the number of chunks, sorted by path
 * then code.
 *
 * @param notes One note per original chunk and code.
 * @returns The diagnostics.
 *
 * @example Two chunks of one file
 * ```ts
 * import assert from "node:assert/strict";
 * import { aggregateDiagnostics } from "./mod.ts";
 *
 * const note = { code: "oversized_segment_split" as const, sourcePath: "min.js" };
 * assert.deepEqual(
 *   aggregateDiagnostics([
 *     { ...note, chunkId: "a", lineStart: 1, lineEnd: 1 },
 *     { ...note, chunkId: "b", lineStart: 7, lineEnd: 9 },
 *   ]),
 *   [{ ...note, lineStart: 1, lineEnd: 9, affectedChunks: 2 }],
 * );
 * ```
 */
export { aggregateDiagnostics } from "./fit_diagnostics.ts";

/**
 * Throws when some passage cannot fit even one character at a time.
 *
 * @param unfit The passages whose bodies did not fit.
 * @param maxTokens The budget, for the message.
 * @throws {WayfinderError} "long_input", naming up to ten places as `path:start-end`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { assertFits } from "./mod.ts";
 *
 * const passage = { chunkId: "a", sourcePath: "a.txt", lineStart: 1, lineEnd: 3, tokens: 3 };
 * assert.throws(() => assertFits([passage], 2), /within 2 tokens.*a\.txt:1-3/);
 * assertFits([], 2);
 * ```
 */
export { assertFits } from "./assert_fits.ts";
