import { existsSync } from "node:fs";
import type { LlamaEmbeddingContext, LlamaModel, LlamaVocabularyType, Token } from "node-llama-cpp";
import { WayfinderError } from "../error.ts";
import { type ModelManifest, readManifest, sha256File } from "../model/mod.ts";
import type { Embedder, ModelIdentity } from "./embedder.ts";
import { modelIdentity } from "./model_identity.ts";
import { type LongInput, LongInputError } from "./long_input_error.ts";
import { normalizeVector } from "./normalize_vector.ts";
import { openLlamaModel } from "./llama_open_model.ts";
import { type GgufMetadata, type LlamaSetup, llamaSetup } from "./llama_setup.ts";
import type { LlamaSession } from "./llama_session.ts";
import { QueryFirstTurns } from "./query_first.ts";
import { BUILD_DEFAULTS } from "../build_defaults.ts";

/** Options for {@linkcode LlamaEmbedder.create}. */
export interface LlamaEmbedderOptions {
  /** Path to a GGUF embedding model. */
  modelPath: string;
  /** CPU threads for llama.cpp; required because its default oversubscribes shared machines. */
  threads: number;
  /**
   * Has no effect here (it sizes an HTTP embedder's requests): llama.cpp
   * embeds one input at a time, and each passage is its own turn so that a
   * query waits for one passage, not a batch.
   */
  batchSize?: number;
  /** Token budget cap; the budget is the smaller of this and the model's. @default {the model's} */
  contextSize?: number;
  /** What to do with an input over budget. @default {"reject"} */
  longInput?: "reject" | "truncate";
  /** The model's manifest. @default {the manifest beside the model, if any} */
  manifest?: ModelManifest;
  /** Version of the chunk-to-text recipe, recorded in the identity. @default {1} */
  inputFormat?: number | string;
}

interface Parts {
  session: LlamaSession<LlamaEmbeddingContext>;
  identity: ModelIdentity;
  begin: Token | null;
  end: Token | null;
}

/**
 * Embeds in process with llama.cpp (through node-llama-cpp) on the CPU.
 *
 * An embedding context holds a single sequence and evaluates one input at a
 * time (the native side only reads pooled output for sequence 0), so inputs
 * take turns on it, a query before any passage still waiting: a search
 * during an index run waits for one passage rather than the run's batch.
 */
export class LlamaEmbedder implements Embedder {
  readonly identity: ModelIdentity;
  /** Inputs shortened under the "truncate" policy since creation. */
  readonly stats: { truncated: number } = { truncated: 0 };
  readonly #parts: Parts;
  readonly #turns = new QueryFirstTurns();

  private constructor(parts: Parts) {
    this.#parts = parts;
    this.identity = parts.identity;
  }

  /**
   * Loads the model and an embedding context.
   *
   * @throws {WayfinderError} "no_model" when the file is missing, "model" when llama.cpp cannot load it.
   */
  static async create(options: LlamaEmbedderOptions): Promise<LlamaEmbedder> {
    const { modelPath } = options;
    const [manifest, sha256] = existsSync(modelPath)
      ? [options.manifest ?? await readManifest(modelPath), await sha256File(modelPath)]
      : [null, ""];
    let maxTokens = 0;
    let setup: LlamaSetup | undefined;
    const session = await openLlamaModel(modelPath, options.threads, "model", (model) => {
      const header = model.fileInfo.metadata as unknown as GgufMetadata;
      setup = llamaSetup(modelPath, manifest, header, model.trainContextSize);
      maxTokens = Math.min(setup.maxTokens, options.contextSize ?? setup.maxTokens);
      // node-llama-cpp refuses inputs as long as the context, hence the +1;
      // the whole input must fit one batch because BERT attention is not causal.
      return model.createEmbeddingContext({
        threads: options.threads,
        contextSize: maxTokens + 1,
        batchSize: maxTokens + 1,
      });
    });
    const { model } = session;
    const metadata = model.fileInfo.metadata as unknown as Record<string, Record<string, unknown>>;
    const { name, queryPrefix, pooling } = setup!;
    const identity = modelIdentity({
      name,
      provider: "llama",
      sha256,
      dimensions: model.embeddingVectorSize,
      pooling,
    }, {
      queryPrefix,
      maxTokens,
      longInput: options.longInput ?? BUILD_DEFAULTS.longInput,
      inputFormat: options.inputFormat,
    });
    const [begin, end] = _specialTokens(model, metadata);
    return new LlamaEmbedder({
      session,
      identity,
      begin,
      end,
    });
  }

