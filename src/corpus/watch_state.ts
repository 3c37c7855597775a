/**
 * What a running `watch` tells searches in other processes: that it holds
 * the tree under watch, which generation it last left live, and whether
 * changes are waiting for an update. A search trusts it only while the
 * watcher still holds the index lock, so a watcher that died says nothing.
 */
import { join } from "node:path";
import { readIndexLock, replaceJsonFile } from "../store/mod.ts";

/** The state's file name inside the index folder. */
export const WATCH_FILE = "watch.json";

/** A watcher's state, as written. */
export interface WatchState {
  pid: number;
  /** When its lock was taken (the lock record's `since`): a reused pid does not match. */
  since: string;
  /** The generation live after its last update, or null before the first. */
  generation: string | null;
  /** Paths changed that no finished update has taken in yet (0: up to date). */
  waiting: number;
}

/** Writes the state through a rename; best effort (a search without it checks folders). */
export function writeWatchState(indexDir: string, state: WatchState): Promise<void> {
  return replaceJsonFile(join(indexDir, WATCH_FILE), state);
}

/** Removes the state of the watcher `pid`, as it stops. */
export async function clearWatchState(indexDir: string, pid: number): Promise<void> {
  const state = await readState(indexDir);
  if (state?.pid === pid) await Deno.remove(join(indexDir, WATCH_FILE)).catch(() => {});
}

async function readState(indexDir: string): Promise<WatchState | null> {
  try {
    const state = JSON.parse(await Deno.readTextFile(join(indexDir, WATCH_FILE))) as WatchState;
    return typeof state?.pid === "number" && typeof state.waiting === "number" ? state : null;
  } catch {
    return null;
  }
}

/** The state of the watcher holding the index lock now, or null when no live watcher does. */
export async function liveWatchState(indexDir: string): Promise<WatchState | null> {
  const state = await readState(indexDir);
  if (!state) return null;
  const holder = readIndexLock(indexDir);
  const holds = holder?.alive && holder.pid === state.pid && holder.since === state.since;
  return holds ? state : null;
}

/**
 * Writes a watcher's state one write at a time, in order: the count of
 * waiting paths, and the generation live when it is written.
 */
export class WatchStateWriter {
  #chain: Promise<void> = Promise.resolve();
  #last = "";

  constructor(
    private readonly indexDir: string,
    private readonly pid: number,
    private readonly since: string,
  ) {}

  /** Records `waiting` (and the live generation); a state equal to the last written is skipped. */
  update(waiting: number, generation: () => Promise<string | null>): Promise<void> {
    this.#chain = this.#chain.then(async () => {
      const state = { pid: this.pid, since: this.since, generation: await generation(), waiting };
      const text = JSON.stringify(state);
      if (text === this.#last) return;
      this.#last = text;
      await writeWatchState(this.indexDir, state);
    });
    return this.#chain;
  }

  /** Waits for the writes queued, then removes the state. */
  async clear(): Promise<void> {
    await this.#chain;
    await clearWatchState(this.indexDir, this.pid);
  }
}
