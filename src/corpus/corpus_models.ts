/**
 * The models one corpus opens: its embedder and cross-encoder, each opened
 * once on first use and kept until `close`, and the code chunker. Models the
 * caller passed in open are used as they are and never closed here.
 */
import type { Embedder, Reranker } from "../embed/mod.ts";
import type { Hints } from "../hints.ts";
import type { CodeChunker } from "../chunk/mod.ts";
import type { PassageScorer } from "../search/mod.ts";
import {
  type EmbedderSettings,
  type Locations,
  openCodeChunker,
  openEmbedder,
  openReranker,
  type RerankerSettings,
} from "./open_models.ts";
import { BUILD_DEFAULTS } from "../build_defaults.ts";

/** An open embedder, as opposed to settings to open one. */
export function isEmbedder(value: unknown): value is Embedder {
  return typeof (value as Embedder)?.embedQuery === "function";
}

function isScorer(value: unknown): value is PassageScorer {
  return typeof (value as PassageScorer)?.rank === "function";
}

/** What a corpus's caller gave for its models. */
export interface ModelChoices {
  embedder?: Embedder | EmbedderSettings;
  reranker?: PassageScorer | RerankerSettings;
  locations?: Locations;
}

/** A corpus's models, opened on first use. */
export class CorpusModels {
  #embedder: Promise<Embedder> | null = null;
  #reranker: Promise<PassageScorer> | null = null;
  #owned: { close(): Promise<void> }[] = [];

  constructor(private readonly given: ModelChoices, private readonly hints: Hints) {}

  /** The caller's embedder, else the one `settings` describe, opened once. */
  embedder(settings: EmbedderSettings): Promise<Embedder> {
    const given = this.given.embedder;
    if (isEmbedder(given)) return Promise.resolve(given);
    this.#embedder ??= openEmbedder(settings, this.given.locations, this.hints).then((embedder) => {
      this.#owned.push(embedder);
      return embedder;
    }, (error) => {
      // A failed open (a server down for a moment) is not kept: the next run opens again.
      this.#embedder = null;
      throw error;
    });
    return this.#embedder;
  }

  /**
   * An embedder that only counts tokens, and a release for it. An HTTP
   * embedder counts them by estimate: it needs no server, so one is opened
   * without the probe that learns the vector size, and closed after.
   */
  async counter(
    settings: EmbedderSettings,
  ): Promise<{ embedder: Embedder; release(): Promise<void> }> {
    const counting = this.#embedder === null && !isEmbedder(this.given.embedder) &&
      (settings.provider ?? BUILD_DEFAULTS.provider) !== "llama";
    if (!counting) return { embedder: await this.embedder(settings), release: async () => {} };
    const embedder = await openEmbedder(
      { ...settings, dimensions: 0 },
      this.given.locations,
      this.hints,
    );
    return { embedder, release: () => embedder.close() };
  }

  /** The caller's cross-encoder, else the one its settings name; `what` asked for reranking. */
  reranker(what: string): Promise<PassageScorer> {
    const given = this.given.reranker;
    if (isScorer(given)) return Promise.resolve(given);
    this.#reranker ??= openReranker(given ?? {}, what, this.hints).then((reranker: Reranker) => {
      this.#owned.push(reranker);
      return reranker;
    }, (error) => {
      // As for the embedder: a failed open is tried again by the next search.
      this.#reranker = null;
      throw error;
    });
    return this.#reranker;
  }

  /** The tree-sitter chunker, with the grammars a compiled binary ships. */
  chunker(): Promise<CodeChunker> {
    return openCodeChunker(this.given.locations);
  }

  /** Closes the models opened here, newest first. */
  async close(): Promise<void> {
    const owned = this.#owned;
    this.#owned = [];
    this.#embedder = this.#reranker = null;
    for (const thing of owned.reverse()) await thing.close();
  }
}