  /**
   * Embeds passages as they are. Under "reject" every input is measured
   * first, so nothing is embedded when any is too long.
   *
   * @throws {LongInputError} under "reject", listing each long input's index and token count.
   */
  embedDocuments(texts: string[]): Promise<Float32Array[]> {
    return this.#parts.session.use(async () => {
      const inputs = this.#fit(texts.map((text) => this.#tokenize(text)));
      const vectors: Float32Array[] = [];
      // One turn per passage, each asked for when the last ends: a failure leaves nothing queued.
      for (const tokens of inputs) {
        vectors.push(await this.#turns.run("passage", () => this.#embed(tokens)));
      }
      return vectors;
    });
  }

  /** Embeds a query with the model's query prefix. */
  embedQuery(text: string): Promise<Float32Array> {
    return this.#parts.session.use(async () => {
      const [tokens] = this.#fit([this.#tokenize(this.identity.queryPrefix + text)]);
      return await this.#turns.run("query", () => this.#embed(tokens));
    });
  }

  /** Tokens the model sees, its special tokens (CLS/SEP or BOS/EOS) included. */
  countTokens(text: string, kind: "document" | "query"): Promise<number> {
    const input = kind === "query" ? this.identity.queryPrefix + text : text;
    return this.#parts.session.use(() => Promise.resolve(this.#tokenize(input).length));
  }

  /**
   * Waits for calls in flight, then frees the context, the model and the
   * hold on the shared llama.cpp runtime, in that order. Safe to call more
   * than once; any call after it fails with an "internal" WayfinderError.
   */
  close(): Promise<void> {
    return this.#parts.session.close();
  }

  /** The model's tokens for a text, wrapped in its special tokens. */
  #tokenize(text: string): Token[] {
    const tokens = this.#parts.session.model.tokenize(text);
    if (this.#parts.begin !== null) tokens.unshift(this.#parts.begin);
    if (this.#parts.end !== null) tokens.push(this.#parts.end);
    return tokens;
  }

  /** Applies the long-input policy to tokenized inputs. */
  #fit(inputs: Token[][]): Token[][] {
    const max = this.identity.maxTokens;
    const long: LongInput[] = [];
    for (const [index, tokens] of inputs.entries()) {
      if (tokens.length > max) long.push({ index, tokens: tokens.length });
    }
    if (long.length === 0) return inputs;
    if (this.identity.longInput === "reject") throw new LongInputError(long, max);
    this.stats.truncated += long.length;
    const { end } = this.#parts;
    return inputs.map((tokens) => {
      if (tokens.length <= max) return tokens;
      // Keep the leading tokens and close with the end token, as the model was trained.
      return end === null ? tokens.slice(0, max) : [...tokens.slice(0, max - 1), end];
    });
  }

  async #embed(tokens: Token[]): Promise<Float32Array> {
    let embedding;
    try {
      embedding = await this.#parts.session.context.getEmbeddingFor(tokens);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new WayfinderError("model", `Cannot embed with '${this.identity.name}': ${reason}`, {
        cause: error,
      });
    }
    const vector = Float32Array.from(embedding.vector);
    if (!normalizeVector(vector)) {
      throw new WayfinderError(
        "model",
        `Cannot embed with '${this.identity.name}': got a zero vector`,
      );
    }
    return vector;
  }
}

/**
 * The tokens wrapped around every input, chosen as node-llama-cpp does; a
 * WordPiece model whose GGUF names its CLS token but no BOS gets CLS, since
 * BERT was trained with it.
 */
function _specialTokens(
  model: LlamaModel,
  metadata: Record<string, Record<string, unknown>>,
): [Token | null, Token | null] {
  const { tokens, vocabularyType } = model;
  let begin: Token | null = null;
  let end: Token | null = null;
  // The enum's values, spelled out: the module loads only with a model (see llama_runtime.ts).
  if (vocabularyType === ("wpm" as LlamaVocabularyType.wpm)) {
    const cls = (metadata.tokenizer as Record<string, Record<string, unknown>> | undefined)?.ggml
      ?.cls_token_id;
    begin = tokens.bos ?? (typeof cls === "number" ? cls as Token : null);
    end = tokens.sep;
  } else if (vocabularyType === ("ugm" as LlamaVocabularyType.ugm)) {
    end = tokens.eos;
  } else if (vocabularyType !== ("rwkv" as LlamaVocabularyType.rwkv)) {
    if (tokens.shouldPrependBosToken) begin = tokens.bos;
    if (tokens.shouldAppendEosToken) end = tokens.eos;
  }
  return [begin, end];
}
