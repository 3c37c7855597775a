import { isInside } from "../_paths.ts";
import { relative, resolve, sep } from "node:path";
import { dataRootFrom } from "../config/mod.ts";
import { WayfinderError } from "../error.ts";
import { type HintAudience, type Hints, hintsFor, type RebuildFix } from "../hints.ts";
import { rowsIn } from "../row_ranges.ts";
import { type Embedder, identityFingerprint, type Reranker } from "../embed/mod.ts";
import {
  embeddingInput,
  emitSkipped,
  eventEmitter,
  fitCorpus,
  type FitInputsOptions,
  type FitInputsReport,
  indexCorpus,
  type IndexEvent,
  type IndexProgress,
  type IndexSummary,
  KNOWLEDGE_INPUT_FORMAT,
  type PartialPublishing,
  publishedEvent,
  treeChanges,
} from "../pipeline/mod.ts";
import {
  asksAnything,
  type ContextEntry,
  describeEntry,
  type KnowledgePolicy,
  searchKnowledge,
} from "../okf/mod.ts";
import {
  assertSameModel,
  currentGeneration,
  indexDirFor,
  type IndexLock,
  openIndex,
  processAlive,
  readManifest,
  readRunProgress,
  type RecordedSettings,
  retainLexical,
  type StoredIndex,
  UnusableIndexError,
} from "../store/mod.ts";
import {
  buildContext,
  diversifyingSearcher,
  expandingSearcher,
  indexSearcher,
  LEXICAL_RANKING,
  type PassageScorer,
  rerankingSearcher,
  type Searcher,
  type SearchFilter,
  type SearchHit,
  type SearchMode,
  sourceReader,
} from "../search/mod.ts";
import type { Chunk } from "../types.ts";
import { type PathFilter, pathFilter } from "../walk/mod.ts";
import { projectRoot } from "../project_root.ts";
import {
  buildDrift,
  declaresBundle,
  effectiveSettings,
  type IndexSettings,
  policyIgnoredNotice,
  recordOf,
  walkOptionsOf,
} from "./corpus_settings.ts";
import { sameEmbedder } from "./model_difference.ts";
import { type BuildSettingName, rebuildFix } from "./rebuild_command.ts";
import { checkSearchOptions } from "./check_search_options.ts";
import { checkedQuerySearcher, searchableQuery } from "./checked_query.ts";
import { bundleFiles } from "./bundle_files.ts";
import { queryOverBudget } from "./query_budget.ts";
import {
  type CorpusStatus,
  corpusStatus,
  inspectCorpus,
  type StatusInput,
} from "./corpus_status.ts";
import { assertIndexDirUsable } from "./index_dir_check.ts";
import {
  type EmbedderSettings,
  type Locations,
  openCodeChunker,
  openEmbedder,
  openReranker,
  type RerankerSettings,
} from "./open_models.ts";

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
  /** Where default models and grammars are looked for. */
  locations?: Locations;
  /**
   * The settings above that came from an environment variable or
   * wayfinder.json rather than from the caller: a rebuild run in the same
   * place reads them again, so the `index --rebuild` command a stale-index
   * error names repeats only the others (and what the index recorded).
   */
  fromConfig?: readonly BuildSettingName[];
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
  hintsFor?: HintAudience;
}

/** How one search ranks and what it returns. */
export interface CorpusSearchOptions {
  /** @default 10 */
  limit?: number;
  /** @default "dense"; `bm25` is read as `lexical` */
  mode?: SearchMode | "bm25";
  /** Drops hits whose dense cosine similarity (`scores.dense`) is below this, whatever ranks them. */
  minScore?: number;
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
  query: string;
  matches: SearchHit[];
  /** A knowledge bundle's context: each passage with why it is there, in reading order. */
  context?: ContextEntry[];
  /** Present when `contextChars` was given. */
  contextText?: string;
  notices: string[];
}

