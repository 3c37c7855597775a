/**
 * The cheap freshness signal a search reads instead of walking the tree:
 * the stat of every folder an index run's walk listed, each taken just
 * before the listing, kept beside the generations for the generation that
 * run left live. Adding, removing or renaming a file moves its folder's
 * mtime, so comparing stats finds those changes with one `stat` per folder
 * and no file read. An edit in place moves only the file's own mtime: this
 * signal cannot see it (`status` and `search --check-fresh` do). Nor can it
 * tell apart two changes to one folder within one tick of the kernel's
 * coarse clock (a few ms) when the run listed the folder between them.
 */
import { join } from "node:path";
import { replaceJsonFile } from "../store/mod.ts";

/** The record's file name inside the index folder. */
export const FOLDERS_FILE = "folders.json";

/** Folder stats of one generation's walk. */
export interface FolderRecord {
  generation: string;
  /** Root-relative folder path ("" for the root) → `mtime:inode` before it was listed. */
  folders: Record<string, string>;
}

/** What a check of the recorded folders found. */
export interface FolderCheck {
  /** Folders whose stat moved (or that are gone), among those checked. */
  changed: string[];
  /** Folders checked before the time budget ran out. */
  checked: number;
  /** Folders recorded. */
  total: number;
}

function stampOf(info: Deno.FileInfo): string {
  return `${info.mtime?.getTime()}:${info.ino}`;
}

/** Collects the folders a walk lists, for `writeFolderRecord`. */
export class FolderRecorder {
  readonly folders: Record<string, string> = {};
  /** The walk's `onFolder`. */
  readonly add = (path: string, info: Deno.FileInfo): void => {
    this.folders[path] = stampOf(info);
  };
  get empty(): boolean {
    return Object.keys(this.folders).length === 0;
  }
}

/** Best effort, through a rename so a reader never sees half: without it, searches check the slow way. */
export function writeFolderRecord(indexDir: string, record: FolderRecord): Promise<void> {
  return replaceJsonFile(join(indexDir, FOLDERS_FILE), record);
}

/** The record for `generation`, or null when there is none (another generation's, torn, absent). */
export async function readFolderRecord(
  indexDir: string,
  generation: string,
): Promise<FolderRecord | null> {
  try {
    const record = JSON.parse(
      await Deno.readTextFile(join(indexDir, FOLDERS_FILE)),
    ) as FolderRecord;
    const ok = record?.generation === generation && typeof record.folders === "object" &&
      record.folders !== null;
    return ok ? record : null;
  } catch {
    return null;
  }
}

/** How many stats a check may make between looks at the clock. */
const CLOCK_EVERY = 64;

/**
 * Stats each recorded folder under `root` until `budgetMs` runs out, in
 * path order (synchronous stats: a few microseconds each, no file opened).
 */
export function checkFolders(root: string, record: FolderRecord, budgetMs: number): FolderCheck {
  const paths = Object.keys(record.folders).sort();
  const started = performance.now();
  const changed: string[] = [];
  let checked = 0;
  for (const path of paths) {
    if (checked % CLOCK_EVERY === 0 && checked > 0 && performance.now() - started > budgetMs) break;
    let stamp: string | null;
    try {
      stamp = stampOf(Deno.statSync(join(root, path)));
    } catch {
      stamp = null;
    }
    if (stamp !== record.folders[path]) changed.push(path);
    checked++;
  }
  return { changed, checked, total: paths.length };
}
