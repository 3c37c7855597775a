/**
 * Keeps a corpus's index fresh while files change: native file events on
 * the tree's own folders (`tree_watcher.ts`), debounced, each quiet moment
 * one incremental update through the open corpus (so the model stays
 * loaded). Holds the index lock for as long as it watches, so no other
 * writer races it.
 */
import { isInside } from "../_paths.ts";
import { basename, relative } from "node:path";
import { type ErrorCode, WayfinderError } from "../error.ts";
import type { IndexSummary } from "../pipeline/mod.ts";
import process from "node:process";
import {
  acquireIndexLock,
  currentGeneration,
  type IndexLock,
  readIndexLock,
} from "../store/mod.ts";
import type { ConfiguredCorpus } from "./corpus.ts";
import { indexHoldingLock } from "./open_corpus.ts";
import { type FolderSkip, TreeWatcher } from "./tree_watcher.ts";
import { WatchStateWriter } from "./watch_state.ts";

/** One update: what triggered it and how it ended. */
export interface WatchUpdate {
  /**
   * "initial" for the catch-up at start, "change" for updates on file events,
   * "lost" when the root was deleted or moved away (no update ran; watching
   * resumes when it is back), "back" for the catch-up once it is.
   */
  trigger: "initial" | "change" | "lost" | "back";
  /** Root-relative paths whose events led to this update (empty for the others). */
  paths: string[];
  /** The update's summary; `current` when nothing had changed and nothing was published (none when lost). */
  summary?: IndexSummary;
  /** Why the update failed; the previous generation stays live and watching goes on. */
  error?: WayfinderError;
}

export interface WatchOptions {
  /** Quiet time before an update, so a rename-then-write is one update. @default 300 */
  debounceMs?: number;
  /**
   * Longest wait from the first change to its update while changes keep
   * coming (a file written every 100 ms is never quiet). @default 2000
   */
  maxWaitMs?: number;
  /** Stops watching; an update in flight is abandoned before it publishes. */
  signal?: AbortSignal;
  /** Called after every update, including ones that found nothing to do. */
  onUpdate?: (update: WatchUpdate) => void;
}

/** Event kinds that mean content may have changed; reads (`access`) do not. */
const CHANGES = new Set<Deno.FsEvent["kind"]>(["any", "create", "modify", "remove", "rename"]);

/** How often a watcher whose root is gone looks for it again. */
const REARM_EVERY_MS = 1000;

/**
 * Watches `corpus.root` until `signal` aborts, updating the index after each
 * burst of changes. When the root itself is deleted or moved away, says so
 * (an update with trigger `lost`), looks for it every second, and once it is
 * back watches it again after a catch-up update (trigger `back`). Resolves
 * once stopped, with the lock released.
 *
 * @throws {WayfinderError} `busy` when another process holds the index lock;
 *   the first update's error when the setup is wrong (no model, another
 *   model's index), the root is gone or nothing was ever published; other
 *   failures, the first one's included, are reported through `onUpdate` and
 *   watching goes on with the previous generation live.
 */
export async function watchCorpus(
  corpus: ConfiguredCorpus,
  options: WatchOptions = {},
): Promise<void> {
  const { signal } = options;
  const lock = await acquireIndexLock(corpus.indexDir, corpus.root);
  // Searches in other processes read it: a watched tree needs no check of its own.
  const state = new WatchStateWriter(
    corpus.indexDir,
    process.pid,
    readIndexLock(corpus.indexDir)?.since ?? "",
  );
  let watcher: TreeWatcher | undefined;
  const stop = () => watcher?.close();
  // Folders that appeared since the last update are watched before the next one walks.
  const updates = new UpdateQueue(corpus, lock, options, () => watcher?.rearm(), (waiting) => {
    state.update(waiting, () => currentGeneration(corpus.indexDir).catch(() => null));
  });
  try {
    if (signal?.aborted) return;
    signal?.addEventListener("abort", stop, { once: true });
    for (let trigger: "initial" | "back" = "initial";; trigger = "back") {
      watcher = await TreeWatcher.open(corpus.root, neverWalked(corpus));
      // Events during the catch-up wait in the watcher and start the next update.
      const first = watcher && await updates.run(trigger, []);
      if (first?.error && trigger === "initial") {
        if (await endsWatch(first.error, corpus)) throw first.error;
        options.onUpdate?.(first);
      }
      if (watcher && await follow(corpus, watcher, updates) === "stopped") return;
      watcher?.close();
      await updates.drain();
      // Nothing watches the tree until it is back: searches check folders meanwhile.
      await state.clear();
      options.onUpdate?.({ trigger: "lost", paths: [] });
      if (!await reappears(corpus.root, signal)) return;
    }
  } finally {
    signal?.removeEventListener("abort", stop);
    stop();
    // The lock outlives any update that is still writing (stopped: it aborts first).
    await updates.drain();
    await state.clear();
    await lock.release();
  }
}

/** Failures of the setup, not of one update: every later update would fail alike. */
const SETUP_FAILURES = new Set<ErrorCode>(["usage", "config", "no_model", "model", "stale_index"]);

/**
 * Whether a failed catch-up at start ends the watch: when the setup is wrong
 * (no model, another model's index), the root is gone, or nothing was ever
 * published to serve. Otherwise (a transient embedder or I/O failure) the
 * live generation keeps serving and the next change tries again.
 */
async function endsWatch(error: WayfinderError, corpus: ConfiguredCorpus): Promise<boolean> {
  if (SETUP_FAILURES.has(error.code) || !await isDirectory(corpus.root)) return true;
  return await currentGeneration(corpus.indexDir).catch(() => null) === null;
}

