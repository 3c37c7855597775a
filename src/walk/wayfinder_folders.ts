/**
 * wayfinder's own folders met inside a tree: an index, or a data root
 * holding indexes (an `--index-dir` or `WAYFINDER_DATA_DIR` another run chose
 * there). Their generations, pointers and caches are never content, even when
 * this run's own excludes do not name them.
 */
import { join } from "node:path";
import { isIndexDir } from "../store/mod.ts";

/** The data root's folder of indexes (see `indexDirFor`). */
const INDEXES = "indexes";

/**
 * Whether the folder at `abs`, holding `entries`, is an index or a data
 * root: one of its `indexes/` children is an index. Only a folder with an
 * `indexes/` child costs a listing or two.
 */
export async function isWayfinderFolder(
  abs: string,
  entries: readonly Deno.DirEntry[],
): Promise<boolean> {
  if (isIndexDir(entries.map((entry) => entry.name))) return true;
  if (!entries.some((entry) => entry.name === INDEXES && entry.isDirectory)) return false;
  try {
    for await (const child of Deno.readDir(join(abs, INDEXES))) {
      if (child.isDirectory && isIndexDir(await namesIn(join(abs, INDEXES, child.name)))) {
        return true;
      }
    }
  } catch {
    // Unreadable: the walk reports it when it gets there.
  }
  return false;
}

async function namesIn(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir)).catch(() => [])).map((entry) => entry.name);
}