/** How one `corpus.index()` run reports and behaves. */
export interface CorpusIndexOptions {
  rebuild?: boolean;
  onProgress?: (p: IndexProgress) => void;
  /** started, file, batch, partial, published, failed: one JSON-ready object each. */
  onEvent?: (event: IndexEvent) => void;
  /** The index lock, when the caller holds it (a watcher does). */
  lock?: IndexLock;
  /** Abandons the run before it publishes (a partial generation already published stays live). */
  signal?: AbortSignal;
  /**
   * When to publish searchable generations before every passage is embedded,
   * or `false` for one publish at the end. @default PARTIAL_PUBLISHING
   */
  partial?: Partial<PartialPublishing> | false;
}

/** One source tree and its index: the library's front door. */
export interface Corpus {
  readonly root: string;
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
  /** The live generation, loaded. */
  open(): Promise<StoredIndex>;
  /**
   * Whether a change at this absolute path cannot change the index: it lies
   * outside the root, in the index or data folder, or where the walk `index`
   * does never looks (ignore files, default excludes, the globs).
   */
  ignores(path: string): Promise<boolean>;
  /** Releases the models this corpus opened. */
  close(): Promise<void>;
}

function pick<T, K extends keyof T>(value: T, ...keys: K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, value[key]])) as Pick<T, K>;
}

function isEmbedder(value: unknown): value is Embedder {
  return typeof (value as Embedder)?.embedQuery === "function";
}

function isScorer(value: unknown): value is PassageScorer {
  return typeof (value as PassageScorer)?.rank === "function";
}

/** The data root a corpus keeps its index under: the one given, else the user's default. */
export function corpusDataDir(options: { dataDir?: string }): string {
  return resolve(options.dataDir ?? dataRootFrom(Deno.env.toObject()));
}

/**
 * Opens a source tree for indexing and search. Models load on first use and
 * stay loaded until `close`.
 *
 * @param root The folder to index.
 * @throws {WayfinderError} "io" when `root` does not exist; "usage" when it
 *   is a file or `/` (see {@link projectRoot}), or the index folder holds the
 *   tree (through symlinks too), is a file or is a folder of other files.
 *
 * @example Index a folder and search it
 * ```ts ignore
 * import { openCorpus } from "./mod.ts";
 *
 * const corpus = await openCorpus("./fixtures/corpus", { embedder: { threads: 1 } });
 * await corpus.index();
 * const { matches } = await corpus.search("encrypt sensitive data", { limit: 3, mode: "hybrid" });
 * await corpus.close();
 * ```
 */
export async function openCorpus(root: string, options: CorpusOptions = {}): Promise<Corpus> {
  const absolute = resolve(root);
  projectRoot(absolute);
  const dataDir = corpusDataDir(options);
  const indexDir = resolve(options.indexDir ?? indexDirFor(dataDir, absolute));
  const hints = hintsFor(options.hintsFor);
  await assertIndexDirUsable(absolute, indexDir, hints);
  return new LocalCorpus(absolute, indexDir, dataDir, options, hints);
}

/**
 * A notice when the live generation was published before every passage had
 * its vector: dense ranking covers only the embedded ones. Knowledge search
 * promises a vector for every eligible passage, so there it is an error.
 */
async function denseCoverage(index: StoredIndex, mode: SearchMode, root: string, hints: Hints) {
  const waiting = rowsIn(index.pending);
  if (waiting === 0 || mode === "lexical") return [];
  const total = index.chunks.length;
  const covered = `dense covers ${(total - waiting).toLocaleString("en")} of ${
    total.toLocaleString("en")
  } chunks`;
  const progress = await readRunProgress(index.dir);
  const next = progress && processAlive(progress.pid, progress.startedAt)
    ? "indexing continues"
    : `${hints.index(root)} to embed the rest`;
  if (index.manifest.settings?.knowledge) {
    throw new WayfinderError(
      "stale_index",
      `Cannot search ${root} in ${mode} mode: ${covered} (${next}); search with ${hints.lexicalMode()} meanwhile`,
    );
  }
  return [`${covered}; ${next}`];
}

