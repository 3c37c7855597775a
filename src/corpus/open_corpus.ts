// Over 400 lines: the private LocalCorpus and the functions that reach behind the front door.
/**
 * `openCorpus` and the corpus behind it: a front door that delegates each
 * job to its own module (models, settings, search assembly, freshness,
 * query embedding) and keeps only what ties them together.
 */
import { isInside } from "../_paths.ts";
import { relative, resolve, sep } from "node:path";
import { processDataRoot } from "../config/mod.ts";
import { WayfinderError } from "../error.ts";
import { type Hints, hintsFor, worded, wordingOf } from "../hints.ts";
import {
  fitCorpus,
  type FitInputsOptions,
  type FitInputsReport,
  indexCorpus,
  type IndexSummary,
  type SharedVectors,
} from "../pipeline/mod.ts";
import {
  currentGeneration,
  indexDirFor,
  type IndexLock,
  openIndex,
  parseStoreUrl,
  retainLexical,
  type StoredIndex,
  UnusableIndexError,
  verifyGeneration,
} from "../store/mod.ts";
import type { Searcher } from "../search/mod.ts";
import type { Chunk } from "../types.ts";
import { type PathFilter, pathFilter } from "../walk/mod.ts";
import { projectRoot } from "../project_root.ts";
import type {
  ConfiguredCorpus,
  ConfiguredCorpusOptions,
  ConfiguredIndexOptions,
  ConfiguredSearchOptions,
  ConfiguredSearchResult,
  Corpus,
  CorpusOptions,
} from "./corpus.ts";
import { CorpusConfig } from "./corpus_config.ts";
import { CorpusModels, isEmbedder } from "./corpus_models.ts";
import { recordOf, walkOptionsOf } from "./corpus_settings.ts";
import { checkSearchOptions } from "./check_search_options.ts";
import { searchableQuery } from "./checked_query.ts";
import { corpusStatus, type StatusInput, type StatusReport } from "./corpus_status.ts";
import { currentSummary, Freshness } from "./freshness.ts";
import { FolderRecorder, writeFolderRecord } from "./folder_stamps.ts";
import { assertIndexDirUsable } from "./index_dir_check.ts";
import { QueryEmbeddings } from "./query_embeddings.ts";
import { type FileLines, readIndexedLines } from "./read_lines.ts";
import { answerQuery, stackSearcher } from "./search_assembly.ts";
import { StoreCorpus, type WorkingCopy } from "./store_corpus.ts";
import { tierDirOf, tierModel, waitingFiles } from "./static_tier.ts";
import type { EmbedderSettings } from "./open_models.ts";
import { BUILD_DEFAULTS } from "../build_defaults.ts";

/**
 * Opens the live generation without streaming every data file through its
 * checksum: the stats `status` records (`verifyGeneration`) say which files
 * moved since they were last known intact, and only those are hashed. A
 * flipped byte moves its file's mtime, so it is still refused. Any failure
 * opens again the full way, for its exact error.
 */
async function openStamped(
  indexDir: string,
  root: string,
  withVectors: boolean,
): Promise<StoredIndex | null> {
  const vectors = withVectors ? "load" : "lazy";
  let index: StoredIndex | null;
  try {
    index = await openIndex(indexDir, { root, verifyChecksums: false, vectors });
  } catch {
    return await openIndex(indexDir, { root, vectors });
  }
  if (!index) return null;
  const damage = await verifyGeneration(indexDir, index.generation, index.manifest);
  if (damage) {
    await index.close?.();
    throw new UnusableIndexError(indexDir, damage, root);
  }
  return index;
}

