/**
 * Whether the live generation still matches its tree: the notice a search
 * carries when it does not (cached, so a server answering many queries
 * walks the tree rarely), and the summary of an index run that would change
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
import { readManifest, type StoredIndex } from "../store/mod.ts";
import {
  buildDrift,
  type EffectiveSettings,
  type IndexSettings,
  walkOptionsOf,
} from "./corpus_settings.ts";
import { inspectCorpus, type StatusInput } from "./corpus_status.ts";
import { sameEmbedder } from "./model_difference.ts";
import type { Locations } from "./open_models.ts";

/** How long a freshness check stands for its generation. */
const FRESH_FOR_MS = 2000;

/** The freshness notices of one corpus, cached per generation. */
export class Freshness {
  #last: { generation: string; at: number; notices: string[] } | null = null;

  constructor(
    private readonly root: string,
    private readonly hints: Hints,
    /** The walk settings `index` would use now. */
    private readonly walk: () => Promise<Required<IndexSettings>>,
    /** The data and index folders, never walked. */
    private readonly privateDirs: string[],
  ) {}

  /**
   * A notice when files changed since the live generation (the hash walk
   * `status` does), or when it was built another way; checked at most every
   * two seconds per generation.
   */
  async notices(index: StoredIndex): Promise<string[]> {
    const cached = this.#last;
    if (cached?.generation === index.generation && performance.now() - cached.at < FRESH_FOR_MS) {
      return cached.notices;
    }
    const walk = await this.walk();
    const drift = buildDrift(index.manifest, walk.knowledge);
    const changes = await treeChanges(
      this.root,
      index.manifest.files,
      walkOptionsOf(walk, this.privateDirs),
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
    this.#last = { generation: index.generation, at: performance.now(), notices };
    return notices;
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