/** Says that `minScore` cut on cosine while the scores shown are a reranker's. */
function rerankedFloorNotice(options: CorpusSearchOptions & { mode?: SearchMode }): string[] {
  const { minScore, rerank, mode } = options;
  if (minScore === undefined || !rerank || mode === "lexical") return [];
  return [
    `minScore ${minScore} kept hits by dense similarity (scores.dense) before reranking, not by the rerank score`,
  ];
}

/** The corpus behind `openCorpus`; keeps the embedder, reranker and live index between calls. */
class LocalCorpus implements Corpus {
  #embedder: Promise<Embedder> | null = null;
  #reranker: Promise<PassageScorer> | null = null;
  #index: StoredIndex | null = null;
  #owned: { close(): Promise<void> }[] = [];
  /** The last freshness check, per generation. */
  #fresh: { generation: string; at: number; notices: string[] } | null = null;
  /** Query vectors by text: runs and repeated questions embed a query once. */
  #queries = new Map<string, Promise<Float32Array>>();
  /** The walk's rules for `ignores`, until a run may have recorded other globs. */
  #filter: Promise<PathFilter> | null = null;

  constructor(
    readonly root: string,
    readonly indexDir: string,
    readonly dataDir: string,
    readonly options: CorpusOptions,
    private readonly hints: Hints,
  ) {}

