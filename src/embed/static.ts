import { WayfinderError } from "../error.ts";
import { readStaticModel, type StaticModel } from "../model/mod.ts";
import type { Embedder, ModelIdentity } from "./embedder.ts";
import { modelIdentity } from "./model_identity.ts";
import { normalizeVector } from "./normalize_vector.ts";
import { WordPieceTokenizer } from "./wordpiece.ts";

/** Options for {@linkcode StaticEmbedder.open}. */
export interface StaticEmbedderOptions {
  /** Path to a static model file (`model distill` writes one), with its manifest beside it. */
  modelPath: string;
  /** Version of the chunk-to-text recipe, recorded in the identity. @default {1} */
  inputFormat?: number | string;
}

/**
 * The token budget of a model without a context window: every input fits
 * whole, so `fit-inputs` splits nothing and `--long-input` never applies.
 */
export const NO_TOKEN_LIMIT = Number.MAX_SAFE_INTEGER;

/**
 * How a static embedder pools, recorded in its identity: the mean of the
 * pieces of each word's identifier parts (see `splitIdentifiers`). Indexes
 * from before the split say "mean", so the guard asks for a rebuild.
 */
export const STATIC_POOLING = "mean of identifier parts";

/** Token ids of recent inputs: `index` counts a passage's tokens, then embeds it. */
const RECENT_LIMIT = 1024;

/**
 * Embeds with a static model: tokenize (the source model's WordPiece, with
 * identifiers cut into their parts), look up each piece's vector, average,
 * normalise. No llama.cpp, no context window; a passage costs a few
 * microseconds.
 */
export class StaticEmbedder implements Embedder {
  readonly identity: ModelIdentity;
  readonly #model: StaticModel;
  readonly #tokenizer: WordPieceTokenizer;
  readonly #recent = new Map<string, number[]>();
  #closed = false;
  /** The vocabulary's mean direction, made on first need. */
  #mean: Float32Array | null = null;

  private constructor(model: StaticModel, identity: ModelIdentity) {
    this.#model = model;
    this.identity = identity;
    const { tokens, unk } = model.header.tokenizer;
    this.#tokenizer = new WordPieceTokenizer(tokens, unk, { splitIdentifiers: true });
  }

  /**
   * Reads and verifies a static model.
   *
   * @throws {WayfinderError} "no_model" when missing; "model" when truncated, not a static model, or
   *   not matching its manifest.
   */
  static async open(options: StaticEmbedderOptions): Promise<StaticEmbedder> {
    const { model, sha256 } = await readStaticModel(options.modelPath);
    const { header } = model;
    const identity = modelIdentity({
      name: header.name,
      provider: "static",
      sha256,
      dimensions: header.dimensions,
      pooling: STATIC_POOLING,
    }, {
      queryPrefix: header.queryPrefix,
      maxTokens: NO_TOKEN_LIMIT,
      // No input is ever too long for a model without a context window: no policy applies.
      longInput: "none",
      inputFormat: options.inputFormat,
    });
    return new StaticEmbedder(model, identity);
  }

  // deno-lint-ignore require-await
  async embedDocuments(texts: string[]): Promise<Float32Array[]> {
    this.#assertOpen();
    return texts.map((text) => this.#embed(this.#ids(text)));
  }

  // deno-lint-ignore require-await
  async embedQuery(text: string): Promise<Float32Array> {
    this.#assertOpen();
    return this.#embed(this.#tokenizer.tokenize(this.identity.queryPrefix + text));
  }

  /** The pieces the static model averages; it adds no special tokens. */
  // deno-lint-ignore require-await
  async countTokens(text: string, kind: "document" | "query"): Promise<number> {
    this.#assertOpen();
    if (kind === "query") return this.#tokenizer.tokenize(this.identity.queryPrefix + text).length;
    const ids = this.#tokenizer.tokenize(text);
    if (this.#recent.size >= RECENT_LIMIT) this.#recent.clear();
    this.#recent.set(text, ids);
    return ids.length;
  }

  close(): Promise<void> {
    this.#closed = true;
    this.#recent.clear();
    return Promise.resolve();
  }

  #assertOpen(): void {
    if (this.#closed) {
      throw new WayfinderError(
        "internal",
        `Cannot use the static model '${this.identity.name}': it is closed`,
      );
    }
  }

  #ids(text: string): number[] {
    const ids = this.#recent.get(text);
    if (ids === undefined) return this.#tokenizer.tokenize(text);
    this.#recent.delete(text);
    return ids;
  }

  /**
   * The mean of the pieces' vectors, unknown pieces left out. A text with no
   * known piece gets the vocabulary's mean direction: a unit vector like every
   * other, close to nothing in particular (`[UNK]`'s own row is empty).
   */
  #embed(ids: number[]): Float32Array {
    const { vectors, header } = this.#model;
    const d = header.dimensions;
    const unk = header.tokenizer.unk;
    const sum = new Float32Array(d);
    let count = 0;
    for (const id of ids) {
      if (id === unk) continue;
      const base = id * d;
      for (let k = 0; k < d; k++) sum[k] += vectors[base + k];
      count++;
    }
    if (count === 0 || !normalizeVector(sum)) return this.#vocabularyMean().slice();
    return sum;
  }

  #vocabularyMean(): Float32Array {
    if (this.#mean) return this.#mean;
    const { vectors, header } = this.#model;
    const d = header.dimensions;
    const mean = new Float32Array(d);
    for (let at = 0; at < vectors.length; at++) mean[at % d] += vectors[at];
    // A model of zero rows has no direction: any fixed unit vector will do.
    if (!normalizeVector(mean)) mean[0] = 1;
    return (this.#mean = mean);
  }
}
