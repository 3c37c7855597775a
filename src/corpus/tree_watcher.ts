/**
 * Native file events for a tree's own folders. Each real folder is watched
 * one level deep, never through a symlink: a recursive watch follows every
 * link it meets, so a link to `/` or to a home folder would put the outside
 * tree under watch (and fail on the first folder it may not read). Folders
 * that appear later are watched from the next `rearm`, which the watcher's
 * user calls before each update, so that update's walk covers the gap.
 * Folders the walk never enters (`node_modules`, git-ignored build output)
 * are not watched either; an edited ignore file lists the folders anew.
 */
import { basename, join } from "node:path";
import { IGNORE_FILES } from "../walk/mod.ts";

/** Whether the walk never enters a folder, so no event in it can matter. */
export type FolderSkip = (folder: string) => boolean | Promise<boolean>;

/** Tries at listing and watching while folders vanish in between. */
const ATTEMPTS = 5;

export class TreeWatcher {
  #watcher: Deno.FsWatcher;
  #folders: Set<string>;
  /** A folder appeared that is not watched yet. */
  #stale = false;
  #closed = false;

  private constructor(
    readonly root: string,
    readonly skips: FolderSkip,
    watched: { watcher: Deno.FsWatcher; folders: string[] },
  ) {
    this.#watcher = watched.watcher;
    this.#folders = new Set(watched.folders);
  }

  /**
   * Watches the real folders under `root` that `skips` does not rule out.
   * @returns The watcher, or undefined when the root is gone.
   */
  static async open(
    root: string,
    skips: FolderSkip,
  ): Promise<TreeWatcher | undefined> {
    const watched = await watchFolders(root, skips);
    return watched && new TreeWatcher(root, skips, watched);
  }

  /**
   * The events, until `close`. An event Deno cannot decode (a file name that
   * is not UTF-8) comes as one of kind `any` on no path: something changed,
   * somewhere.
   */
  async *events(): AsyncGenerator<Deno.FsEvent> {
    while (!this.#closed) {
      const watcher = this.#watcher;
      const events = watcher[Symbol.asyncIterator]();
      for (;;) {
        let next: IteratorResult<Deno.FsEvent>;
        try {
          next = await events.next();
        } catch (error) {
          // The watcher itself lives on; only this event's path was lost.
          if (!(error instanceof TypeError)) throw error;
          yield { kind: "any", paths: [] };
          continue;
        }
        if (next.done) break;
        yield next.value;
      }
      // Ended by `rearm` swapping in a new watcher: follow that one.
      if (watcher === this.#watcher) return;
    }
  }

  /**
   * Notes a path an event named: a real folder not watched yet, or an edited
   * ignore file (which may let the walk into a folder), makes the next
   * `rearm` list the folders anew.
   */
  async notice(path: string): Promise<void> {
    if (this.#stale || this.#folders.has(path)) return;
    if (IGNORE_FILES.includes(basename(path))) return void (this.#stale = true);
    if (await this.skips(path)) return;
    const info = await Deno.lstat(path).catch(() => null);
    if (info?.isDirectory) this.#stale = true;
  }

  /** Watches the tree's folders anew when one appeared since; the old watch ends once the new one is on. */
  async rearm(): Promise<void> {
    if (!this.#stale || this.#closed) return;
    this.#stale = false;
    const watched = await watchFolders(this.root, this.skips).catch(() => undefined);
    // Gone, or failing now: the old watch goes on, and the root's own events say if it is gone.
    if (!watched) return void (this.#stale = true);
    if (this.#closed) return watched.watcher.close();
    const old = this.#watcher;
    this.#watcher = watched.watcher;
    this.#folders = new Set(watched.folders);
    old.close();
  }

  close(): void {
    this.#closed = true;
    try {
      this.#watcher.close();
    } catch {
      // Closed already.
    }
  }
}

/** One watcher on every real folder under `root`, or undefined when the root is gone. */
async function watchFolders(
  root: string,
  skips: FolderSkip,
): Promise<{ watcher: Deno.FsWatcher; folders: string[] } | undefined> {
  for (let attempt = 1;; attempt++) {
    if (!(await Deno.stat(root).catch(() => null))?.isDirectory) return undefined;
    const folders = await realFolders(root, skips);
    try {
      return { watcher: Deno.watchFs(folders, { recursive: false }), folders };
    } catch (error) {
      // A folder removed between listing and watching: list again.
      if (!(error instanceof Deno.errors.NotFound) || attempt >= ATTEMPTS) throw error;
    }
  }
}

/**
 * `root` and every folder under it reached without a symlink, breadth first.
 * Folders that cannot be listed are left out (the walk reports them), and so
 * are names that are not UTF-8, which Deno cannot open.
 */
async function realFolders(root: string, skips: FolderSkip): Promise<string[]> {
  const folders = [root];
  for (let i = 0; i < folders.length; i++) {
    const entries = await Array.fromAsync(Deno.readDir(folders[i]!)).catch(() => []);
    for (const entry of entries) {
      // A symlink is never a directory entry here, whatever it points at.
      if (!entry.isDirectory) continue;
      const folder = join(folders[i]!, entry.name);
      if (await skips(folder)) continue;
      if (
        entry.name.includes("\uFFFD") && !await Deno.lstat(folder).then(() => true, () => false)
      ) {
        continue;
      }
      folders.push(folder);
    }
  }
  return folders;
}
