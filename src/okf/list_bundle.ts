/** Lists a bundle's files and directories, bundle-relative and sorted. */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

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
 * link cycle cannot make the walk endless; symlinked files count as files.
 */
export function listBundle(root: string): BundleListing {
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
      } else if (entry.isFile() || (entry.isSymbolicLink() && isFile(join(root, path)))) {
        files.push(path);
      }
    }
  };
  visit("");
  return { files: files.sort(byCodeUnit), dirs: dirs.sort(byCodeUnit) };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
