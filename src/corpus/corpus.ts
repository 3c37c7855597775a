/**
 * The front door's shape: the `Corpus` interface and the options it and
 * `openCorpus` take, and `ConfiguredCorpus`, the same corpus with what only
 * the commands and the MCP server use. `open_corpus.ts` implements both.
 */
import type { Embedder } from "../embed/mod.ts";
import type {
  FitInputsOptions,
  FitInputsReport,
  IndexEvent,
  IndexSummary,
  PartialPublishing,
} from "../pipeline/mod.ts";
import type { ContextEntry, KnowledgePolicy } from "../okf/mod.ts";
import type { PassageScorer, Searcher, SearchFilter, SearchHit } from "../search/mod.ts";
import type { Chunk } from "../types.ts";
import type { BuildSettingName } from "./rebuild_command.ts";
import type { CorpusStatus, StatusReport } from "./corpus_status.ts";
import type { EmbedderSettings, Locations } from "./open_models.ts";

/**
 * How to open a corpus. Every field is optional.
 *
 * @example Index only the Markdown of a tree
 * ```ts
 * import assert from "node:assert/strict";
 * import { FakeEmbedder, openCorpus } from "../mod.ts";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/auth.ts`, "export function refreshToken() {\n  return fetchToken();\n}\n");
 * await Deno.writeTextFile(`${root}/README.md`, "# Auth\n\nRefresh the token before it expires.\n");
 * const dataDir = await Deno.makeTempDir();
 * const corpus = await openCorpus(root, { dataDir, embedder: new FakeEmbedder(), include: ["*.md"] });
 * const summary = await corpus.index();
 * assert.equal(summary.files.seen, 1);
 * await corpus.close();
 * await Deno.remove(root, { recursive: true });
 * await Deno.remove(dataDir, { recursive: true });
 * ```
 */
export interface CorpusOptions {
  /**
   * Only paths matching one of these globs; a glob naming a default exclude
   * only adds it back. @default [] (everything)
   */
  include?: string[];
  /** Skip paths matching these globs. @default [] */
  exclude?: string[];
  /** Skip larger files. @default 1048576 */
  maxFileBytes?: number;
  /** Chunk budget in non-whitespace characters. @default 1000 */
  maxChunkChars?: number;
  /** Vector codes kept for a fast first pass of dense search. @default "none" */
  quantization?: "none" | "int8" | "binary";
  /** The index folder. @default `<dataDir>/indexes/<root name>-<hash of its path>` */
  indexDir?: string;
  /**
   * Where the index lives, when not in the local index folder:
   * `postgres://user@host/db#corpus` (PostgreSQL with pgvector; the corpus
   * name defaults to the root's folder name) or `orama:FILE` (an Orama
   * database file). `index` keeps the local index as its working copy and
   * publishes what changed to the store; `search`, `readLines` and `status`
   * read the store. A plain folder is the local index folder (`indexDir`).
   * @default the local index folder
   */
  store?: string;
  /** The data root. @default $WAYFINDER_DATA_DIR, $XDG_DATA_HOME/wayfinder or ~/.local/share/wayfinder */
  dataDir?: string;
  /** An open embedder (the caller closes it), or settings to open one. */
  embedder?: Embedder | EmbedderSettings;
  /**
   * An open cross-encoder (the caller closes it), or settings to open one
   * when a search reranks: a GGUF cross-encoder's path, or a TEI server's
   * base URL (its `/rerank`), with the HTTP timeout (30000 ms) and llama.cpp threads.
   */
  reranker?: PassageScorer | { model?: string; url?: string; timeoutMs?: number; threads?: number };
  /**
   * Index the tree as an OKF knowledge bundle. @default what the index
   * recorded, else true when the root `index.md` declares `okf_version`
   */
  knowledge?: boolean;
  /**
   * Keep a static tier while a transformer embeds: when a static model sits
   * beside the GGUF (`model prepare --static`), each index run first brings a
   * static index of the tree up to date (seconds), and dense and hybrid
   * searches rank the files the transformer has not embedded yet with it.
   * @default true
   */
  staticTier?: boolean;
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
  /** Appended to a PostgreSQL corpus or Orama file name: an evaluation's index beside the user's. */
  storeSuffix?: string;
}

