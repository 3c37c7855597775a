/**
 * Whether the live generation still matches its tree: the notice a search
 * carries when it may not (from cheap signals, or the exact walk when asked),
 * and the summary of an index run that would change
 * nothing, told without loading a model.
 */
import type { Hints } from "../hints.ts";
import {
  emitSkipped,
  eventEmitter,
  type IndexEvent,
  type IndexSummary,
  publishedEvent,
  treeChanges,
} from "../pipeline/mod.ts";
import { currentGeneration, readManifest, type StoredIndex } from "../store/mod.ts";
import {
  buildDrift,
  type EffectiveSettings,
  type IndexSettings,
  walkOptionsOf,
} from "./corpus_settings.ts";
import { inspectCorpus, type StatusInput } from "./corpus_status.ts";
import {
  checkFoldersInTurn,
  FolderRecorder,
  readFolderRecord,
  writeFolderRecord,
} from "./folder_stamps.ts";
import { liveWatchState } from "./watch_state.ts";
import { plural } from "../plural.ts";
import { sameEmbedder } from "./model_difference.ts";
import type { Locations } from "./open_models.ts";

/** How long an exact freshness check stands for its generation. */
const FRESH_FOR_MS = 2000;

/** How long the cheap check may stat folders before it says how far it got. */
export const FOLDER_BUDGET_MS = 100;

/** How a search learns whether its index is behind the tree. */
export interface FreshnessOptions {
  /**
   * Walk and hash the whole tree, as `status` does, for the exact count of
   * files changed, added and deleted. Otherwise the cheap signals answer: a
   * running watcher's state, else the folders the last run listed.
   * @default false
   */
  checkFresh?: boolean;
}

/** The freshness notices of one corpus. */
export class Freshness {
  #last: { generation: string; at: number; notices: string[] } | null = null;

  constructor(
    private readonly root: string,
    private readonly indexDir: string,
    private readonly hints: Hints,
    /** The walk settings `index` would use now over this index. */
    private readonly walk: (index: StoredIndex) => Promise<Required<IndexSettings>>,
    /** The data and index folders, never walked. */
    private readonly privateDirs: string[],
  ) {}

  /**
   * A notice when the index may be behind its tree, or was built another
   * way. Without `checkFresh`: from a live watcher's state, else from the
   * folders the run that built it listed (files added, removed or renamed;
   * an edit in place goes unseen), else, for an index that recorded none,
   * the exact check.
   */
  async notices(index: StoredIndex, options: FreshnessOptions = {}): Promise<string[]> {
    const walk = await this.walk(index);
    const notices = options.checkFresh
      ? await this.#exact(index, walk)
      : await this.#cheap(index, walk);
    const drift = buildDrift(index.manifest, walk.knowledge);
    if (drift.length) {
      notices.push(
        `the index was built another way (${drift.join(", ")}); ${
          this.hints.index(this.root)
        } to rebuild it`,
      );
    }
    return notices;
  }

  async #cheap(index: StoredIndex, walk: Required<IndexSettings>): Promise<string[]> {
    const watch = await liveWatchState(this.indexDir);
    if (watch) {
      if (watch.waiting === 0 && watch.generation === index.generation) return [];
      const waiting = watch.waiting > 0
        ? `${plural(watch.waiting, "changed path")} not taken in yet`
        : "it moved on";
      return [
        `the index may be behind the tree: watch (pid ${watch.pid}) is updating it (${waiting})`,
      ];
    }
    const record = await readFolderRecord(this.indexDir, index.generation);
    // An index no run recorded folders for (built by an older wayfinder, or mid-run): the exact way.
    if (!record) return await this.#exact(index, walk);
    const check = await checkFoldersInTurn(this.indexDir, this.root, record, FOLDER_BUDGET_MS);
    const counts = `${this.hints.checkFresh(this.root)} for the exact count`;
    if (check.changed.length > 0) {
      return [
        `the index may be behind the tree: ${
          plural(check.changed.length, "folder")
        } changed since it was built (files added, removed or renamed there); ${
          this.hints.index(this.root)
        }, or ${counts}`,
      ];
    }
    if (check.timedOut) {
      return [
        `the index may be behind the tree: ${check.checked} of ${check.total} folders checked in ${FOLDER_BUDGET_MS} ms, none changed; ${counts}`,
      ];
    }
    return [];
  }

  /** The hash walk `status` does; cached two seconds per generation. */
  async #exact(index: StoredIndex, walk: Required<IndexSettings>): Promise<string[]> {
    const cached = this.#last;
    if (cached?.generation === index.generation && performance.now() - cached.at < FRESH_FOR_MS) {
      return [...cached.notices];
    }
    const folders = new FolderRecorder();
    const changes = await treeChanges(this.root, index.manifest.files, {
      ...walkOptionsOf(walk, this.privateDirs),
      onFolder: folders.add,
    });
    const { changed, added, deleted } = changes;
    const current = changed.length + added.length + deleted.length === 0;
    // The tree matches: what this walk listed vouches for it, so later searches need no walk.
    const live = await currentGeneration(this.indexDir).catch(() => null);
    if (current && !folders.empty && live === index.generation) {
      await writeFolderRecord(this.indexDir, {
        generation: index.generation,
        folders: folders.folders,
      });
    }
    const notices = current ? [] : [
      `the index is behind the tree (${changed.length} changed, ${added.length} added, ` +
      `${deleted.length} deleted since it was built); ${this.hints.index(this.root)}`,
    ];
    this.#last = { generation: index.generation, at: performance.now(), notices };
    return [...notices];
  }
}

/** What the nothing-to-index check reads. */
export interface CurrentInput {
  status: StatusInput;
  hints: Hints;
  /** The settings a run would build with. */
  settings: () => Promise<EffectiveSettings>;
  locations?: Locations;
  onEvent?: (event: IndexEvent) => void;
}

/**
 * The summary of a run that would change nothing, or null: the tree, the
 * model and the settings all match the live generation and no run failed.
 * Its events are those of a run that writes nothing.
 */
export async function currentSummary(input: CurrentInput): Promise<IndexSummary | null> {
  const started = performance.now();
  const { root, indexDir } = input.status;
  const { status, walked } = await inspectCorpus(input.status);
  if (status.state !== "ready" || !walked) return null;
  const manifest = await readManifest(indexDir, root);
  const { embedder, index } = await input.settings();
  // Other vector codes asked for mean a new generation, even with nothing to embed.
  if (!manifest || (manifest.quantization ?? "none") !== index.quantization) return null;
  if (!await sameEmbedder(manifest.identity, embedder, input.locations)) return null;
  const emit = eventEmitter(input.onEvent);
  emit({ event: "started", root, index: indexDir });
  const summary: IndexSummary = {
    root,
    index: indexDir,
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
