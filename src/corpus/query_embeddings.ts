/**
 * A corpus's queries on their way to a vector: checked against the model's
 * token budget, checked against the index's model, and embedded once per
 * text (runs and repeated questions ask the same query again).
 */
import { type Embedder, identityFingerprint } from "../embed/mod.ts";
import { WayfinderError } from "../error.ts";
import type { Hints, RebuildFix } from "../hints.ts";
import { assertSameModel, type IndexManifest, type RecordedSettings } from "../store/mod.ts";
import { queryOverBudget } from "./query_budget.ts";

/** What a query's embedding is checked against: the manifest of the index it searches, wherever it lives. */
export interface IndexView {
  manifest: IndexManifest;
}

/** The embedder an index's queries need, and the rebuild that would serve other settings. */
export interface QueryModel {
  embedderOf(index: IndexView): Promise<Embedder>;
  rebuildFix(recorded: RecordedSettings | undefined): Promise<RebuildFix>;
}

/** Query vectors by text, at most this many, then the cache starts over. */
const CACHED_QUERIES = 1024;

/** Query embedding for one corpus, with its cache. */
export class QueryEmbeddings {
  #queries = new Map<string, Promise<Float32Array>>();

  constructor(
    private readonly root: string,
    private readonly hints: Hints,
    private readonly model: QueryModel,
  ) {}

  /** The embedder, checked against the index's model, as a memoised query embedding function. */
  async embedding(index: IndexView): Promise<(query: string) => Promise<Float32Array>> {
    const embedder = await this.model.embedderOf(index);
    const { manifest } = index;
    const fingerprint = identityFingerprint(embedder.identity);
    if (manifest.fingerprint !== fingerprint) {
      const command = await this.model.rebuildFix(manifest.settings);
      assertSameModel(manifest, embedder.identity, fingerprint, this.root, command);
    }
    return (query) => {
      if (!this.#queries.has(query)) {
        if (this.#queries.size >= CACHED_QUERIES) this.#queries.clear();
        this.#queries.set(query, embedder.embedQuery(query));
      }
      return this.#queries.get(query)!;
    };
  }

  /**
   * Applies the model's long-input rule to a query before it is embedded,
   * with a message about the query rather than about input #0.
   * @returns For each query, a notice when it was cut.
   */
  fits(index: IndexView): (query: string) => Promise<string[]> {
    return async (query) => {
      const embedder = await this.model.embedderOf(index);
      const { maxTokens, longInput, name } = embedder.identity;
      const tokens = await queryOverBudget(embedder, query);
      if (tokens === null) return [];
      if (longInput === "reject") {
        throw new WayfinderError(
          "long_input",
          `Cannot search: the query is ${tokens} tokens, more than the ${maxTokens} that model '${name}' takes; shorten it or search with ${this.hints.lexicalMode()}`,
        );
      }
      return [`The query was cut to its first ${maxTokens} of ${tokens} tokens for the model`];
    };
  }
}
