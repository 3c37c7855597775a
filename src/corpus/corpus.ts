/**
 * The front door's shape: the `Corpus` interface and the options it and
 * `openCorpus` take. `open_corpus.ts` implements it.
 */
import type { Embedder } from "../embed/mod.ts";
import type {
  FitInputsOptions,
  FitInputsReport,
  IndexEvent,
  IndexProgress,
  IndexSummary,
  PartialPublishing,
} from "../pipeline/mod.ts";
import type { ContextEntry, KnowledgePolicy } from "../okf/mod.ts";
import type {
  PassageScorer,
  Searcher,
  SearchFilter,
  SearchHit,
  SearchMode,
} from "../search/mod.ts";
import type { Chunk } from "../types.ts";
import type { IndexSettings } from "./corpus_settings.ts";
import type { BuildSettingName } from "./rebuild_command.ts";
import type { CorpusStatus } from "./corpus_status.ts";
import type { FileLines } from "./read_lines.ts";
import type { EmbedderSettings, Locations, RerankerSettings } from "./open_models.ts";

/** How to open a corpus. Every field is optional. */
export interface CorpusOptions extends IndexSettings {
  /** The index folder. @default `<dataDir>/indexes/<root name>-<hash of its path>` */
  indexDir?: string;
  /** The data root. @default $WAYFINDER_DATA_DIR, $XDG_DATA_HOME/wayfinder or ~/.local/share/wayfinder */
  dataDir?: string;
  /** An open embedder (the caller closes it), or settings to open one. */
  embedder?: Embedder | EmbedderSettings;
  /** An open cross-encoder (the caller closes it), or settings to open one when a search reranks. */
  reranker?: PassageScorer | RerankerSettings;
  /**
   * Index the tree as an OKF knowledge bundle. @default what the index
   * recorded, else true when the root `index.md` declares `okf_version`
   */
  knowledge?: boolean;
  /**
   * Who reads the corpus's errors and notices, so the fix each names is one
   * that reader can make: "cli" (`run 'wayfinder index …'`, `--mode lexical`),
   * "tools" for an agent calling the MCP tools (`call the index tool`,
   * `mode: "lexical"`) or "library" (`call corpus.index()`, `{ mode: "lexical" }`).
   * @default "cli"
   */
  hintsFor?: "cli" | "tools" | "library";
}

/** `CorpusOptions` as the CLI fills them from flags, the environment and wayfinder.json. */
export interface ConfiguredCorpusOptions extends CorpusOptions {
  /** Where a compiled binary's models and grammars are looked for first. */
  locations?: Locations;
  /**
   * The settings above that came from an environment variable or
   * wayfinder.json rather than from the caller: a rebuild run in the same
   * place reads them again, so the `index --rebuild` command a stale-index
   * error names repeats only the others (and what the index recorded).
   */
  fromConfig?: readonly BuildSettingName[];
}

/** How one search ranks and what it returns. */
export interface CorpusSearchOptions {
  /** @default 10 */
  /** Hits wanted. @default 10 */
  limit?: number;
  /** @default "dense"; `bm25` is read as `lexical` */
  /** How to rank. @default "dense"; `bm25` is read as `lexical` */
  mode?: SearchMode | "bm25";
  /** Drops hits whose dense cosine similarity (`scores.dense`) is below this, whatever ranks them. */
  minScore?: number;
  /** Restricts hits by path glob, chunk type and language. */
  filter?: SearchFilter;
  /** Rerank the top this many candidates (true: 50); below `limit`, the rest follow unreranked. */
  rerank?: boolean | number;
  /** Maximal marginal relevance over a larger pool (true: λ 0.5, 4 × limit candidates). */
  diverse?: boolean | { lambda?: number; fetchK?: number };
  /** Return each hit with its enclosing declaration, section or file, one hit per context. */
  expand?: boolean;
  /** Also build prompt-ready context of at most this many characters. */
  contextChars?: number;
  /** A knowledge bundle's policy: lifecycle, scope, governing sources, links. */
  policy?: KnowledgePolicy;
}

/** Hits best first, the prompt context when asked for, and what the caller should be told. */
export interface CorpusSearchResult {
  /** The query as searched: trimmed. */
  query: string;
  /** Hits, best first. */
  matches: SearchHit[];
  /** A knowledge bundle's context: each passage with why it is there, in reading order. */
  context?: ContextEntry[];
  /** Present when `contextChars` was given. */
  contextText?: string;
  /** What the caller should be told: a stale index, a cut query, a policy ignored. */
  notices: string[];
}