/**
 * Folders the walk never enters, so never watched: `.git`, the index and
 * data folders, and what the ignore files and excludes leave out.
 */
function neverWalked(corpus: ConfiguredCorpus): FolderSkip {
  return (folder) =>
    basename(folder) === ".git" || isInside(folder, corpus.indexDir) ||
    isInside(folder, corpus.dataDir) || corpus.ignores(folder);
}

/** Requests updates for the watcher's events until it is closed or the root is gone. */
async function follow(
  corpus: ConfiguredCorpus,
  watcher: TreeWatcher,
  updates: UpdateQueue,
): Promise<"stopped" | "lost"> {
  for await (const event of watcher.events()) {
    if (!CHANGES.has(event.kind)) continue;
    // An event without a path (a name that is not UTF-8): the update's walk finds what changed.
    if (event.paths.length === 0) updates.request([]);
    // A deleted or moved root is an event on the root; the watch on it is dead then.
    if (event.paths.includes(corpus.root) && !await isDirectory(corpus.root)) return "lost";
    // Writes the walk ignores (a log, a build folder) must not hold the debounce open.
    const paths = [];
    for (const path of event.paths) if (!await corpus.ignores(path)) paths.push(path);
    for (const path of paths) await watcher.notice(path);
    if (paths.length > 0) updates.request(paths.map((p) => relative(corpus.root, p)));
  }
  return await isDirectory(corpus.root) ? "stopped" : "lost";
}

/** Waits for the root to be a folder again; false when stopped first. */
async function reappears(root: string, signal: AbortSignal | undefined): Promise<boolean> {
  while (!signal?.aborted) {
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(done, REARM_EVERY_MS);
      signal?.addEventListener("abort", done, { once: true });
    });
    if (!signal?.aborted && await isDirectory(root)) return true;
  }
  return false;
}

async function isDirectory(path: string): Promise<boolean> {
  return (await Deno.stat(path).catch(() => null))?.isDirectory ?? false;
}

/**
 * Runs one update at a time; requests during the quiet time or a running
 * update coalesce, for at most `maxWaitMs` from the first of them.
 */
class UpdateQueue {
  #pending = new Set<string>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the oldest request not yet taken by an update arrived. */
  #waitingSince: number | undefined;
  #running: Promise<void> | null = null;
  /** Paths the running update takes in (at least 1 for a request without paths). */
  #inFlight = 0;
  /** A request without paths waits. */
  #unnamed = false;

  constructor(
    readonly corpus: ConfiguredCorpus,
    readonly lock: IndexLock,
    readonly options: WatchOptions,
    /** Runs before each update. */
    readonly prepare: () => Promise<void> | undefined,
    /** Told how many changed paths wait for an update, after each request and update. */
    readonly onWaiting: (waiting: number) => void = () => {},
  ) {}

  /** Changed paths that no finished update took in. */
  get waiting(): number {
    return this.#pending.size + this.#inFlight + (this.#unnamed && !this.#pending.size ? 1 : 0);
  }

  request(paths: string[]): void {
    for (const path of paths) this.#pending.add(path);
    this.#unnamed ||= paths.length === 0;
    this.onWaiting(this.waiting);
    this.#waitingSince ??= performance.now();
    const waited = performance.now() - this.#waitingSince;
    const quiet = this.options.debounceMs ?? 300;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(
      () => this.#start(),
      Math.max(0, Math.min(quiet, (this.options.maxWaitMs ?? 2000) - waited)),
    );
  }

  /** Waits for the update in flight; pending requests are dropped (stopping, or the root is gone). */
  async drain(): Promise<void> {
    clearTimeout(this.#timer);
    while (this.#running) await this.#running;
    this.#pending.clear();
    this.#waitingSince = undefined;
  }

  #start(): void {
    if (this.options.signal?.aborted) return;
    if (this.#running) {
      // Re-checked when the running update ends.
      return;
    }
    const paths = [...this.#pending].sort();
    this.#pending.clear();
    this.#waitingSince = undefined;
    this.#inFlight = Math.max(paths.length, this.#unnamed ? 1 : 0);
    this.#unnamed = false;
    this.#running = this.run("change", paths).then(() => {
      this.#running = null;
      this.#inFlight = 0;
      if (this.#pending.size > 0) this.request([]);
    });
  }

  /** One update, reported through `onUpdate`; undefined when stopped meanwhile. */
  async run(trigger: WatchUpdate["trigger"], paths: string[]): Promise<WatchUpdate | undefined> {
    const { signal, onUpdate } = this.options;
    let update: WatchUpdate;
    try {
      await this.prepare();
      update = {
        trigger,
        paths,
        summary: await indexHoldingLock(this.corpus, this.lock, { signal }),
      };
    } catch (error) {
      // Stopped, or the root vanished under the update: the watcher says that instead.
      if (signal?.aborted || trigger !== "initial" && !await isDirectory(this.corpus.root)) {
        return undefined;
      }
      const wrapped = error instanceof WayfinderError
        ? error
        : new WayfinderError("internal", (error as Error)?.message ?? String(error), {
          cause: error,
        });
      update = { trigger, paths, error: wrapped };
    }
    // A failed update leaves its paths behind the live generation: they still wait.
    if (update.error) this.#unnamed = true;
    this.onWaiting(this.waiting - this.#inFlight);
    // A failed catch-up is the caller's to throw or report, so it is never reported twice.
    if (!(update.error && trigger === "initial")) onUpdate?.(update);
    return update;
  }
}
