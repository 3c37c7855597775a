/**
 * The `index` runs of one server. A first index of a large tree takes
 * minutes, longer than a client waits for an answer (the SDK's client gives
 * up after 60 s, progress or not), and a client that gives up cancels the
 * call. So a call waits a bounded time: the run's summary if it ended, else
 * where it is, and the run goes on without a request until the server stops.
 *
 * A rebuild is a run of its own: a call asking for one never joins a plain
 * run, whose result would not be rebuilt. Asked while a plain run goes, the
 * rebuild starts once that run ends (it holds the index lock; its callers
 * still get its result) and every call made meanwhile, plain or rebuild,
 * joins the rebuild: a rebuilt index is an up-to-date one too.
 */
import type { IndexSummary } from "../mod.ts";
import type { ConfiguredCorpus, IndexProgress } from "../cli/mod.ts";

/** How long an `index` call waits for its run before answering that the run goes on. */
export const INDEX_ANSWER_MS = 20_000;

/** What an `index` call answers: the run's summary, or where the run is when it goes on. */
export type IndexOutcome =
  | { ended: true; summary: IndexSummary }
  | { ended: false; progress: IndexProgress | null; queued: boolean };

/** One corpus's running (or, a rebuild, queued) index run and who waits for it. */
interface Run {
  rebuild: boolean;
  done: Promise<IndexSummary>;
  stop: AbortController;
  progress: IndexProgress | null;
  /** Waiting for the run before it to end (a plain run a rebuild follows, or a cancelled one). */
  queued: boolean;
  /** Progress listeners of the calls waiting now. */
  listeners: Set<(progress: IndexProgress) => void>;
  /** Calls waiting that have not answered. */
  waiting: number;
  /** A call answered that the run goes on: no request owns it any more. */
  detached: boolean;
}

/** Runs at most one index run per corpus; every run ends when `stop` is called. */
export class IndexRuns {
  readonly #runs = new Map<ConfiguredCorpus, Run>();
  readonly #ends = new Set<Promise<unknown>>();
  readonly #shutdown = new AbortController();

  constructor(readonly answerMs: number = INDEX_ANSWER_MS) {}

  /**
   * Waits up to `answerMs` for the corpus's run, started unless one runs
   * already (a second call joins it rather than meeting its lock; a rebuild
   * joins only a rebuild, see above).
   * `signal` is the call's: aborted before the answer, it stops the run
   * unless another call waits for it too or an earlier call already
   * answered that it goes on.
   * @throws the run's error when it ends in one within the wait.
   */
  async wait(
    corpus: ConfiguredCorpus,
    signal: AbortSignal,
    onProgress?: (progress: IndexProgress) => void,
    rebuild = false,
  ): Promise<IndexOutcome> {
    signal.throwIfAborted();
    const running = this.#runs.get(corpus);
    // A run its only caller cancelled is ending: a new call queues behind it, not into its abort.
    const joins = running && !running.stop.signal.aborted && (running.rebuild || !rebuild);
    const run = joins ? running : this.#start(corpus, rebuild, running?.done);
    run.waiting++;
    if (onProgress) run.listeners.add(onProgress);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let cancelled: (() => void) | undefined;
    try {
      return await Promise.race([
        run.done.then((summary) => ({ ended: true as const, summary })),
        new Promise<IndexOutcome>((answer) => {
          timer = setTimeout(() => {
            run.detached = true;
            answer({ ended: false, progress: run.progress, queued: run.queued });
          }, this.answerMs);
        }),
        new Promise<never>((_, reject) => {
          cancelled = () => {
            if (run.waiting === 1 && !run.detached) run.stop.abort(signal.reason);
            reject(signal.reason);
          };
          signal.addEventListener("abort", cancelled, { once: true });
        }),
      ]);
    } finally {
      clearTimeout(timer);
      if (cancelled) signal.removeEventListener("abort", cancelled);
      if (onProgress) run.listeners.delete(onProgress);
      run.waiting--;
    }
  }

  /** Aborts every run; they end soon after, keeping what they published. */
  stop(): void {
    this.#shutdown.abort();
  }

  /** Settles once every run started so far has ended. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#ends]);
  }

  /** Starts a run, or queues it behind `after`, the corpus's run that goes on and holds its lock. */
  #start(corpus: ConfiguredCorpus, rebuild: boolean, after?: Promise<unknown>): Run {
    const stop = new AbortController();
    const state: Omit<Run, "done"> = {
      rebuild,
      stop,
      progress: null,
      queued: after !== undefined,
      listeners: new Set(),
      waiting: 0,
      detached: false,
    };
    const signal = AbortSignal.any([stop.signal, this.#shutdown.signal]);
    const index = () => {
      state.queued = false;
      signal.throwIfAborted();
      return corpus.index({
        rebuild,
        onProgress: (progress) => {
          state.progress = progress;
          for (const listener of state.listeners) listener(progress);
        },
        signal,
      });
    };
    const done = (after ?? Promise.resolve()).then(index, index);
    const run: Run = Object.assign(state, { done });
    this.#runs.set(corpus, run);
    const ended: Promise<void> = done.then(() => {}, () => {}).finally(() => {
      if (this.#runs.get(corpus) === run) this.#runs.delete(corpus);
      this.#ends.delete(ended);
    });
    this.#ends.add(ended);
    return run;
  }
}