/**
 * How one search ranks and what it returns.
 *
 * @example Lexical search restricted to one language
 * ```ts
 * import assert from "node:assert/strict";
 * import { FakeEmbedder, openCorpus } from "../mod.ts";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/auth.ts`, "export function refreshToken() {\n  return fetchToken();\n}\n");
 * await Deno.writeTextFile(`${root}/README.md`, "# Auth\n\nRefresh the token before it expires.\n");
 * const dataDir = await Deno.makeTempDir();
 * const corpus = await openCorpus(root, { dataDir, embedder: new FakeEmbedder() });
 * await corpus.index();
 * const { matches } = await corpus.search("refresh token", {
 *   mode: "lexical",
 *   limit: 5,
 *   filter: { languages: ["markdown"] },
 * });
 * assert.deepEqual(matches.map((hit) => hit.chunk.sourcePath), ["README.md"]);
 * await corpus.close();
 * await Deno.remove(root, { recursive: true });
 * await Deno.remove(dataDir, { recursive: true });
 * ```
 */
export interface CorpusSearchOptions {
  /** Hits wanted. @default 10 */
  limit?: number;
  /**
   * How to rank: "dense" cosine, "lexical" BM25, or "hybrid", both fused
   * (`bm25` is read as `lexical`). @default "hybrid" on a source tree,
   * "dense" on a knowledge bundle
   */
  mode?: "dense" | "lexical" | "hybrid" | "bm25";
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
  /**
   * Check the whole tree against the index first, as `status` does, so the
   * notices count exactly the files changed, added and deleted. By default
   * a search walks no tree: a running `watch` tells whether the index is
   * current, else one stat per folder the last index run listed finds files
   * added, removed or renamed (an edit in place shows only when a hit cites
   * that file).
   * @default false
   */
  checkFresh?: boolean;
}

/** `CorpusSearchOptions` with a knowledge bundle's policy, as the commands and the MCP server search. */
export interface ConfiguredSearchOptions extends CorpusSearchOptions {
  /** A knowledge bundle's policy: lifecycle, scope, governing sources, links. */
  policy?: KnowledgePolicy;
}

/**
 * Hits best first, the prompt context when asked for, and what the caller should be told.
 *
 * @example Hits and prompt-ready context
 * ```ts
 * import assert from "node:assert/strict";
 * import { FakeEmbedder, openCorpus } from "../mod.ts";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/auth.ts`, "export function refreshToken() {\n  return fetchToken();\n}\n");
 * await Deno.writeTextFile(`${root}/README.md`, "# Auth\n\nRefresh the token before it expires.\n");
 * const dataDir = await Deno.makeTempDir();
 * const corpus = await openCorpus(root, { dataDir, embedder: new FakeEmbedder() });
 * await corpus.index();
 * const result = await corpus.search("  refresh the token ", { mode: "hybrid", contextChars: 500 });
 * assert.equal(result.query, "refresh the token");
 * assert.ok(result.matches.length > 0);
 * assert.ok(result.contextText!.length <= 500);
 * await corpus.close();
 * await Deno.remove(root, { recursive: true });
 * await Deno.remove(dataDir, { recursive: true });
 * ```
 */
export interface CorpusSearchResult {
  /** The query as searched: trimmed. */
  query: string;
  /** Hits, best first. */
  matches: SearchHit[];
  /** Present when `contextChars` was given. */
  contextText?: string;
  /** What the caller should be told: a stale index, a cut query, a policy ignored. */
  notices: string[];
}

/** `CorpusSearchResult` with a knowledge bundle's context. */
export interface ConfiguredSearchResult extends CorpusSearchResult {
  /** A knowledge bundle's context: each passage with why it is there, in reading order. */
  context?: ContextEntry[];
}

