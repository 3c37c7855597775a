import { join } from "node:path";
import process from "node:process";
import { WayfinderError } from "../error.ts";
import { _PRIVATE_DIR, _PRIVATE_FILE } from "./_durable.ts";

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

/** True when a process with this pid exists (EPERM: it exists but is not ours). */
function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
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
 * (crash, SIGKILL) is taken over; so is an unreadable one, which can only be
 * a lock whose writer died mid-write. Two runs taking over the same stale
 * lock at the same instant could both succeed; that race needs a crash
 * followed by two simultaneous starts and is accepted.
 *
 * @param indexDir The corpus's index directory; created if missing.
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
    if (held !== null && isAlive(held.pid) || attempt >= 2) {
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
  return { pid: held.pid, since: held.since, alive: isAlive(held.pid) };
}

/** True when a process with this pid runs: a progress file from a dead writer is stale. */
export function processAlive(pid: number): boolean {
  return isAlive(pid);
}
