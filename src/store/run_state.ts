/**
 * What an index run leaves beside the generations for `status` to read: a
 * progress file while it runs, and a record of the last failure until a
 * later run succeeds. Both are advisory: losing one never harms the index.
 */
import { join } from "node:path";
import process from "node:process";
import { _PRIVATE_FILE } from "./_durable.ts";

/** File names inside the index directory. */
export const RUN_FILES = { progress: "progress.json", failure: "last-failure.json" } as const;

/** Where a running index is, as its writer last reported. */
export interface RunProgress {
  /** The process running it. */
  pid: number;
  /** When it started, ISO 8601. */
  startedAt: string;
  /** When it last reported, ISO 8601. */
  updatedAt: string;
  /** The stage running now. */
  phase: "walk" | "chunk" | "embed" | "write";
  /** Files through the current stage. */
  filesDone: number;
  /** Files the run goes through. */
  filesTotal: number;
  /** Passages embedded so far. */
  chunksDone: number;
  /** Passages the run embeds. */
  chunksTotal: number;
}

/** The last index run that failed. */
export interface RunFailure {
  /** When it failed, ISO 8601. */
  at: string;
  /** The process that ran it. */
  pid: number;
  /** The error code (`io`, `long_input`, …). */
  code: string;
  /** Why, as the error said it. */
  message: string;
}

/** Writes `value` as JSON through a temporary file and a rename, so readers never see half. */
async function writeAtomically(path: string, value: unknown): Promise<void> {
  const temp = `${path}.tmp-${process.pid}`;
  await Deno.writeTextFile(temp, JSON.stringify(value) + "\n", { mode: _PRIVATE_FILE });
  await Deno.rename(temp, path);
}

async function readJson<T>(path: string): Promise<T | null> {
  try {
    return JSON.parse(await Deno.readTextFile(path)) as T;
  } catch {
    // Missing, or torn by a crash: either way there is nothing to report.
    return null;
  }
}

/** Records progress; errors (a full disk) are swallowed, progress is never worth a failed run. */
export async function writeRunProgress(indexDir: string, progress: RunProgress): Promise<void> {
  await writeAtomically(join(indexDir, RUN_FILES.progress), progress).catch(() => {});
}

export async function clearRunProgress(indexDir: string): Promise<void> {
  await Deno.remove(join(indexDir, RUN_FILES.progress)).catch(() => {});
}

export function readRunProgress(indexDir: string): Promise<RunProgress | null> {
  return readJson<RunProgress>(join(indexDir, RUN_FILES.progress));
}

/** Records a failed run; best effort, like progress. */
export async function recordRunFailure(indexDir: string, failure: RunFailure): Promise<void> {
  await writeAtomically(join(indexDir, RUN_FILES.failure), failure).catch(() => {});
}

export async function clearRunFailure(indexDir: string): Promise<void> {
  await Deno.remove(join(indexDir, RUN_FILES.failure)).catch(() => {});
}

export function readRunFailure(indexDir: string): Promise<RunFailure | null> {
  return readJson<RunFailure>(join(indexDir, RUN_FILES.failure));
}
