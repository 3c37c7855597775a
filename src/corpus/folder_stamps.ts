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
 *
 * So that a search costs the same on a tree of many folders, one check stats
 * at most `FOLDERS_PER_CHECK` of them: the ones changed most recently before
 * the run listed them (where files tend to come and go), then the others in
 * turn, a share per search, the turn kept beside the record. A change in a
 * quiet folder of a large tree is seen within a few searches, not the first.
 */
import { join } from "node:path";
import { replaceJsonFile } from "../store/mod.ts";

/** The record's file name inside the index folder. */
export const FOLDERS_FILE = "folders.json";

/** Which share of the folders the next check stats, for the record's generation. */
export const FOLDER_TURN_FILE = "folders-turn.json";

/** Folders one check stats at most, so its cost does not grow with the tree. */
export const FOLDERS_PER_CHECK = 256;

/** Of those, the folders changed most recently before the run listed them: checked every time. */
export const RECENT_FOLDERS = 64;

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
  /** The time budget ran out before every folder of this turn was checked. */
  timedOut: boolean;
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

/** A stamp's modification time, ms (0 when it has none). */
function mtimeOf(stamp: string): number {
  return Number(stamp.slice(0, stamp.indexOf(":"))) || 0;
}

/**
 * The folders check number `turn` stats: every one when they are few;
 * else the `RECENT_FOLDERS` changed most recently, then the turn's share
 * of the others, so that successive turns go round them all.
 */
export function foldersOfTurn(
  record: FolderRecord,
  turn: number,
  limit = FOLDERS_PER_CHECK,
): string[] {
  const paths = Object.keys(record.folders);
  if (paths.length <= limit) return paths.sort();
  const mtime = new Map(paths.map((path) => [path, mtimeOf(record.folders[path]!)]));
  paths.sort((a, b) => mtime.get(b)! - mtime.get(a)! || (a < b ? -1 : a > b ? 1 : 0));
  const recent = paths.slice(0, RECENT_FOLDERS);
  const rest = paths.slice(RECENT_FOLDERS);
  const share = limit - recent.length;
  const start = (turn * share) % rest.length;
  const chosen = rest.slice(start, start + share);
  chosen.push(...rest.slice(0, share - chosen.length));
  return [...recent, ...chosen];
}

/**
 * Stats the folders of check number `turn` (see `foldersOfTurn`) under
 * `root` until `budgetMs` runs out (synchronous stats: a few microseconds
 * each, no file opened).
 */
export function checkFolders(
  root: string,
  record: FolderRecord,
  budgetMs: number,
  turn = 0,
): FolderCheck {
  const paths = foldersOfTurn(record, turn);
  const started = performance.now();
  const changed: string[] = [];
  let checked = 0;
  let timedOut = false;
  for (const path of paths) {
    if (checked % CLOCK_EVERY === 0 && checked > 0 && performance.now() - started > budgetMs) {
      timedOut = true;
      break;
    }
    let stamp: string | null;
    try {
      stamp = stampOf(Deno.statSync(join(root, path)));
    } catch {
      stamp = null;
    }
    if (stamp !== record.folders[path]) changed.push(path);
    checked++;
  }
  return { changed, checked, total: Object.keys(record.folders).length, timedOut };
}

/**
 * The check a search makes: the turn after the last one for this
 * generation (kept in `folders-turn.json`, best effort, only for a record
 * of more folders than one check stats).
 */
export async function checkFoldersInTurn(
  indexDir: string,
  root: string,
  record: FolderRecord,
  budgetMs: number,
): Promise<FolderCheck> {
  if (Object.keys(record.folders).length <= FOLDERS_PER_CHECK) {
    return checkFolders(root, record, budgetMs);
  }
  const path = join(indexDir, FOLDER_TURN_FILE);
  let turn = 0;
  try {
    const last = JSON.parse(await Deno.readTextFile(path));
    if (last?.generation === record.generation && Number.isSafeInteger(last.next)) turn = last.next;
  } catch {
    // None yet, or torn: the first turn.
  }
  const check = checkFolders(root, record, budgetMs, turn);
  await replaceJsonFile(path, { generation: record.generation, next: turn + 1 });
  return check;
}
