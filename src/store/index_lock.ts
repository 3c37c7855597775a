import { join } from "node:path";
import process from "node:process";
import { WayfinderError } from "../error.ts";
import { _PRIVATE_DIR, _PRIVATE_FILE } from "./_durable.ts";
import { markIndexDir } from "./index_dir.ts";
import { processStartMs } from "./process_start.ts";

/** A held index lock. */
export interface IndexLock {
  /** Removes the lock file if it is still ours. */
  release(): Promise<void>;
}

interface LockRecord {
  pid: number;
  since: string;
  token: string;
}

/**
 * Clock slack when comparing a process's start with a record's time: `/proc`
 * start times are whole-second estimates, and the wall clock may be stepped.
 */
const SLACK_MS = 5_000;

/**
 * True when the process that wrote a record `since` still runs. A pid alone
 * is not enough: after a crash or a reboot the OS hands the pid to another
 * process (this one included), which started after the record was written.
 * EPERM from `kill` means a process exists but is not ours. Without a
 * readable `since` or a known start time, the pid existing is what counts.
 */
function isAlive(pid: number, since?: string): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  const at = Date.parse(since ?? "");
  // This process wrote it only if it was written after this process started.
  if (pid === process.pid) return Number.isFinite(at) && at >= performance.timeOrigin - SLACK_MS;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const started = processStartMs(pid);
  return !Number.isFinite(at) || started === null || started <= at + SLACK_MS;
}

function readRecord(path: string): LockRecord | null {
  try {
    return JSON.parse(Deno.readTextFileSync(path)) as LockRecord;
  } catch {
    return null;
  }
}

/**
 * Takes the corpus's index lock: exclusively creates `lock` in the index
 * directory, recording pid and start time. A lock left by a dead process
 * (crash, SIGKILL) is taken over, also when its pid now names another
 * process (this one included) that started after the lock was written; so is
 * an unreadable one, which can only be a lock whose writer died mid-write. Two runs taking over the same stale
 * lock at the same instant could both succeed; that race needs a crash
 * followed by two simultaneous starts and is accepted.
 *
 * @param indexDir The corpus's index directory; created (and marked as one) if missing.
 * @param root The corpus root, for the message.
 * @returns The held lock.
 * @throws {WayfinderError} `busy` while a live process holds the lock;
 *   `io` when the directory cannot be written.
 */
export async function acquireIndexLock(
  indexDir: string,
  root: string = indexDir,
): Promise<IndexLock> {
  const path = join(indexDir, "lock");
  const mine: LockRecord = {
    pid: process.pid,
    since: new Date().toISOString(),
    token: crypto.randomUUID(),
  };
  try {
    await Deno.mkdir(indexDir, { recursive: true, mode: _PRIVATE_DIR });
  } catch (error) {
    throw new WayfinderError("io", `Cannot index ${root}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  // Before anything else lands there: a walk of a tree holding this folder then leaves it out.
  await markIndexDir(indexDir);
  for (let attempt = 0;; attempt++) {
    try {
      const record = JSON.stringify(mine) + "\n";
      await Deno.writeTextFile(path, record, { createNew: true, mode: _PRIVATE_FILE });
      break;
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) {
        throw new WayfinderError("io", `Cannot index ${root}: ${(error as Error).message}`, {
          cause: error,
        });
      }
    }
    const held = readRecord(path);
    if (held !== null && isAlive(held.pid, held.since) || attempt >= 2) {
      throw new WayfinderError(
        "busy",
        `Cannot index ${root}: index is busy (held by another wayfinder index or watch, pid ${
          held?.pid ?? "?"
        }, since ${held?.since ?? "?"})`,
      );
    }
    await Deno.remove(path).catch(() => {});
  }
  const ours = () => readRecord(path)?.token === mine.token;
  return {
    async release() {
      if (ours()) await Deno.remove(path).catch(() => {});
    },
  };
}

/** Who holds an index's lock, and whether that process still runs. */
export interface LockHolder {
  pid: number;
  since: string;
  alive: boolean;
}

/** The lock's holder, or null when nobody holds it; never waits, never takes it. */
export function readIndexLock(indexDir: string): LockHolder | null {
  const held = readRecord(join(indexDir, "lock"));
  if (held === null) return null;
  return { pid: held.pid, since: held.since, alive: isAlive(held.pid, held.since) };
}

/**
 * True when the process that wrote a record at `since` (ISO) with this pid
 * still runs: a progress file from a dead writer, or from a writer whose pid
 * another process has since been given, is stale.
 */
export function processAlive(pid: number, since?: string): boolean {
  return isAlive(pid, since);
}
