/** Lists a bundle's files and directories, bundle-relative and sorted. */
import { readdirSync, realpathSync, statSync } from "node:fs";
import { join, sep } from "node:path";

/** Everything under a bundle root that validate and the index generator look at. */
export interface BundleListing {
  /** Posix paths of regular files, relative to the root, sorted. */
  files: string[];
  /** Posix paths of directories, relative to the root ("" is the root), sorted. */
  dirs: string[];
}

/**
 * Walks `root`. Names starting with "." (.git, .obsidian) are tooling, not
 * knowledge, and are skipped. Symlinked directories are not followed, so a
 * link cycle cannot make the walk endless. A symlinked file counts as a file
 * only when its target lies inside the root, as `index` treats links: one
 * leading out of the bundle is not part of it.
 */
export function listBundle(root: string): BundleListing {
  const realRoot = realpathSync(root);
  const files: string[] = [];
  const dirs: string[] = [""];
  const visit = (rel: string) => {
    const entries = readdirSync(join(root, rel), { withFileTypes: true });
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        dirs.push(path);
        visit(path);
      } else if (
        entry.isFile() || (entry.isSymbolicLink() && isFileInside(join(root, path), realRoot))
      ) {
        files.push(path);
      }
    }
  };
  visit("");
  return { files: files.sort(byCodeUnit), dirs: dirs.sort(byCodeUnit) };
}

/** Whether a symlink leads to a regular file under `realRoot` (dangling and looping links do not). */
function isFileInside(link: string, realRoot: string): boolean {
  try {
    const real = realpathSync(link);
    return statSync(real).isFile() && isInside(real, realRoot);
  } catch {
    return false;
  }
}

/** Whether the real path `path` is `root` or lies under it. */
export function isInside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
