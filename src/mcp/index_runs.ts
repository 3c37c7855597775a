/**
 * The `index` runs of one server. A first index of a large tree takes
 * minutes, longer than a client waits for an answer (the SDK's client gives
 * up after 60 s, progress or not), and a client that gives up cancels the
 * call. So a call waits a bounded time: the run's summary if it ended, else
 * where it is, and the run goes on without a request until the server stops.
 */
import type { Corpus } from "../corpus/mod.ts";
import type { IndexProgress, IndexSummary } from "../pipeline/mod.ts";

/** How long an `index` call waits for its run before answering that the run goes on. */
export const INDEX_ANSWER_MS = 20_000;

/** What an `index` call answers: the run's summary, or where the run is when it goes on. */
export type IndexOutcome =
  | { ended: true; summary: IndexSummary }
  | { ended: false; progress: IndexProgress | null };

/** One corpus's running index run and who waits for it. */
interface Run {
  done: Promise<IndexSummary>;
  stop: AbortController;
  progress: IndexProgress | null;
  /** Progress listeners of the calls waiting now. */
  listeners: Set<(progress: IndexProgress) => void>;
  /** Calls waiting that have not answered. */
  waiting: number;
  /** A call answered that the run goes on: no request owns it any more. */
  detached: boolean;
}

/** Runs at most one index run per corpus; every run ends when `stop` is called. */
export class IndexRuns {
  readonly #runs = new Map<Corpus, Run>();
  readonly #ends = new Set<Promise<unknown>>();
  readonly #shutdown = new AbortController();

  constructor(readonly answerMs: number = INDEX_ANSWER_MS) {}

  /**
   * Waits up to `answerMs` for the corpus's run, started unless one runs
   * already (a second call joins it rather than meeting its lock).
   * `signal` is the call's: aborted before the answer, it stops the run
   * unless another call waits for it too or an earlier call already
   * answered that it goes on.
   * @throws the run's error when it ends in one within the wait.
   */
  async wait(
    corpus: Corpus,
    signal: AbortSignal,
    onProgress?: (progress: IndexProgress) => void,
  ): Promise<IndexOutcome> {
    signal.throwIfAborted();
    const run = this.#runs.get(corpus) ?? this.#start(corpus);
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
            answer({ ended: false, progress: run.progress });
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

  #start(corpus: Corpus): Run {
    const stop = new AbortController();
    const state: Omit<Run, "done"> = {
      stop,
      progress: null,
      listeners: new Set(),
      waiting: 0,
      detached: false,
    };
    const done = corpus.index({
      onProgress: (progress) => {
        state.progress = progress;
        for (const listener of state.listeners) listener(progress);
      },
      signal: AbortSignal.any([stop.signal, this.#shutdown.signal]),
    });
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
