/**
 * The walk's verdict on one path at a time, for a watcher that hears of
 * paths through file events rather than by walking: the same ignore files,
 * default excludes and globs as {@link walkTree}, read once per folder.
 */
import { join } from "node:path";
import { IGNORE_FILES, loadRules, rootRules, type Rules } from "./ignore_rules.ts";
import { keepsDir, keepsFile, selection } from "./selection.ts";

/** Whether a root-relative posix path lies where the walk never looks. */
export interface PathFilter {
  /**
   * True when the walk would leave the path out: under `.git`, an ignored or
   * excluded folder, or an ignored, excluded or not included file. An ignore
   * file is never left out (a change to it changes what is walked), and its
   * folder's rules are read again.
   */
  ignores(rel: string): Promise<boolean>;
}

/**
 * A filter for paths under `root`. Folders' ignore files are read on first
 * need and kept until an event names one of them.
 */
export function pathFilter(
  root: string,
  options: { include?: string[]; exclude?: string[] } = {},
): PathFilter {
  const chosen = selection(options);
  // Rules for the entries of a folder, by its root-relative path ("" for the root).
  const rules = new Map<string, Promise<Rules[]>>();
  const rulesIn = (dir: string): Promise<Rules[]> => {
    let found = rules.get(dir);
    if (!found) {
      const parent = dir === "" ? Promise.resolve(rootRules()) : rulesIn(parentOf(dir));
      found = parent.then(async (above) =>
        loadRules(join(root, dir), dir, await ignoreFilesIn(join(root, dir)), above)
      );
      rules.set(dir, found);
    }
    return found;
  };
  return {
    async ignores(rel) {
      const parts = rel.split("/");
      if (parts.includes(".git")) return true;
      if (IGNORE_FILES.includes(parts.at(-1)!)) {
        const dir = parentOf(rel);
        for (const key of rules.keys()) {
          if (dir === "" || key === dir || key.startsWith(`${dir}/`)) rules.delete(key);
        }
        return false;
      }
      let dir = "";
      for (const part of parts.slice(0, -1)) {
        const child = dir === "" ? part : `${dir}/${part}`;
        if (!keepsDir(chosen, await rulesIn(dir), child)) return true;
        dir = child;
      }
      // A path that is gone is judged as a file: a deleted folder costs an update at most.
      const isDir = (await Deno.stat(join(root, rel)).catch(() => null))?.isDirectory ?? false;
      const governing = await rulesIn(dir);
      return isDir ? !keepsDir(chosen, governing, rel) : !keepsFile(chosen, governing, rel);
    },
  };
}

function parentOf(rel: string): string {
  const at = rel.lastIndexOf("/");
  return at < 0 ? "" : rel.slice(0, at);
}

/** The ignore files a folder holds, as the entries `loadRules` looks for. */
async function ignoreFilesIn(dir: string): Promise<Deno.DirEntry[]> {
  const entries: Deno.DirEntry[] = [];
  for (const name of IGNORE_FILES) {
    const info = await Deno.stat(join(dir, name)).catch(() => null);
    if (info?.isFile) entries.push({ name, isFile: true, isDirectory: false, isSymlink: false });
  }
  return entries;
}
