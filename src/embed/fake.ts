import type { Embedder } from "./embedder.ts";
import { modelIdentity } from "./model_identity.ts";
import { BUILD_DEFAULTS } from "../build_defaults.ts";

/**
 * A deterministic embedder for unit tests of other stages: it hashes
 * lowercased words and character trigrams into a small vector, so texts that
 * share words land close together and unrelated texts do not.
 *
 * @example Texts that share words are closer
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
export class FakeEmbedder implements Embedder {
  /** Which model this is: `fake`, with the options' dimensions and budget. */
  readonly identity: Embedder["identity"];

  /** A fake embedder; every option has a default. */
  constructor(options: {
    /** Vector length. @default {64} */
    dimensions?: number;
    /** Prepended to queries, like a real model's query prefix. @default {""} */
    queryPrefix?: string;
    /** Reported token budget. @default {512} */
    maxTokens?: number;
    /** @default {"reject"} */
    longInput?: "reject" | "truncate";
    /** @default {1} */
    inputFormat?: number | string;
  } = {}) {
    this.identity = modelIdentity(
      {
        name: "fake",
        provider: "fake",
        sha256: "fake",
        dimensions: options.dimensions ?? 64,
        pooling: "none",
      },
      { ...options, longInput: options.longInput ?? BUILD_DEFAULTS.longInput },
    );
  }

  embedDocuments(texts: string[]): Promise<Float32Array[]> {
    return Promise.resolve(texts.map((text) => _hashVector(text, this.identity.dimensions)));
  }

  embedQuery(text: string): Promise<Float32Array> {
    return Promise.resolve(
      _hashVector(this.identity.queryPrefix + text, this.identity.dimensions),
    );
  }

  /** One token per word or punctuation mark, like a crude word-piece tokenizer. */
  countTokens(text: string, kind: "document" | "query"): Promise<number> {
    const input = kind === "query" ? this.identity.queryPrefix + text : text;
    return Promise.resolve(_words(input).length);
  }

  /** Nothing to release. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}

function _words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu) ?? [];
}

/** Words weigh more than trigrams so shared vocabulary dominates the cosine. */
export function _hashVector(text: string, dimensions: number): Float32Array {
  const vector = new Float32Array(dimensions);
  for (const word of _words(text)) {
    if (!/[\p{L}\p{N}]/u.test(word)) continue;
    _add(vector, "w:" + word, 2);
    const padded = ` ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) _add(vector, "t:" + padded.slice(i, i + 3), 1);
  }
  let norm = 0;
  for (const value of vector) norm += value * value;
  if (norm === 0) {
    // Empty or punctuation-only text still gets a valid unit vector.
    vector[0] = 1;
    return vector;
  }
  norm = Math.sqrt(norm);
  for (let i = 0; i < dimensions; i++) vector[i] /= norm;
  return vector;
}

/** FNV-1a picks the bucket; a second bit of the hash picks the sign. */
function _add(vector: Float32Array, feature: string, weight: number): void {
  let hash = 0x811c9dc5;
  for (let i = 0; i < feature.length; i++) {
    hash ^= feature.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  const bucket = hash % vector.length;
  const sign = (hash >>> 31) === 1 ? -1 : 1;
  vector[bucket] += sign * weight;
}

/** Options for {@linkcode FakeEmbedder}. */
export type FakeEmbedderOptions = NonNullable<ConstructorParameters<typeof FakeEmbedder>[0]>;
