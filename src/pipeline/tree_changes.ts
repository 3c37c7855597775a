/**
 * What changed in a tree since an index was built, found the way the
 * pipeline finds it (a walk and an xxhash of each file's text), without
 * chunking or embedding anything.
 */
import xxhash from "xxhash-wasm";
import type { FileRecord } from "../store/mod.ts";
import { type WalkOptions, walkTree } from "../walk/mod.ts";

/** The content hash the manifest records for each file. */
export async function contentHasher(): Promise<(text: string) => string> {
  const { h64ToString } = await xxhash();
  return h64ToString;
}

/** Paths relative to the root, each list sorted. */
export interface TreeChanges {
  changed: string[];
  added: string[];
  deleted: string[];
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
  const { files } = await walkTree(root, walk);
  const hashOf = await contentHasher();
  const changes: TreeChanges = { changed: [], added: [], deleted: [] };
  const seen = new Set<string>();
  for (const file of files) {
    seen.add(file.path);
    const before = recorded[file.path];
    if (!before) changes.added.push(file.path);
    else if (before.hash !== hashOf(file.content)) changes.changed.push(file.path);
  }
  changes.deleted = Object.keys(recorded).filter((path) => !seen.has(path)).sort();
  return changes;
}
