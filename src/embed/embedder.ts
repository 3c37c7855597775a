/**
 * The contract every embedding backend meets: in-process llama.cpp, HTTP
 * embedders, and the deterministic fake used by unit tests.
 */

/**
 * An embedding backend. Vectors are L2-normalised.
 *
 * @example An embedder of your own: one that counts what it embeds
 * ```ts
 * import assert from "node:assert/strict";
 * import { FakeEmbedder, openCorpus, type Embedder } from "../mod.ts";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/auth.ts`, "export function refreshToken() {\n  return fetchToken();\n}\n");
 * await Deno.writeTextFile(`${root}/README.md`, "# Auth\n\nRefresh the token before it expires.\n");
 * const dataDir = await Deno.makeTempDir();
 * let embedded = 0;
 * const fake = new FakeEmbedder();
 * const counting: Embedder = {
 *   identity: fake.identity,
 *   embedDocuments: (texts) => {
 *     embedded += texts.length;
 *     return fake.embedDocuments(texts);
 *   },
 *   embedQuery: (text) => fake.embedQuery(text),
 *   countTokens: (text, kind) => fake.countTokens(text, kind),
 *   close: () => fake.close(),
 * };
 * const corpus = await openCorpus(root, { dataDir, embedder: counting });
 * const summary = await corpus.index();
 * assert.equal(embedded, summary.embeddedChunks);
 * await corpus.close();
 * await Deno.remove(root, { recursive: true });
 * await Deno.remove(dataDir, { recursive: true });
 * ```
 */
export interface Embedder {
  /**
   * Which model this is; an index records it. Everything that decides what
   * vector a text gets: two indexes are compatible only when their
   * identities' fingerprints are equal.
   */
  readonly identity: {
    /** Human-readable model name, e.g. "all-MiniLM-L6-v2". */
    name: string;
    /** Where vectors come from: "llama", "static", "ollama", "openai", "tei", "fake". */
    provider: string;
    /** SHA-256 of the weights (GGUF bytes), or the remote model name for HTTP embedders. */
    sha256: string;
    /** Vector length. */
    dimensions: number;
    /** Prepended to queries only; documents are embedded as they are. */
    queryPrefix: string;
    /** "cls" | "mean" | "last" | "none" | "remote". */
    pooling: string;
    /** Whether vectors are L2-normalised. */
    normalize: boolean;
    /** The most tokens one input can hold. */
    maxTokens: number;
    /** "reject" | "truncate"; "none" for a model without a context window (static). */
    longInput: string;
    /** Version of the text we build from a chunk before embedding it. */
    inputFormat: number | string;
  };
  /** Embeds passages as they are, in batches. */
  embedDocuments(texts: string[]): Promise<Float32Array[]>;
  /** Embeds one query, with the model's query prefix. */
  embedQuery(text: string): Promise<Float32Array>;
  /** Tokens the model would see for this input, special tokens included. */
  countTokens(text: string, kind: "document" | "query"): Promise<number>;
  /** Releases the model. */
  close(): Promise<void>;
}

/**
 * Everything that decides what vector a text gets. Two indexes are
 * compatible only when their identities' fingerprints are equal.
 */
export type ModelIdentity = Embedder["identity"];