/** How one `corpus.index()` run reports and behaves. */
export interface CorpusIndexOptions {
  /** Rebuild from scratch instead of reusing what is unchanged. */
  rebuild?: boolean;
  /** Called as the run walks, chunks, embeds and writes. */
  onProgress?: (p: IndexProgress) => void;
  /** started, file, batch, partial, published, failed: one JSON-ready object each. */
  onEvent?: (event: IndexEvent) => void;
  /** Abandons the run before it publishes (a partial generation already published stays live). */
  signal?: AbortSignal;
  /**
   * When to publish searchable generations before every passage is embedded,
   * or `false` for one publish at the end. @default PARTIAL_PUBLISHING
   */
  partial?: Partial<PartialPublishing> | false;
}

/**
 * One source tree and its index: the library's front door, as `openCorpus`
 * returns it.
 *
 * @example A searcher to drive yourself, with its own reranker on top
 * ```ts
 * import assert from "node:assert/strict";
 * import { FakeEmbedder } from "../embed/mod.ts";
 * import { rerankingSearcher } from "../search/mod.ts";
 * import { openCorpus } from "./mod.ts";
 *
 * const dataDir = await Deno.makeTempDir();
 * const corpus = await openCorpus("fixtures/corpus", { dataDir, embedder: new FakeEmbedder() });
 * await corpus.index();
 * // Any PassageScorer reranks: this one prefers short passages.
 * const shortest = { rank: (_query: string, texts: string[]) => Promise.resolve(texts.map((t) => -t.length)) };
 * const searcher = rerankingSearcher(await corpus.searcher({ mode: "hybrid" }), shortest);
 * const { matches } = await searcher.search({ query: "encrypt sensitive data", limit: 3 });
 * const lengths = matches.map((hit) => hit.chunk.content.length);
 * assert.deepEqual(lengths, [...lengths].sort((a, b) => a - b));
 * await corpus.close();
 * await Deno.remove(dataDir, { recursive: true });
 * ```
 */
export interface Corpus {
  /** The tree's absolute path. */
  readonly root: string;
  /** The index folder. */
  readonly indexDir: string;
  /** The data root; never indexed, even when it lies inside `root`. */
  readonly dataDir: string;
  /** Brings the index up to date; unchanged files cost nothing. */
  index(options?: CorpusIndexOptions): Promise<IndexSummary>;
  /** ready, indexing, stale, failed or absent, and why; loads no model. */
  status(): Promise<CorpusStatus>;
  /**
   * Walks, chunks and fits the tree as `index` does, with the same fitter and
   * the model's tokenizer, and reports how its embedding inputs fit the token
   * budget. Nothing is embedded or written. With `showInputs` the report
   * lists each input's text as `index` would embed it.
   */
  fitInputs(options?: FitInputsOptions): Promise<FitInputsReport>;
  /** Searches the live generation (re-opened when a newer one is published). */
  search(query: string, options?: CorpusSearchOptions): Promise<CorpusSearchResult>;
  /**
   * The composed searcher `search` uses, for callers that drive it themselves;
   * it checks each query as `search` does (empty, over the model's budget).
   */
  searcher(
    options?: Omit<CorpusSearchOptions, "limit" | "minScore" | "filter" | "contextChars">,
  ): Promise<Searcher>;
  /**
   * The stored passage with this id (a search hit's `chunk.id`): its path,
   * lines, type, language, symbol and content as the live generation holds
   * them, content read now. Loads no model.
   * @returns undefined when the live generation has no chunk with that id
   *   (ids change when their file's passage changes).
   * @throws {WayfinderError} "no_index" when nothing was indexed yet.
   */
  chunk(id: string): Promise<Chunk | undefined>;
  /**
   * The lines of a file the live generation holds, as the file reads now,
   * and whether its content changed since it was indexed. Loads no model.
   * @param path Relative to the root, `/`-separated (a hit's `chunk.sourcePath`).
   * @returns undefined when the live generation does not hold `path`.
   * @throws {WayfinderError} "no_index" when nothing was indexed yet; "io"
   *   when the file cannot be read now (deleted, or a permission taken away).
   */
  readLines(path: string): Promise<FileLines | undefined>;
  /**
   * Whether a change at this absolute path cannot change the index: it lies
   * outside the root, in the index or data folder, or where the walk `index`
   * does never looks (ignore files, default excludes, the globs).
   */
  ignores(path: string): Promise<boolean>;
  /** Releases the models this corpus opened. */
  close(): Promise<void>;
}
