/**
 * A corpus whose index lives in a PostgreSQL database or an Orama file.
 * `index` runs as on the local index, which stays the working copy a run
 * edits (asking the store's cache before embedding anything), then sends the
 * store what differs; `search`, `chunk` and `readLines` answer from the
 * store alone, so a machine without the local index (or the tree) can search
 * what another machine or CI published.
 */
import { WayfinderError } from "../error.ts";
import type { Hints } from "../hints.ts";
import { worded } from "../hints.ts";
import { asksAnything } from "../okf/mod.ts";
import {
  contentHasher,
  embeddingInput,
  type FitInputsOptions,
  type FitInputsReport,
  type IndexSummary,
  type SharedVectors,
} from "../pipeline/mod.ts";
import { rowsIn } from "../row_ranges.ts";
import { rerankingSearcher, type Searcher, storeSearcher } from "../search/mod.ts";
import {
  hasEmbeddingCache,
  type IndexLock,
  type IndexManifest,
  openIndex,
  openRemoteStore,
  planSync,
  readManifest,
  type Store,
  type StoreReader,
  type StoreUrl,
  syncStore,
} from "../store/mod.ts";

function inStep(plan: { fresh: boolean; changed: string[]; removed: string[] }): boolean {
  return !plan.fresh && plan.changed.length === 0 && plan.removed.length === 0;
}
import type { Chunk } from "../types.ts";
import { checkSearchOptions } from "./check_search_options.ts";
import { checkedQuerySearcher, searchableQuery } from "./checked_query.ts";
import type {
  ConfiguredCorpus,
  ConfiguredIndexOptions,
  ConfiguredSearchOptions,
  ConfiguredSearchResult,
} from "./corpus.ts";
import type { StatusReport } from "./corpus_status.ts";
import type { QueryEmbeddings } from "./query_embeddings.ts";
import { type FileLines, readIndexedLines } from "./read_lines.ts";
import {
  addContextText,
  type CheckedSearchOptions,
  citedChanges,
  codeRanking,
  defaultMode,
  rerankedFloorNotice,
} from "./search_assembly.ts";
import type { PassageScorer } from "../search/mod.ts";

/** The local corpus a store corpus keeps as its working copy, and what it shares with it. */
export interface WorkingCopy extends ConfiguredCorpus {
  index(
    options?: ConfiguredIndexOptions & { lock?: IndexLock; sharedVectors?: SharedVectors },
  ): Promise<IndexSummary>;
  readonly parts: {
    hints: Hints;
    queries: QueryEmbeddings;
    reranker(what: string): Promise<PassageScorer>;
  };
}

/** How often a long-lived corpus (the MCP server's) looks for a generation published elsewhere. */
const RECHECK_MS = 2_000;

/** A corpus over a PostgreSQL or Orama store; `openCorpus` opens it for a `store` URL. */
export class StoreCorpus implements ConfiguredCorpus {
  #store: Promise<Store> | null = null;
  #reader: StoreReader | null = null;
  #checkedAt = 0;
  #inputHash: Promise<(chunk: Chunk) => string> | null = null;

  constructor(
    private readonly local: WorkingCopy,
    private readonly url: Exclude<StoreUrl, { kind: "local" }>,
    private readonly suffix?: string,
  ) {}

  get root(): string {
    return this.local.root;
  }
  get indexDir(): string {
    return this.local.indexDir;
  }
  get dataDir(): string {
    return this.local.dataDir;
  }

  /** The local working copy: what the stages inside wayfinder that read an index itself read. */
  get workingCopy(): ConfiguredCorpus {
    return this.local;
  }

