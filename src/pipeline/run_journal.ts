/**
 * The record an index run keeps for others while it holds the lock: a
 * progress file `status` reads, the last failure until a later success
 * clears it, and the `started`/`published`/`failed` events.
 */
import process from "node:process";
import { WayfinderError } from "../error.ts";
import {
  clearRunFailure,
  clearRunProgress,
  recordRunFailure,
  type RunProgress,
  writeRunProgress,
} from "../store/mod.ts";
import { type IndexEventInput, publishedEvent } from "./index_events.ts";
import type { IndexProgress, IndexSummary } from "./index_corpus.ts";

/** Progress is written at most this often, and at each change of phase. */
const PROGRESS_EVERY_MS = 250;

/** OS error codes worth naming in plain words: the cause a user can act on. */
const OS_CAUSES: Record<string, string> = {
  ENOSPC: "no space left on device",
  EDQUOT: "disk quota exceeded",
  EROFS: "read-only file system",
};

export interface RunJournal {
  /** Wraps the caller's progress callback so the progress file follows too. */
  progress(p: IndexProgress): void;
  succeeded(summary: IndexSummary): Promise<void>;
  /** Records the failure (not an abort) and returns the error to throw, worded for the user. */
  failed(error: unknown): Promise<unknown>;
  /** Removes the progress file once pending writes are done. */
  close(): Promise<void>;
}

/** Starts the journal of one run in `indexDir`. */
// Over 60 lines: the returned methods share one run's state in closures.
export function startJournal(
  options: {
    root: string;
    indexDir: string;
    /** The run's stop signal: what it throws once aborted is an abort, whatever its reason. */
    signal?: AbortSignal;
    onProgress?: (p: IndexProgress) => void;
    emit: (event: IndexEventInput) => void;
  },
): RunJournal {
  const { indexDir, emit } = options;
  const startedAt = new Date().toISOString();
  let writes: Promise<void> = Promise.resolve();
  let lastWrite = 0;
  let lastPhase = "";
  emit({ event: "started", root: options.root, index: indexDir });
  return {
    progress(p) {
      options.onProgress?.(p);
      const now = performance.now();
      if (p.phase === lastPhase && now - lastWrite < PROGRESS_EVERY_MS) return;
      lastWrite = now;
      lastPhase = p.phase;
      const record: RunProgress = {
        pid: process.pid,
        startedAt,
        updatedAt: new Date().toISOString(),
        ...p,
      };
      writes = writes.then(() => writeRunProgress(indexDir, record));
    },
    async succeeded(summary) {
      await clearRunFailure(indexDir);
      emit(publishedEvent(summary));
    },
    async failed(error) {
      const worded = explain(error, options.root, indexDir);
      const stopped = aborted(error, options.signal);
      const code = stopped
        ? "aborted"
        : worded instanceof WayfinderError
        ? worded.code
        : "internal";
      const message = (worded as Error)?.message ?? String(worded);
      if (!stopped) {
        await recordRunFailure(indexDir, {
          at: new Date().toISOString(),
          pid: process.pid,
          code,
          message,
        });
      }
      emit({ event: "failed", code, message });
      return worded;
    },
    async close() {
      await writes;
      await clearRunProgress(indexDir);
    },
  };
}

/** An AbortError, or the reason the run's signal was aborted with (an MCP cancel gives one). */
function aborted(error: unknown, signal?: AbortSignal): boolean {
  return (error as Error)?.name === "AbortError" ||
    (signal?.aborted === true && error === signal.reason);
}

/** The OS error code behind an error, following `cause` links. */
function osCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && depth < 5; e = (e as Error).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && code in OS_CAUSES) return code;
  }
  return undefined;
}

/** A full disk (or quota, or read-only mount) becomes one line that names it. */
function explain(error: unknown, root: string, indexDir: string): unknown {
  const code = osCode(error);
  if (!code) return error;
  return new WayfinderError(
    "io",
    `Cannot update the index of ${root}: ${OS_CAUSES[code]} (${code}) writing ${indexDir}; ` +
      "the previous index stays live",
    { cause: error },
  );
}