/**
 * How one `corpus.index()` run reports and behaves.
 *
 * @example Follow a run through its stages
 * ```ts
 * import assert from "node:assert/strict";
 * import { FakeEmbedder, openCorpus } from "../mod.ts";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/auth.ts`, "export function refreshToken() {\n  return fetchToken();\n}\n");
 * await Deno.writeTextFile(`${root}/README.md`, "# Auth\n\nRefresh the token before it expires.\n");
 * const dataDir = await Deno.makeTempDir();
 * const corpus = await openCorpus(root, { dataDir, embedder: new FakeEmbedder() });
 * const phases = new Set<string>();
 * await corpus.index({ onProgress: (progress) => phases.add(progress.phase) });
 * assert.ok(phases.has("walk") && phases.has("embed"));
 * await corpus.close();
 * await Deno.remove(root, { recursive: true });
 * await Deno.remove(dataDir, { recursive: true });
 * ```
 */
export interface CorpusIndexOptions {
  /** Rebuild from scratch instead of reusing what is unchanged. */
  rebuild?: boolean;
  /**
   * Called as the run walks, chunks, embeds and writes: the stage running
   * now, files through it of the files the run goes through, and passages
   * embedded of the passages it will embed.
   */
  onProgress?: (progress: {
    phase: "walk" | "chunk" | "embed" | "write";
    filesDone: number;
    filesTotal: number;
    chunksDone: number;
    chunksTotal: number;
  }) => void;
  /** Abandons the run before it publishes (a partial generation already published stays live). */
  signal?: AbortSignal;
}

/** `CorpusIndexOptions` with the run's event stream and partial publishing, as the commands index. */
export interface ConfiguredIndexOptions extends CorpusIndexOptions {
  /** started, file, batch, partial, published, failed: one JSON-ready object each. */
  onEvent?: (event: IndexEvent) => void;
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
   * The lines of a file the live generation holds, as the file reads now,
   * and whether its content changed since it was indexed. Loads no model.
   * @param path Relative to the root, `/`-separated (a hit's `chunk.sourcePath`).
   * @returns The path as the index records it; every line, 1-based line N at
   *   index N-1 (a final newline ends the last line, it starts none); and
   *   `changedSinceIndex`, true when the file's content is not what the index
   *   recorded, so hits' lines may not match. Undefined when the live
   *   generation does not hold `path`.
   * @throws {WayfinderError} "no_index" when nothing was indexed yet; "io"
   *   when the file cannot be read now (deleted, or a permission taken away).
   */
  readLines(
    path: string,
  ): Promise<{ path: string; lines: string[]; changedSinceIndex: boolean } | undefined>;
  /** Releases the models this corpus opened. */
  close(): Promise<void>;
}

/**
 * The corpus `openConfiguredCorpus` opens for the commands and the MCP
 * server: a `Corpus` that also streams index events, publishes partial
 * generations, reports how inputs fit the model, searches with a knowledge
 * policy, reads a stored passage and says which paths it ignores.
 */
export interface ConfiguredCorpus extends Corpus {
  /** Brings the index up to date, reporting each event. */
  index(options?: ConfiguredIndexOptions): Promise<IndexSummary>;
  /** The status, with the running writer's progress and the last failed run. */
  status(): Promise<StatusReport>;
  /**
   * Walks, chunks and fits the tree as `index` does, with the same fitter and
   * the model's tokenizer, and reports how its embedding inputs fit the token
   * budget. Nothing is embedded or written. With `showInputs` the report
   * lists each input's text as `index` would embed it.
   */
  fitInputs(options?: FitInputsOptions): Promise<FitInputsReport>;
  /** Searches the live generation, a knowledge bundle's policy applied. */
  search(query: string, options?: ConfiguredSearchOptions): Promise<ConfiguredSearchResult>;
  /** The composed searcher `search` uses, a knowledge bundle's policy applied. */
  searcher(
    options?: Omit<ConfiguredSearchOptions, "limit" | "minScore" | "filter" | "contextChars">,
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
   * Whether a change at this absolute path cannot change the index: it lies
   * outside the root, in the index or data folder, or where the walk `index`
   * does never looks (ignore files, default excludes, the globs).
   */
  ignores(path: string): Promise<boolean>;
}