  async index(run: CorpusIndexOptions = {}): Promise<IndexSummary> {
    // A current index needs no model: the hash walk `status` does says so.
    if (!run.rebuild && !run.lock) {
      const current = await this.#currentSummary(run);
      if (current) return current;
    }
    const settings = await this.#settings(run.rebuild ? null : undefined);
    const { knowledge } = settings.index;
    const summary = await indexCorpus({
      root: this.root,
      indexDir: this.indexDir,
      // Opened inside the run: a model that fails to load is a failed run, with its events.
      embedder: () => this.#embedderFor(settings.embedder),
      chunker: await openCodeChunker(this.options.locations),
      ...settings.index,
      longInput: settings.embedder.longInput ?? "reject",
      rebuild: run.rebuild,
      rebuildFix: (recorded) => this.#rebuildFix(recorded),
      onProgress: run.onProgress,
      onEvent: run.onEvent,
      lock: run.lock,
      signal: run.signal,
      partial: run.partial,
      ...walkOptionsOf(settings.index, this.#privateDirs),
      settings: recordOf(settings),
      knowledge,
      hints: this.hints,
    });
    this.#index = null;
    this.#filter = null;
    return summary;
  }

  async fitInputs(options: FitInputsOptions = {}): Promise<FitInputsReport> {
    const settings = await this.#settings();
    // Fitting only counts tokens, and an HTTP embedder counts them by estimate: it needs no
    // server, so it is opened without the probe that learns the vector size.
    const counting = this.#embedder === null && !isEmbedder(this.options.embedder) &&
      (settings.embedder.provider ?? "llama") !== "llama";
    const embedder = counting
      ? await openEmbedder(
        { ...settings.embedder, dimensions: 0 },
        this.options.locations,
        this.hints,
      )
      : await this.#embedderFor(settings.embedder);
    try {
      return await fitCorpus({
        root: this.root,
        embedder,
        chunker: await openCodeChunker(this.options.locations),
        ...settings.index,
        ...walkOptionsOf(settings.index, this.#privateDirs),
        showInputs: options.showInputs,
      });
    } finally {
      if (counting) await embedder.close();
    }
  }

  status(): Promise<CorpusStatus> {
    return corpusStatus(this.#statusInput());
  }

  #statusInput(): StatusInput {
    return {
      root: this.root,
      indexDir: this.indexDir,
      excludeDirs: this.#privateDirs,
      chosen: this.#chosen(),
      locations: this.options.locations,
      hints: this.hints,
      rebuildFix: (recorded) => this.#rebuildFix(recorded),
    };
  }

  async search(query: string, asked: CorpusSearchOptions = {}): Promise<CorpusSearchResult> {
    // Checked here too, so an empty query is told before an index or model is opened.
    const text = searchableQuery(query);
    const options = checkSearchOptions(asked);
    const searcher = await this.searcher(options);
    const request = {
      query: text,
      limit: options.limit ?? 10,
      minScore: options.minScore,
      filter: options.filter,
    };
    const index = await this.open();
    const coverage = await denseCoverage(index, options.mode ?? "dense", this.root, this.hints);
    const knowledge = index.manifest.settings?.knowledge === true;
    const response: CorpusSearchResult = knowledge
      ? {
        query: text,
        ...await searchKnowledge(
          searcher,
          index,
          request,
          options.policy ?? {},
          bundleFiles(this.root, Object.keys(index.manifest.files)),
        ),
      }
      : { query: text, ...pick(await searcher.search(request), "matches", "notices") };
    response.notices.unshift(...coverage, ...await this.#freshness(index));
    response.notices.push(...rerankedFloorNotice(options));
    if (!knowledge && asksAnything(options.policy ?? {})) {
      const declared = await declaresBundle(this.root);
      response.notices.push(
        policyIgnoredNotice(this.root, { declared, chosen: this.options.knowledge }, this.hints),
      );
    }
    if (options.contextChars !== undefined) {
      const passages = response.context?.map((entry) => entry.passage) ?? response.matches;
      response.contextText = buildContext(passages, {
        maxChars: options.contextChars,
        read: sourceReader(this.root),
        // In reading order the best match may come after its governing sources: it still leads.
        lead: Math.max(0, passages.indexOf(response.matches[0]!)),
        // A knowledge passage's heading names its concept, its status and why it is there.
        notes: response.context?.map((entry) => describeEntry(entry, options.policy?.asOf)),
      });
      if (response.contextText === "" && passages.length > 0) {
        response.notices.push(
          `no passage fits a context of ${options.contextChars} characters; allow more`,
        );
      }
    }
    return response;
  }

  async searcher(
    asked: Omit<CorpusSearchOptions, "limit" | "minScore" | "filter" | "contextChars"> = {},
  ): Promise<Searcher> {
    const options = checkSearchOptions(asked);
    const index = await this.open();
    const mode = options.mode ?? "dense";
    const embeds = mode !== "lexical";
    let searcher: Searcher = indexSearcher(index, {
      mode,
      embedQuery: embeds ? await this.#queryEmbedder(index) : undefined,
      // Code ranking lifts BM25 on source trees (docs/code-search-benchmark.md); bundles keep theirs.
      ranking: mode === "lexical" && index.manifest.settings?.knowledge !== true
        ? LEXICAL_RANKING
        : false,
    });
    // Below reranking: expansion widens by searching again, which must not score passages twice.
    if (options.expand) searcher = expandingSearcher(searcher, index, sourceReader(this.root));
    if (options.rerank) {
      const candidates = options.rerank === true ? 50 : options.rerank;
      searcher = rerankingSearcher(searcher, await this.#rerankerFor(this.hints.rerankOption()), {
        candidates,
        text: embeddingInput,
      });
    }
    // Over expansion, so the pool is --fetch-k distinct contexts and the picks differ in context.
    if (options.diverse) {
      searcher = diversifyingSearcher(
        searcher,
        index,
        options.diverse === true ? {} : options.diverse,
      );
    }
    // Outermost, so every layer below sees the checked query.
    return checkedQuerySearcher(searcher, embeds ? this.#queryFits(index) : undefined);
  }

  async chunk(id: string): Promise<Chunk | undefined> {
    const index = await this.open();
    const row = index.rowOf(id);
    // A copy with its content read: the generation's text may be collected after later publishes.
    return row < 0 ? undefined : { ...index.chunks[row]! };
  }

  async open(): Promise<StoredIndex> {
    const live = await currentGeneration(this.indexDir);
    if (this.#index && this.#index.generation === live) return this.#index;
    const index = await openIndex(this.indexDir, { root: this.root, hints: this.hints });
    if (!index) {
      throw new WayfinderError(
        "no_index",
        `No index for ${this.root}; ${this.hints.index(this.root)} first`,
      );
    }
    // The generation's folder is collected two publishes later; a caller may hold
    // this index (or a searcher over it) longer than that.
    this.#index = await retainLexical(index);
    return this.#index;
  }

  async ignores(path: string): Promise<boolean> {
    if (this.#privateDirs.some((dir) => isInside(path, dir))) return true;
    const rel = relative(this.root, path);
    if (rel === "") return false; // the root itself
    if (rel === ".." || rel.startsWith(`..${sep}`)) return true;
    this.#filter ??= this.#settings().then(({ index }) => pathFilter(this.root, index));
    try {
      return await (await this.#filter).ignores(rel.split(sep).join("/"));
    } catch {
      // Unreadable settings: let the change through; the update then says what is wrong.
      this.#filter = null;
      return false;
    }
  }

  async close(): Promise<void> {
    const owned = this.#owned;
    this.#owned = [];
    this.#embedder = this.#reranker = null;
    for (const thing of owned.reverse()) await thing.close();
  }

  /**
   * The summary of a run that would change nothing, or null: the tree, the
   * model and the settings all match the live generation and no run failed.
   */
  async #currentSummary(run: CorpusIndexOptions): Promise<IndexSummary | null> {
    const started = performance.now();
    const { status, walked } = await inspectCorpus(this.#statusInput());
    if (status.state !== "ready" || !walked) return null;
    const manifest = await readManifest(this.indexDir, this.root, this.hints);
    const { embedder, index } = await this.#settings();
    // Other vector codes asked for mean a new generation, even with nothing to embed.
    if (!manifest || (manifest.quantization ?? "none") !== index.quantization) return null;
    if (!await sameEmbedder(manifest.identity, embedder, this.options.locations)) return null;
    const emit = eventEmitter(run.onEvent);
    emit({ event: "started", root: this.root, index: this.indexDir });
    const summary: IndexSummary = {
      root: this.root,
      index: this.indexDir,
      // The walk that found nothing to do found these: told as a run that writes tells them.
      files: { seen: walked.seen, changed: 0, deleted: 0, skipped: walked.skipped.length },
      skipped: walked.skipped,
      embeddedChunks: 0,
      reusedChunks: status.chunks,
      removedChunks: 0,
      truncatedChunks: 0,
      elapsedMs: Math.round(performance.now() - started),
      current: true,
      generation: null,
    };
    emitSkipped(emit, walked.skipped);
    emit(publishedEvent(summary));
    return summary;
  }

  /**
   * A notice when files changed since the live generation (the hash walk
   * `status` does), checked at most every two seconds per generation so a
   * server answering many queries walks the tree rarely.
   */
  async #freshness(index: StoredIndex): Promise<string[]> {
    const cached = this.#fresh;
    if (cached?.generation === index.generation && performance.now() - cached.at < 2000) {
      return cached.notices;
    }
    const { index: walk } = await this.#settings();
    const drift = buildDrift(index.manifest, walk.knowledge);
    const changes = await treeChanges(
      this.root,
      index.manifest.files,
      walkOptionsOf(walk, this.#privateDirs),
    );
    const { changed, added, deleted } = changes;
    const notices = changed.length + added.length + deleted.length === 0 ? [] : [
      `the index is behind the tree (${changed.length} changed, ${added.length} added, ` +
      `${deleted.length} deleted since it was built); ${this.hints.index(this.root)}`,
    ];
    if (drift.length) {
      notices.push(
        `the index was built another way (${drift.join(", ")}); ${
          this.hints.index(this.root)
        } to rebuild it`,
      );
    }
    this.#fresh = { generation: index.generation, at: performance.now(), notices };
    return notices;
  }

  /** The embedder for an index: its recorded settings and input format under the caller's choices. */
  #embedderOf(index: StoredIndex): Promise<Embedder> {
    const settings = effectiveSettings(this.#chosen(), index.manifest.settings, false);
    settings.embedder.inputFormat = index.manifest.inputFormat;
    return this.#embedderFor(settings.embedder);
  }

  /** The embedder, checked against the index's model, as a memoised query embedding function. */
  async #queryEmbedder(index: StoredIndex): Promise<(query: string) => Promise<Float32Array>> {
    const embedder = await this.#embedderOf(index);
    const { manifest } = index;
    const fingerprint = identityFingerprint(embedder.identity);
    if (manifest.fingerprint !== fingerprint) {
      const fix = this.hints.rebuild(this.root, await this.#rebuildFix(manifest.settings));
      assertSameModel(manifest, embedder.identity, fingerprint, this.root, fix);
    }
    return (query) => {
      if (!this.#queries.has(query)) {
        if (this.#queries.size >= 1024) this.#queries.clear();
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
  #queryFits(index: StoredIndex): (query: string) => Promise<string[]> {
    return async (query) => {
      const embedder = await this.#embedderOf(index);
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

  /** The data and index folders: never walked, even when they lie inside the root. */
  get #privateDirs(): string[] {
    return [this.dataDir, this.indexDir];
  }

  /** The `index --rebuild` command that builds what this corpus's settings ask for. */
  async #rebuildFix(recorded: RecordedSettings | undefined): Promise<RebuildFix> {
    return rebuildFix({
      root: this.root,
      chosen: this.#chosen(),
      fromConfig: this.options.fromConfig,
      recorded,
      looksLikeBundle: await declaresBundle(this.root),
    });
  }

  /** The caller's explicit settings. */
  #chosen(): { embedder: EmbedderSettings; index: IndexSettings } {
    const { embedder, include, exclude, maxFileBytes, maxChunkChars, knowledge, quantization } =
      this.options;
    return {
      embedder: isEmbedder(embedder) ? {} : { ...embedder },
      index: { include, exclude, maxFileBytes, maxChunkChars, knowledge, quantization },
    };
  }

  /** Effective settings against the live index's record (`null`: ignore the record). */
  async #settings(recorded?: null) {
    // An index this version cannot read records nothing it could follow; index rebuilds it.
    const manifest = recorded === null
      ? null
      : await readManifest(this.indexDir, this.root, this.hints).catch((error) => {
        if (error instanceof UnusableIndexError) return null;
        throw error;
      });
    const bundle = await declaresBundle(this.root);
    const settings = effectiveSettings(this.#chosen(), manifest?.settings, bundle);
    // The text embedded is part of the model's identity: one corpus keeps one embedder for it.
    if (settings.index.knowledge) settings.embedder.inputFormat = KNOWLEDGE_INPUT_FORMAT;
    return settings;
  }

  #embedderFor(settings: EmbedderSettings): Promise<Embedder> {
    const given = this.options.embedder;
    if (isEmbedder(given)) return Promise.resolve(given);
    const { locations } = this.options;
    this.#embedder ??= openEmbedder(settings, locations, this.hints).then((embedder) => {
      this.#owned.push(embedder);
      return embedder;
    }, (error) => {
      // A failed open (a server down for a moment) is not kept: the next run opens again.
      this.#embedder = null;
      throw error;
    });
    return this.#embedder;
  }

  #rerankerFor(what: string): Promise<PassageScorer> {
    const given = this.options.reranker;
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
}
