/**
 * Events an index run reports as it goes, one JSON object each, for scripts
 * and agent runners (`index --events`). Every event carries `event` and `time`.
 */
import type { SkippedFile } from "../walk/mod.ts";
import type { IndexSummary } from "./index_corpus.ts";

/** The run took the lock and starts walking. */
export interface StartedEvent {
  /** The run started. */
  event: "started";
  /** When, as an ISO 8601 timestamp. */
  time: string;
  /** The tree's absolute path. */
  root: string;
  /** The index folder. */
  index: string;
}

/** A file was (re)chunked, dropped or skipped. Unchanged files are not reported. */
export interface FileEvent {
  /** One file walked. */
  event: "file";
  /** When, as an ISO 8601 timestamp. */
  time: string;
  /** The file, relative to the root. */
  path: string;
  /** What the run does with it. */
  status: "added" | "changed" | "deleted" | "skipped";
  /** Chunks the file now has (added, changed). */
  chunks?: number;
  /** Why it was skipped (`too_large`, `binary`, …). */
  reason?: string;
}

/** A batch of passages was embedded. */
export interface BatchEvent {
  /** A batch of passages embedded. */
  event: "batch";
  /** When, as an ISO 8601 timestamp. */
  time: string;
  /** Passages embedded so far. */
  done: number;
  /** Passages the run embeds in all. */
  total: number;
}

/**
 * A generation was published before every passage had its vector: all of it
 * is searchable lexically, `dense.covered` of `dense.total` rows densely.
 */
export interface PartialEvent {
  /** A searchable generation published before every passage has its vector. */
  event: "partial";
  /** When, as an ISO 8601 timestamp. */
  time: string;
  /** The generation published. */
  generation: string;
  /** Passages with a vector, of all. */
  dense: { covered: number; total: number };
}

/** The run ended well: a generation was published, or the index was already current. */
export interface PublishedEvent {
  /** The run published its generation (or found nothing to change). */
  event: "published";
  /** When, as an ISO 8601 timestamp. */
  time: string;
  /** The new generation, or null when nothing changed and nothing was written. */
  generation: string | null;
  /** True when nothing changed and nothing was written. */
  current: boolean;
  /** Files walked, changed, deleted and skipped. */
  files: { seen: number; changed: number; deleted: number; skipped: number };
  /** Passages embedded by this run. */
  embeddedChunks: number;
  /** Passages kept from the previous generation. */
  reusedChunks: number;
  /** Passages dropped with their changed or deleted files. */
  removedChunks: number;
  /** Passages cut to the model's budget. */
  truncatedChunks: number;
  /** Wall-clock time of the run. */
  elapsedMs: number;
  /** Present when the live generation could not be built on (damaged, another format) and the run rebuilt it. */
  rebuilt?: string;
}

/** The run failed; the previous generation stays live. */
export interface FailedEvent {
  /** The run failed; the previous generation stays live. */
  event: "failed";
  /** When, as an ISO 8601 timestamp. */
  time: string;
  /** The error code (`io`, `long_input`, `busy`, `aborted`, …). */
  code: string;
  /** Why, as the error says it. */
  message: string;
}

/** One event of an index run, as `index --events` prints it (one JSON object a line). */
export type IndexEvent =
  | StartedEvent
  | FileEvent
  | BatchEvent
  | PartialEvent
  | PublishedEvent
  | FailedEvent;

/** An event without its time; the emitter stamps it. */
export type IndexEventInput = IndexEvent extends infer E
  ? E extends IndexEvent ? Omit<E, "time"> : never
  : never;

/**
 * Stamps events with the time and hands them on; a no-op without a listener.
 * A listener that throws (its pipe closed) is dropped: events are a report,
 * never a reason for the index run to fail.
 */
export function eventEmitter(
  listener: ((event: IndexEvent) => void) | undefined,
): (event: IndexEventInput) => void {
  let live = listener;
  return (event) => {
    try {
      live?.({ ...event, time: new Date().toISOString() } as IndexEvent);
    } catch {
      live = undefined;
    }
  };
}

/** A `file` event for each file the walk skipped. */
export function emitSkipped(
  emit: (event: IndexEventInput) => void,
  skipped: readonly SkippedFile[],
): void {
  for (const { path, reason } of skipped) emit({ event: "file", path, status: "skipped", reason });
}

/**
 * The `published` event of a run, written or current alike: its summary
 * less the root and index (told by `started`) and the skipped files (each
 * told by a `file` event).
 */
export function publishedEvent(summary: IndexSummary): IndexEventInput {
  const { skipped: _skipped, root: _root, index: _index, ...published } = summary;
  return { event: "published", ...published };
}
