/**
 * What changed in a tree since an index was built, found the way the
 * pipeline finds it (a walk and an xxhash of each file's text), without
 * chunking or embedding anything.
 */
import xxhash from "xxhash-wasm";
import type { FileRecord } from "../store/mod.ts";
import { type SkippedFile, type WalkOptions, walkTree } from "../walk/mod.ts";

let hasher: Promise<(text: string) => string> | null = null;

/** The content hash the manifest records for each file (its wasm instantiated once per process). */
export function contentHasher(): Promise<(text: string) => string> {
  hasher ??= xxhash().then(({ h64ToString }) => h64ToString);
  return hasher;
}

/** Paths relative to the root, each list sorted. */
export interface TreeChanges {
  changed: string[];
  added: string[];
  deleted: string[];
  /** Recorded files that are there but cannot be read: an index run keeps their chunks. */
  unreadable: string[];
  /** Files the walk read. */
  seen: number;
  /** Files the walk left out for a reason, as an index run reports them. */
  skipped: SkippedFile[];
}

/**
 * Compares the tree under `root` with the files an index recorded.
 *
 * @param root The corpus root.
 * @param recorded The manifest's files.
 * @param walk The walk settings the index uses.
 */
export async function treeChanges(
  root: string,
  recorded: Record<string, FileRecord>,
  walk: WalkOptions,
): Promise<TreeChanges> {
  // A file of the size and time its record holds is not read: the hash decides only when
  // its stat moved (an index run records times old enough to trust).
  const keep = (path: string, bytes: number, mtime: number) =>
    recorded[path]?.mtime === mtime && recorded[path]?.bytes === bytes;
  const { files, skipped, kept = [] } = await walkTree(root, { ...walk, keep });
  const hashOf = await contentHasher();
  const unreadable = unreadableRecorded(Object.keys(recorded), skipped);
  const changes: TreeChanges = {
    changed: [],
    added: [],
    deleted: [],
    unreadable,
    seen: files.length + kept.length,
    skipped,
  };
  const seen = new Set<string>([...unreadable, ...kept]);
  for (const file of files) {
    seen.add(file.path);
    const before = recorded[file.path];
    if (!before) changes.added.push(file.path);
    else if (before.hash !== hashOf(file.content)) changes.changed.push(file.path);
  }
  changes.deleted = Object.keys(recorded).filter((path) => !seen.has(path)).sort();
  return changes;
}

/**
 * The recorded paths the walk found but could not read (a permission taken
 * away), themselves or through an unreadable folder above them, sorted.
 * They are not deleted: what the index holds of them stays until they can be read.
 */
export function unreadableRecorded(recorded: string[], skipped: SkippedFile[]): string[] {
  const unreadable = skipped.filter((s) => s.reason === "unreadable").map((s) => s.path);
  if (unreadable.length === 0) return [];
  const under = (path: string) => unreadable.some((u) => path === u || path.startsWith(`${u}/`));
  return recorded.filter(under).sort();
}