/** The data root a corpus keeps its index under: the one given, else the user's default. */
export function corpusDataDir(options: { dataDir?: string }): string {
  return resolve(options.dataDir ?? processDataRoot());
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
 * @example Index, search, and read a hit's lines
 * ```ts
 * import assert from "node:assert/strict";
 * import { FakeEmbedder } from "../embed/mod.ts";
 * import { openCorpus } from "./mod.ts";
 *
 * const dataDir = await Deno.makeTempDir();
 * const corpus = await openCorpus("fixtures/corpus", { dataDir, embedder: new FakeEmbedder() });
 * const summary = await corpus.index();
 * assert.equal(summary.files.seen, summary.files.changed + summary.files.skipped);
 * const { matches } = await corpus.search("refresh the auth token", { limit: 1, mode: "lexical" });
 * const hit = matches[0]!.chunk;
 * const file = await corpus.readLines(hit.sourcePath);
 * assert.equal(file?.changedSinceIndex, false);
 * assert.ok(file?.lines.slice(hit.lineStart - 1, hit.lineEnd).join("\n").includes(hit.content));
 * await corpus.close();
 * await Deno.remove(dataDir, { recursive: true });
 * ```
 */
export function openCorpus(root: string, options: CorpusOptions = {}): Promise<Corpus> {
  return openConfiguredCorpus(root, options);
}

/** `openCorpus` for the CLI, which says which settings came from its configuration. */
export async function openConfiguredCorpus(
  root: string,
  options: ConfiguredCorpusOptions,
): Promise<ConfiguredCorpus> {
  const absolute = resolve(root);
  projectRoot(absolute);
  const dataDir = corpusDataDir(options);
  const store = options.store === undefined ? null : parseStoreUrl(options.store);
  const folder = store?.kind === "local" ? resolve(store.dir) : undefined;
  if (folder && options.indexDir && resolve(options.indexDir) !== folder) {
    throw new WayfinderError(
      "usage",
      `Cannot open ${absolute}: the store ${folder} and the index folder ${
        resolve(options.indexDir)
      } differ; give one of them`,
    );
  }
  const indexDir = folder ?? resolve(options.indexDir ?? indexDirFor(dataDir, absolute));
  const hints = hintsFor(options.hintsFor);
  await assertIndexDirUsable(absolute, indexDir, hints);
  const local = new LocalCorpus(absolute, indexDir, dataDir, options, hints);
  return store && store.kind !== "local"
    ? new StoreCorpus(local, store, options.storeSuffix)
    : local;
}

/**
 * The live generation of a corpus `openCorpus` opened, loaded: for the
 * stages inside wayfinder (evaluation, benchmarks, tests) that read the
 * index itself.
 */
export function liveIndex(corpus: Corpus): Promise<StoredIndex> {
  const opened = corpus instanceof StoreCorpus ? corpus.workingCopy : corpus;
  return local(opened, "liveIndex").open();
}

/** `corpus.index` for a caller that holds the index lock (a watcher does). */
export function indexHoldingLock(
  corpus: Corpus,
  lock: IndexLock,
  options: ConfiguredIndexOptions = {},
): Promise<IndexSummary> {
  if (corpus instanceof StoreCorpus) return corpus.index({ ...options, lock });
  return local(corpus, "indexHoldingLock").index({ ...options, lock });
}

function local(corpus: Corpus, what: string): LocalCorpus {
  if (!(corpus instanceof LocalCorpus)) {
    throw new WayfinderError("usage", `${what} needs a corpus openCorpus opened`);
  }
  return corpus;
}

/** An index run of the local corpus: under a lock its caller holds, asking a store's cache. */
type LocalIndexRun = ConfiguredIndexOptions & { lock?: IndexLock; sharedVectors?: SharedVectors };

/** The corpus behind `openCorpus`; keeps the embedder, reranker and live index between calls. */
class LocalCorpus implements ConfiguredCorpus, WorkingCopy {
  #index: StoredIndex | null = null;
  /** Whether `#index` holds its vectors: one opened for a lexical search does not. */
  #withVectors = false;
  /** The walk's rules for `ignores`, until a run may have recorded other globs. */
  #filter: Promise<PathFilter> | null = null;
  /** The static tier's corpus, for the static model it was opened with. */
  #tier: { model: string; corpus: LocalCorpus } | null = null;
  /** More folders never walked: a tier's main index folder. */
  #excluded: string[] = [];
  readonly #models: CorpusModels;
  readonly #config: CorpusConfig;
  readonly #freshness: Freshness;
  readonly #queries: QueryEmbeddings;

  constructor(
    readonly root: string,
    readonly indexDir: string,
    readonly dataDir: string,
    readonly options: ConfiguredCorpusOptions,
    private readonly hints: Hints,
  ) {
    this.#models = new CorpusModels(options, hints);
    this.#config = new CorpusConfig(root, indexDir, options, hints);
    this.#freshness = new Freshness(
      root,
      indexDir,
      hints,
      (index) => this.#config.indexOf(index),
      this.#privateDirs,
    );
    this.#queries = new QueryEmbeddings(root, hints, {
      embedderOf: (index) => this.#models.embedder(this.#config.embedderOf(index)),
      rebuildFix: (recorded) => this.#config.rebuildFix(recorded),
    });
  }

  /** What a corpus over another store shares with its working copy: wording, query embedding, cross-encoder. */
  get parts(): WorkingCopy["parts"] {
    return {
      hints: this.hints,
      queries: this.#queries,
      reranker: (what) => this.#models.reranker(what),
    };
  }

  // Each method words the fix of an error from the stages below for this corpus's reader.
  index(run: LocalIndexRun = {}): Promise<IndexSummary> {
    return this.#worded(() => this.#indexRun(run));
  }

  fitInputs(options: FitInputsOptions = {}): Promise<FitInputsReport> {
    return this.#worded(() => this.#fitInputs(options));
  }

  status(): Promise<StatusReport> {
    return this.#worded(() => corpusStatus(this.#statusInput()));
  }

  search(query: string, asked: ConfiguredSearchOptions = {}): Promise<ConfiguredSearchResult> {
    return this.#worded(() => this.#search(query, asked));
  }

  async searcher(
    asked: Omit<ConfiguredSearchOptions, "limit" | "minScore" | "filter" | "contextChars"> = {},
  ): Promise<Searcher> {
    const inner = await this.#worded(() => this.#searcher(asked));
    return { search: (request) => this.#worded(() => inner.search(request)) };
  }

  chunk(id: string): Promise<Chunk | undefined> {
    return this.#worded(() => this.#chunk(id));
  }

  readLines(path: string): Promise<FileLines | undefined> {
    return this.#worded(async () =>
      readIndexedLines(this.root, (await this.#open(false)).manifest.files, path)
    );
  }

  /** The live generation, loaded. */
  open(): Promise<StoredIndex> {
    return this.#worded(() => this.#open());
  }

  async #worded<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw worded(error, this.hints);
    }
  }

  async #indexRun(run: LocalIndexRun): Promise<IndexSummary> {
    // A current index needs no model: the hash walk `status` does says so.
    if (!run.rebuild && !run.lock) {
      const current = await currentSummary({
        status: this.#statusInput(),
        hints: this.hints,
        settings: () => this.#config.effective(),
        locations: this.options.locations,
        onEvent: run.onEvent,
      });
      if (current) return current;
    }
    const settings = await this.#config.effective(run.rebuild ? null : undefined);
    const { knowledge } = settings.index;
    if (!knowledge) await this.#indexTier(settings.embedder, run.signal);
    const folders = new FolderRecorder();
    const before = await currentGeneration(this.indexDir).catch(() => null);
    const summary = await indexCorpus({
      root: this.root,
      indexDir: this.indexDir,
      // Opened inside the run: a model that fails to load is a failed run, with its events.
      embedder: () => this.#models.embedder(settings.embedder),
      chunker: await this.#models.chunker(),
      ...settings.index,
      longInput: settings.embedder.longInput ?? BUILD_DEFAULTS.longInput,
      rebuild: run.rebuild,
      rebuildFix: (recorded) => this.#config.rebuildFix(recorded),
      onProgress: run.onProgress,
      onEvent: run.onEvent,
      lock: run.lock,
      signal: run.signal,
      partial: run.partial,
      ...walkOptionsOf(settings.index, this.#privateDirs),
      settings: recordOf(settings),
      knowledge,
      wordFix: wordingOf(this.hints),
      onFolder: folders.add,
      sharedVectors: run.sharedVectors,
    });
    // Its lease goes, so the next publish may collect it; a searcher over it keeps its full text.
    await this.#index?.close?.();
    this.#index = null;
    this.#filter = null;
    await this.#recordFolders(summary, before, folders);
    return summary;
  }

  /**
   * Keeps the folders the run's walk listed, for the generation it left
   * live: what the next search compares instead of walking the tree.
   */
  async #recordFolders(summary: IndexSummary, before: string | null, folders: FolderRecorder) {
    if (folders.empty) return;
    // A run that found nothing to do published nothing: its walk vouches for the live one.
    const generation = summary.generation ?? (summary.current ? before : null);
    if (!generation || await currentGeneration(this.indexDir).catch(() => null) !== generation) {
      return;
    }
    await writeFolderRecord(this.indexDir, { generation, folders: folders.folders });
  }

  async #fitInputs(options: FitInputsOptions): Promise<FitInputsReport> {
    const settings = await this.#config.effective();
    const { embedder, release } = await this.#models.counter(settings.embedder);
    try {
      return await fitCorpus({
        root: this.root,
        embedder,
        chunker: await this.#models.chunker(),
        ...settings.index,
        ...walkOptionsOf(settings.index, this.#privateDirs),
        showInputs: options.showInputs,
      });
    } finally {
      await release();
    }
  }

  #statusInput(): StatusInput {
    return {
      root: this.root,
      indexDir: this.indexDir,
      excludeDirs: this.#privateDirs,
      chosen: this.#config.chosen(),
      givenModel: isEmbedder(this.options.embedder) ? this.options.embedder.identity : undefined,
      locations: this.options.locations,
      hints: this.hints,
      rebuildFix: (recorded) => this.#config.rebuildFix(recorded),
    };
  }

  async #search(query: string, asked: ConfiguredSearchOptions): Promise<ConfiguredSearchResult> {
    // Checked here too, so an empty query is told before an index or model is opened.
    const text = searchableQuery(query);
    const options = checkSearchOptions(asked);
    // Only dense ranking and diversity read vectors; every default mode is one that does.
    const vectors = options.mode !== "lexical" || Boolean(options.diverse);
    const searcher = await this.#searcher(options, vectors);
    const request = {
      query: text,
      limit: options.limit ?? 10,
      minScore: options.minScore,
      filter: options.filter,
    };
    return answerQuery(searcher, await this.#open(vectors), request, options, {
      root: this.root,
      hints: this.hints,
      chosenKnowledge: this.options.knowledge,
      freshness: (index) => this.#freshness.notices(index, { checkFresh: options.checkFresh }),
    });
  }

  async #searcher(
    asked: Omit<ConfiguredSearchOptions, "limit" | "contextChars">,
    vectors = true,
  ): Promise<Searcher> {
    const options = checkSearchOptions(asked);
    const index = await this.#open(vectors);
    return stackSearcher(index, options, {
      root: this.root,
      hints: this.hints,
      queries: this.#queries,
      reranker: (what) => this.#models.reranker(what),
      // Dense mode only: hybrid's lexical half already ranks the files not embedded yet, and
      // the static model's dense half added nothing to it (docs/static-embedder.md).
      tier: options.mode === "dense" ? await this.#tierSearcher(index) : undefined,
    });
  }

  /**
   * The static tier of a transformer's index (see static_tier.ts), or null
   * when the corpus has none: another embedder, no static model beside the
   * GGUF, or tiers turned off.
   */
  #tierFor(embedder: EmbedderSettings): LocalCorpus | null {
    if (this.options.staticTier === false || isEmbedder(this.options.embedder)) return null;
    const model = tierModel(embedder, this.options.locations);
    if (!model) return null;
    if (this.#tier?.model !== model) {
      void this.#tier?.corpus.close();
      const options = {
        ...this.options,
        embedder: { provider: "static" as const, model },
        knowledge: false,
        staticTier: false,
        store: undefined,
        indexDir: undefined,
      };
      const corpus = new LocalCorpus(this.root, this.#tierDir, this.dataDir, options, this.hints);
      corpus.#excluded = [this.indexDir];
      this.#tier = { model, corpus };
    }
    return this.#tier.corpus;
  }

  /**
   * Brings the static tier up to date before the transformer's run. The tier
   * only speeds answers up: one built with another static model (distilled
   * again) or damaged is rebuilt, and one that still fails leaves the run to
   * the transformer. Only a stop request stops the run here.
   */
  async #indexTier(embedder: EmbedderSettings, signal?: AbortSignal): Promise<void> {
    const tier = this.#tierFor(embedder);
    if (!tier) return;
    try {
      await tier.index({ signal });
    } catch {
      signal?.throwIfAborted();
      await tier.index({ signal, rebuild: true }).catch(() => signal?.throwIfAborted());
    }
  }

  /** The tier's dense searcher while `index` has rows still to embed, else undefined. */
  async #tierSearcher(index: StoredIndex) {
    if (!index.pending?.length || index.manifest.settings?.knowledge) return undefined;
    const tier = this.#tierFor(this.#config.embedderOf(index));
    if (!tier || !(await currentGeneration(this.#tierDir).catch(() => null))) return undefined;
    // A tier another static model built (not rebuilt yet) is left out, not an error.
    const searcher = await tier.searcher({ mode: "dense" }).catch(() => null);
    return searcher ? { searcher, waiting: waitingFiles(index) } : undefined;
  }

  get #tierDir(): string {
    return tierDirOf(this.indexDir);
  }

  async #chunk(id: string): Promise<Chunk | undefined> {
    const index = await this.#open(false);
    const row = index.rowOf(id);
    // A copy with its content read: the generation's text may be collected after later publishes.
    return row < 0 ? undefined : { ...index.chunks[row]! };
  }

  /**
   * The live generation, loaded; its vectors left on disk when only a lexical search
   * will read it, which then skips reading them (a tenth of a second and the
   * largest part of its memory on a 70k-chunk index).
   */
  async #open(vectors = true): Promise<StoredIndex> {
    const live = await currentGeneration(this.indexDir);
    const cached = this.#index;
    if (cached && cached.generation === live && (this.#withVectors || !vectors)) return cached;
    const index = await openStamped(this.indexDir, this.root, vectors);
    if (!index) {
      throw new WayfinderError(
        "no_index",
        `No index for ${this.root}; ${this.hints.index(this.root)} first`,
      );
    }
    // The lease on the generation replaced is released, so a publish may collect it; a
    // caller may hold that index (or a searcher over it) longer, so its full text is kept.
    await this.#index?.close?.();
    this.#index = await retainLexical(index);
    this.#withVectors = vectors;
    return this.#index;
  }

  async ignores(path: string): Promise<boolean> {
    if (this.#privateDirs.some((dir) => isInside(path, dir))) return true;
    const rel = relative(this.root, path);
    if (rel === "") return false; // the root itself
    if (rel === ".." || rel.startsWith(`..${sep}`)) return true;
    this.#filter ??= this.#config.effective().then(({ index }) => pathFilter(this.root, index));
    try {
      return await (await this.#filter).ignores(rel.split(sep).join("/"));
    } catch {
      // Unreadable settings: let the change through; the update then says what is wrong.
      this.#filter = null;
      return false;
    }
  }

  async close(): Promise<void> {
    await this.#index?.close?.();
    this.#index = null;
    await this.#tier?.corpus.close();
    this.#tier = null;
    return this.#models.close();
  }

  /** The data and index folders (and the tier's): never walked, even inside the root. */
  get #privateDirs(): string[] {
    return [this.dataDir, this.indexDir, this.#tierDir, ...this.#excluded];
  }
}