  /** Indexes into the working copy (under `lock`, when a watcher holds it), then updates the store. */
  index(run: ConfiguredIndexOptions & { lock?: IndexLock } = {}): Promise<IndexSummary> {
    return this.#worded(async () => {
      const store = await this.#open();
      const summary = await this.local.index({
        ...run,
        sharedVectors: (fingerprint, dimensions, hashes) =>
          this.#shared(store, fingerprint, dimensions, hashes),
      });
      const source = await openIndex(this.indexDir, { root: this.root, vectors: "lazy" });
      if (!source) return summary;
      try {
        const sync = await syncStore(store, source, await this.#hash());
        await this.#dropReader();
        return {
          ...summary,
          store: {
            location: store.location,
            generation: sync.generation,
            changedFiles: sync.changed,
            removedFiles: sync.removed,
          },
        };
      } finally {
        await source.close?.();
      }
    });
  }

  fitInputs(options?: FitInputsOptions): Promise<FitInputsReport> {
    return this.local.fitInputs(options);
  }

  status(): Promise<StatusReport> {
    return this.#worded(async () => {
      const report = await this.local.status();
      const store = await this.#open();
      const [theirs, held] = await Promise.all([store.manifest(), store.status()]);
      const ours = await readManifest(this.indexDir, this.root).catch(() => null);
      report.store = {
        location: store.location,
        generation: held.generation,
        chunks: held.chunkCount,
        pending: rowsIn(held.pending),
        inStep: theirs !== null && ours !== null && inStep(planSync(theirs, ours)),
      };
      // A machine that only searches what CI published has no working copy: the store is the index.
      if (report.state === "absent" && theirs) Object.assign(report, statusOf(theirs, held));
      return report;
    });
  }

  search(query: string, asked: ConfiguredSearchOptions = {}): Promise<ConfiguredSearchResult> {
    return this.#worded(async () => {
      const text = searchableQuery(query);
      const options = checkSearchOptions(asked);
      const reader = await this.#live();
      const searcher = await this.#stack(reader, options);
      const result = await searcher.search({
        query: text,
        limit: options.limit ?? 10,
        minScore: options.minScore,
        filter: options.filter,
      });
      const response: ConfiguredSearchResult = {
        query: text,
        matches: result.matches,
        notices: result.notices,
      };
      const cited = await citedChanges(
        reader.manifest.files,
        response.matches,
        this.root,
        this.#hints,
      );
      response.notices.unshift(...this.#coverage(reader, options), ...cited);
      response.notices.push(...rerankedFloorNotice(options));
      addContextText(response, options, this.root);
      return response;
    });
  }

  searcher(
    asked: Omit<ConfiguredSearchOptions, "limit" | "minScore" | "filter" | "contextChars"> = {},
  ): Promise<Searcher> {
    return this.#worded(async () => {
      const inner = await this.#stack(await this.#live(), checkSearchOptions(asked));
      return { search: (request) => this.#worded(() => inner.search(request)) };
    });
  }

  chunk(id: string): Promise<Chunk | undefined> {
    return this.#worded(async () => (await (await this.#live()).chunk(id)) ?? undefined);
  }

  readLines(path: string): Promise<FileLines | undefined> {
    return this.#worded(async () =>
      readIndexedLines(this.root, (await this.#live()).manifest.files, path)
    );
  }

  ignores(path: string): Promise<boolean> {
    return this.local.ignores(path);
  }

  async close(): Promise<void> {
    await this.#dropReader();
    const store = this.#store;
    this.#store = null;
    await (await store?.catch(() => null))?.close();
    await this.local.close();
  }

  get #hints(): Hints {
    return this.local.parts.hints;
  }

  async #worded<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw worded(error, this.#hints);
    }
  }

  #open(): Promise<Store> {
    this.#store ??= this.#hash()
      .then((inputHash) =>
        openRemoteStore(this.url, { root: this.root, suffix: this.suffix, inputHash })
      )
      .catch((error) => {
        this.#store = null;
        throw error;
      });
    return this.#store;
  }

  /** The embedding-input hash, as the index run computes it. */
  #hash(): Promise<(chunk: Chunk) => string> {
    this.#inputHash ??= contentHasher().then((hash) => (chunk: Chunk) =>
      hash(embeddingInput(chunk))
    );
    return this.#inputHash;
  }

  async #shared(
    store: Store,
    fingerprint: string,
    dimensions: number,
    hashes: readonly string[],
  ): Promise<Map<string, Float32Array>> {
    if (hasEmbeddingCache(store)) return store.cachedVectors(fingerprint, dimensions, hashes);
    const reader = await store.open();
    try {
      if (!reader || reader.manifest.fingerprint !== fingerprint) return new Map();
      return await reader.vectorsByInput(hashes);
    } finally {
      await reader?.close();
    }
  }

  /** The store's live generation, opened again when another one was published since. */
  async #live(): Promise<StoreReader> {
    const store = await this.#open();
    if (this.#reader && Date.now() - this.#checkedAt < RECHECK_MS) return this.#reader;
    const live = (await store.status()).generation;
    this.#checkedAt = Date.now();
    if (this.#reader && this.#reader.generation === live) return this.#reader;
    await this.#dropReader();
    const reader = live === null ? null : await store.open();
    if (!reader) {
      throw new WayfinderError(
        "no_index",
        `No index for ${this.root} in ${store.location}; ${this.#hints.index(this.root)} first`,
      );
    }
    if (reader.manifest.settings?.knowledge) {
      await reader.close();
      throw new WayfinderError(
        "usage",
        `Cannot search the knowledge bundle ${this.root} in ${store.location}: knowledge search reads the local index; search it without a store`,
      );
    }
    this.#reader = reader;
    return reader;
  }

  async #dropReader(): Promise<void> {
    const reader = this.#reader;
    this.#reader = null;
    await reader?.close();
  }

  async #stack(reader: StoreReader, options: CheckedSearchOptions): Promise<Searcher> {
    const unsupported = options.expand
      ? "expansion to the enclosing declaration"
      : options.diverse
      ? "diversity"
      : asksAnything(options.policy ?? {})
      ? "a knowledge policy"
      : null;
    if (unsupported) {
      throw new WayfinderError(
        "usage",
        `Cannot search ${this.root} with ${unsupported} in ${
          (await this.#open()).location
        }: it reads the local index; search without a store for that`,
      );
    }
    const { queries, reranker } = this.local.parts;
    const mode = options.mode ?? defaultMode(false);
    const embeds = mode !== "lexical";
    let searcher: Searcher = storeSearcher(reader, {
      mode,
      embedQuery: embeds ? await queries.embedding(reader) : undefined,
      ...codeRanking(mode, false),
    });
    if (options.rerank) {
      searcher = rerankingSearcher(searcher, await reranker(this.#hints.rerankOption()), {
        candidates: options.rerank === true ? 50 : options.rerank,
        text: embeddingInput,
      });
    }
    return checkedQuerySearcher(searcher, embeds ? queries.fits(reader) : undefined);
  }

  /** Says when the store's generation was published before every passage had its vector. */
  #coverage(reader: StoreReader, options: CheckedSearchOptions): string[] {
    const waiting = rowsIn(reader.manifest.pending ?? []);
    if (waiting === 0 || options.mode === "lexical") return [];
    const total = reader.chunkCount;
    return [
      `dense covers ${(total - waiting).toLocaleString("en")} of ${
        total.toLocaleString("en")
      } chunks; ${this.#hints.index(this.root)} to embed the rest`,
    ];
  }
}

/** The status fields a store's generation gives, for a machine with no working copy. */
function statusOf(
  manifest: IndexManifest,
  held: { generation: string | null; chunkCount: number; bytes?: number },
): Partial<StatusReport> {
  const { identity } = manifest;
  return {
    state: "ready",
    generation: held.generation,
    updatedAt: manifest.createdAt,
    files: Object.keys(manifest.files).length,
    chunks: held.chunkCount,
    model: {
      name: identity.name,
      provider: identity.provider,
      sha256: identity.sha256,
      dimensions: identity.dimensions,
    },
    diskBytes: held.bytes ?? 0,
  };
}
