import type { LlamaModel, LlamaRankingContext, LlamaVocabularyType, Token } from "node-llama-cpp";
import { WayfinderError } from "../error.ts";
import type { Reranker } from "./reranker.ts";
import { openLlamaModel } from "./llama_open_model.ts";
import type { LlamaSession } from "./llama_session.ts";

/** Options for {@linkcode LlamaReranker.create}. */
export interface LlamaRerankerOptions {
  /** Path to a GGUF cross-encoder (pooling type "rank", with a classification head). */
  modelPath: string;
  /** CPU threads for llama.cpp; required because its default oversubscribes shared machines. */
  threads: number;
  /** Token budget of one (query, passage) pair. @default {the model's training context} */
  contextSize?: number;
}

interface Parts {
  session: LlamaSession<LlamaRankingContext>;
  /** Most tokens one pair may take, special tokens included. */
  budget: number;
  /** Added around the query and after the document, for WordPiece models (see {@link _bertWrap}). */
  wrap: { begin: Token | null; end: Token | null };
}

/**
 * Scores (query, passage) pairs in process with llama.cpp's rank pooling
 * (through node-llama-cpp) on the CPU. Scores are sigmoid probabilities in
 * 0..1. A pair over the token budget keeps the query and the passage's
 * leading tokens, as cross-encoders are trained to truncate.
 */
export class LlamaReranker implements Reranker {
  /** Passages cut to fit the token budget since creation. */
  readonly stats: { truncated: number } = { truncated: 0 };
  readonly #parts: Parts;

  private constructor(parts: Parts) {
    this.#parts = parts;
  }

  /**
   * Loads the model and a ranking context.
   *
   * @throws {WayfinderError} "no_model" when the file is missing, "model" when llama.cpp
   * cannot load it or it is not a reranker.
   */
  static async create(options: LlamaRerankerOptions): Promise<LlamaReranker> {
    let budget = 0;
    const session = await openLlamaModel(
      options.modelPath,
      options.threads,
      "reranker",
      (model) => {
        if (!model.fileInsights.supportsRanking) {
          throw new WayfinderError(
            "model",
            `Cannot load reranker '${options.modelPath}': it has no classification head (cls.weight or cls.output.weight); it looks like an embedding model`,
          );
        }
        budget = Math.min(model.trainContextSize, options.contextSize ?? Infinity);
        // node-llama-cpp refuses inputs as long as the context, hence the +1;
        // the whole pair must fit one batch because BERT attention is not causal.
        return model.createRankingContext({
          threads: options.threads,
          contextSize: budget + 1,
          batchSize: budget + 1,
        });
      },
    );
    return new LlamaReranker({ session, budget, wrap: _bertWrap(session.model) });
  }

  /** Scores each document against the query; one llama.cpp evaluation per document. */
  rank(query: string, documents: string[]): Promise<number[]> {
    return this.#parts.session.use(() => this.#rank(query, documents));
  }

  /**
   * Waits for calls in flight, then frees the context, the model and the
   * hold on the shared llama.cpp runtime, in that order. Safe to call more
   * than once; any call after it fails with an "internal" WayfinderError.
   */
  close(): Promise<void> {
    return this.#parts.session.close();
  }

  async #rank(query: string, documents: string[]): Promise<number[]> {
    if (documents.length === 0) return [];
    const { budget } = this.#parts;
    const { context } = this.#parts.session;
    const queryTokens = this.#tokenize(query, "query");
    // Room for a document once the query and special tokens are in.
    const overhead = context.calculateInputLength(queryTokens, this.#tokenize("", "document"));
    if (overhead >= budget) {
      throw new WayfinderError(
        "input",
        `Cannot rerank: the query takes ${overhead} of the reranker's ${budget} tokens`,
      );
    }
    const inputs = documents.map((document) => {
      const tokens = this.#tokenize(document, "document");
      const length = context.calculateInputLength(queryTokens, tokens);
      if (length <= budget) return tokens;
      this.stats.truncated++;
      const { end } = this.#parts.wrap;
      const keep = budget - overhead;
      return end === null ? tokens.slice(0, keep) : [...tokens.slice(0, keep), end];
    });
    return await context.rankAll(queryTokens, inputs);
  }

  #tokenize(text: string, kind: "query" | "document"): Token[] {
    const tokens = text ? this.#parts.session.model.tokenize(text) : [];
    const { begin, end } = this.#parts.wrap;
    if (kind === "query" && begin !== null) tokens.unshift(begin);
    if (kind === "document" && end !== null) tokens.push(end);
    return tokens;
  }
}

/**
 * node-llama-cpp joins a pair as `[BOS] query [EOS] [SEP] document [EOS]`,
 * leaving out what it lacks. A WordPiece (BERT) GGUF has no BOS or EOS, which
 * would give `query [SEP] document`; BERT cross-encoders were trained on
 * `[CLS] query [SEP] document [SEP]`, and rank pooling reads the first
 * token, so the CLS and the closing SEP are added here.
 */
function _bertWrap(model: LlamaModel): Parts["wrap"] {
  const { tokens } = model;
  if (model.vocabularyType !== ("wpm" as LlamaVocabularyType.wpm)) {
    return { begin: null, end: null };
  }
  const metadata = model.fileInfo.metadata as unknown as {
    tokenizer?: { ggml?: { cls_token_id?: number } };
  };
  const cls = metadata.tokenizer?.ggml?.cls_token_id;
  return {
    begin: tokens.bos === null && typeof cls === "number" ? cls as Token : null,
    end: tokens.eos === null ? tokens.sep : null,
  };
}
