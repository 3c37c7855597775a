/**
 * The embed stage: turns passages and queries into unit vectors, in process
 * with llama.cpp, through an HTTP embedding server, or with a deterministic
 * fake for tests.
 *
 * @module
 */

export type { Embedder, ModelIdentity } from "./embedder.ts";
export type { LlamaEmbedderOptions } from "./llama.ts";
export { type LlamaSetup, llamaSetup, readLlamaSetup } from "./llama_setup.ts";
export type { LlamaRerankerOptions } from "./llama_reranker.ts";
export type { HttpEmbedderOptions, HttpProtocol } from "./http.ts";
export type { FakeEmbedderOptions } from "./fake.ts";
export type { LongInput } from "./long_input_error.ts";

/**
 * In-process embedder over a GGUF model with llama.cpp on the CPU. Create it
 * with `LlamaEmbedder.create({ modelPath, threads })`; always close it.
 *
 * @example Embed with the generated tiny model
 * ```ts
 * import assert from "node:assert/strict";
 * import { join } from "node:path";
 * import { writeTinyModel } from "../model/mod.ts";
 * import { LlamaEmbedder } from "./mod.ts";
 *
 * const modelPath = join(await Deno.makeTempDir(), "tiny.gguf");
 * await writeTinyModel(modelPath);
 * const embedder = await LlamaEmbedder.create({ modelPath, threads: 1 });
 * const [vector] = await embedder.embedDocuments(["hello world"]);
 * assert.equal(vector.length, embedder.identity.dimensions);
 * assert.equal(await embedder.countTokens("hello world", "document"), 4); // [CLS] hello world [SEP]
 * await embedder.close();
 * ```
 */
export { LlamaEmbedder } from "./llama.ts";

/**
 * Embedder speaking Ollama (`/api/embed`), OpenAI-compatible (`/v1/embeddings`)
 * or TEI (`/embed`), with batching, timeouts and retries.
 *
 * @example Point at a local Ollama
 * ```ts ignore
 * import { HttpEmbedder } from "./mod.ts";
 *
 * const embedder = await HttpEmbedder.create({
 *   protocol: "ollama",
 *   url: "http://127.0.0.1:11434",
 *   model: "nomic-embed-text",
 * });
 * ```
 */
export { HttpEmbedder } from "./http.ts";

/**
 * Deterministic embedder for unit tests: hashes words and trigrams, so texts
 * that share words score higher than unrelated ones.
 *
 * @example Similar texts are closer
 * ```ts
 * import assert from "node:assert/strict";
 * import { FakeEmbedder } from "./mod.ts";
 *
 * const embedder = new FakeEmbedder();
 * const [query, near, far] = await embedder.embedDocuments([
 *   "parse the config file",
 *   "parseConfig reads the config file",
 *   "render a table",
 * ]);
 * const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i], 0);
 * assert.ok(dot(query, near) > dot(query, far));
 * ```
 */
export { FakeEmbedder } from "./fake.ts";

/**
 * The "long_input" error an embedder throws under the "reject" policy; its
 * `offenders` hold each long input's index and token count.
 */
export { LongInputError } from "./long_input_error.ts";

/**
 * Fingerprint of a model identity; two indexes may share vectors only when
 * their fingerprints are equal.
 *
 * @param identity An embedder's identity.
 * @returns A 64-character hex SHA-256 of the identity as canonical JSON.
 *
 * @example Same identity, same fingerprint
 * ```ts
 * import assert from "node:assert/strict";
 * import { FakeEmbedder, identityFingerprint } from "./mod.ts";
 *
 * const a = identityFingerprint(new FakeEmbedder().identity);
 * assert.equal(a, identityFingerprint(new FakeEmbedder().identity));
 * assert.notEqual(a, identityFingerprint(new FakeEmbedder({ dimensions: 32 }).identity));
 * ```
 */
export { identityFingerprint } from "./identity_fingerprint.ts";

/** Scales a vector to unit length in place; false for a vector of zeros. */
export { normalizeVector } from "./normalize_vector.ts";

/** A cross-encoder: scores (query, passage) pairs; `LlamaReranker` implements it. */
export type { Reranker } from "./reranker.ts";

/**
 * Cross-encoder reranking in process with llama.cpp's rank pooling, for GGUF
 * rerankers (BERT with a classification head). Scores are 0..1.
 *
 * @example Score passages against a query
 * ```ts ignore
 * import { LlamaReranker } from "./mod.ts";
 *
 * const reranker = await LlamaReranker.create({ modelPath: "models/reranker.gguf", threads: 2 });
 * const scores = await reranker.rank("how is the index saved", ["writeGeneration()", "parseFlags()"]);
 * await reranker.close();
 * ```
 */
export { LlamaReranker } from "./llama_reranker.ts";

/**
 * Cross-encoder reranking through a Text Embeddings Inference `/rerank`
 * server, in batches, with timeouts and retries.
 *
 * @example Rerank with a local TEI
 * ```ts ignore
 * import { HttpReranker } from "./mod.ts";
 *
 * const reranker = HttpReranker.create({ url: "http://127.0.0.1:8080" });
 * const scores = await reranker.rank("how is the index saved", ["writeGeneration()", "parseFlags()"]);
 * ```
 */
export { HttpReranker } from "./http_reranker.ts";
export type { HttpRerankerOptions } from "./http_reranker.ts";

/**
 * A GGUF embedding model opened for distillation: its WordPiece vocabulary
 * and its output for each token on its own. Close it when done.
 */
export { type LlamaTokenOutputs, openLlamaTokenOutputs } from "./llama_token_outputs.ts";

/**
 * Embeds with a static model distilled by `wayfinder model distill`:
 * WordPiece pieces looked up and averaged, no llama.cpp, no context window.
 *
 * @example Open a static model and embed
 * ```ts ignore
 * import { StaticEmbedder } from "./mod.ts";
 *
 * const embedder = await StaticEmbedder.open({ modelPath: "models/embedding.static" });
 * const [vector] = await embedder.embedDocuments(["parse the config file"]);
 * ```
 */
export {
  NO_TOKEN_LIMIT,
  STATIC_POOLING,
  StaticEmbedder,
  type StaticEmbedderOptions,
} from "./static.ts";

/**
 * A transformer and the static model distilled from it read as one: joint
 * vectors whose dot product blends the two models' cosines.
 *
 * @example Blend two embedders, a fifth of the cosine from the second
 * ```ts
 * import assert from "node:assert/strict";
 * import { FakeEmbedder, JointEmbedder } from "./mod.ts";
 *
 * const joint = new JointEmbedder(new FakeEmbedder(), new FakeEmbedder({ dimensions: 8 }), 0.2);
 * const [vector] = await joint.embedDocuments(["parse the config file"]);
 * assert.equal(vector!.length, joint.identity.dimensions);
 * ```
 */
export {
  isJoint,
  JointEmbedder,
  type JointParts,
  jointParts,
  joinVectors,
  onlyJoiningDiffers,
} from "./joint.ts";
