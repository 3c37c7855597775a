import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { _PRIVATE_FILE } from "./_durable.ts";
import { RUN_FILES } from "./run_state.ts";
import { CACHE_FILE } from "./vector_cache.ts";
import { STAMPS_FILE } from "./verify_generation.ts";
import { GENERATION_NAME, READERS_DIR, SEGMENT_NAME } from "./store_names.ts";

/**
 * The index directory of a corpus: `<dataRoot>/indexes/<basename>-<12 hex>`,
 * the hex being the start of sha256 of the root's real path, so symlinked
 * spellings of one root share an index and equal basenames do not collide.
 * A root that does not exist hashes its absolute path instead.
 */
export function indexDirFor(dataRoot: string, corpusRoot: string): string {
  let real: string;
  try {
    real = realpathSync(corpusRoot);
  } catch {
    real = resolve(corpusRoot);
  }
  const hash = createHash("sha256").update(real).digest("hex").slice(0, 12);
  const name = basename(real).replace(/[^A-Za-z0-9._-]/g, "_") || "root";
  return join(dataRoot, "indexes", `${name}-${hash}`);
}

/** The file that marks a folder as a wayfinder index, written when its lock is first taken. */
export const INDEX_MARKER = ".wayfinder-index";

/** Marks an index folder; best effort, since `isIndexDir` also knows one by its generations. */
export async function markIndexDir(indexDir: string): Promise<void> {
  await Deno.writeTextFile(
    join(indexDir, INDEX_MARKER),
    "This folder is a wayfinder index; wayfinder never indexes it as content.\n",
    { createNew: true, mode: _PRIVATE_FILE },
  ).catch(() => {});
}

/**
 * Whether a folder holding entries of these names is a wayfinder index: its
 * marker, or (an index written before markers) a `current` pointer beside a
 * generation folder. Decided from names alone, so a walk pays nothing for it.
 */
export function isIndexDir(names: readonly string[]): boolean {
  return names.includes(INDEX_MARKER) ||
    names.includes("current") && names.some((name) => GENERATION_NAME.test(name));
}

/** Every name the store writes into an index folder besides generations. */
const STORE_FILES = new Set([
  INDEX_MARKER,
  "current",
  "lock",
  STAMPS_FILE,
  CACHE_FILE,
  RUN_FILES.progress,
  RUN_FILES.failure,
  READERS_DIR,
]);

/**
 * Whether an index folder may be used with entries of these names: none, an
 * index, or only what the store writes there (a first run that failed
 * before markers left its record). Any other file means it is someone's folder.
 */
export function mayHoldIndex(names: readonly string[]): boolean {
  return isIndexDir(names) ||
    names.every((name) =>
      GENERATION_NAME.test(name) || SEGMENT_NAME.test(name) ||
      STORE_FILES.has(name.replace(/\.tmp-\d+$/, ""))
    );
}
