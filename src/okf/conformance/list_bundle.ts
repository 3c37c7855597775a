/** Lists a bundle's files and directories, bundle-relative and sorted. */
import { isInside } from "../../_paths.ts";
import { type Dirent, lstatSync, readdirSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import { rawNamesSync } from "../../walk/mod.ts";

/** Everything under a bundle root that validate and the index generator look at. */
export interface BundleListing {
  /** Posix paths of regular files, relative to the root, sorted. */
  files: string[];
  /** Posix paths of directories, relative to the root ("" is the root), sorted. */
  dirs: string[];
  /**
   * Markdown files and folders whose names are not UTF-8, sorted: nothing
   * can open them by name, so they are in neither list. Their bytes that are
   * not UTF-8 are shown as `\xNN`, as `index` reports such names.
   */
  badNames: { path: string; folder: boolean }[];
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
  const badNames: BundleListing["badNames"] = [];
  const visit = (rel: string) => {
    const entries = readdirSync(join(root, rel), { withFileTypes: true });
    // Names decoded lossily, by their lossy form: asked for only when one is there.
    const raw = entries.some((e) => e.name.includes("\uFFFD"))
      ? rawNamesSync(join(root, rel))
      : null;
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (raw && unopenable(entry, join(root, path))) {
        const name = raw.get(entry.name)?.shift() ?? entry.name;
        const folder = entry.isDirectory();
        if (folder || entry.name.endsWith(".md")) {
          badNames.push({ path: rel ? `${rel}/${name}` : name, folder });
        }
      } else if (entry.isDirectory()) {
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
  badNames.sort((a, b) => byCodeUnit(a.path, b.path));
  return { files: files.sort(byCodeUnit), dirs: dirs.sort(byCodeUnit), badNames };
}

/** A lossily decoded name opens nothing; a name that really holds U+FFFD does. */
function unopenable(entry: Dirent, path: string): boolean {
  return entry.name.includes("\uFFFD") && !lstatSync(path, { throwIfNoEntry: false });
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

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
