/**
 * The fit stage: checks every chunk's input against the model's token budget
 * before embedding, and words the error when passages are too long.
 *
 * @module
 */

export type { FitInput, FitOptions, FitReport } from "./fit_inputs.ts";

/**
 * Counts the tokens of each chunk's input and marks those over `maxTokens`.
 *
 * @param chunks The chunks about to be embedded.
 * @param countTokens The embedder's token counter for documents.
 * @param options The budget, the long-input policy and how a chunk becomes text.
 * @returns One entry per chunk, in order, with the number over budget.
 *
 * @example Count with the fake embedder
 * ```ts
 * import assert from "node:assert/strict";
 * import { fitInputs } from "./mod.ts";
 * import { FakeEmbedder } from "../embed/mod.ts";
 *
 * const embedder = new FakeEmbedder();
 * const chunk = {
 *   id: "a", sourcePath: "a.md", lineStart: 1, lineEnd: 1, startOffset: 0, endOffset: 11,
 *   type: "text", language: "text", content: "hello world", metadata: {},
 * };
 * const report = await fitInputs([chunk], (text) => embedder.countTokens(text, "document"), {
 *   maxTokens: 1,
 *   policy: "reject",
 * });
 * assert.equal(report.inputs[0].tokens, 2);
 * assert.equal(report.overLimit, 1);
 * ```
 */
export { fitInputs } from "./fit_inputs.ts";

/**
 * Throws when the policy is "reject" and any input is over budget.
 *
 * @param report What {@linkcode fitInputs} returned.
 * @throws {WayfinderError} "long_input", naming up to ten offending passages as `path:start-end`.
 *
 * @example Reject an over-long passage
 * ```ts
 * import assert from "node:assert/strict";
 * import { assertFits } from "./mod.ts";
 *
 * const long = { chunkId: "a", sourcePath: "a.md", lineStart: 12, lineEnd: 80, tokens: 734, fits: false };
 * assert.throws(
 *   () => assertFits({ inputs: [long], overLimit: 1, maxTokens: 512, policy: "reject" }),
 *   /Cannot embed 1 passage longer than 512 tokens: a\.md:12-80 \(734 tokens\)/,
 * );
 * ```
 */
export { assertFits } from "./assert_fits.ts";
