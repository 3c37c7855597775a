/**
 * `validate --fix`: brings each generated `index.md` up to date and touches
 * nothing else. Planning and writing are separate so `--dry-run` can show
 * the plan as a diff.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createTwoFilesPatch } from "diff";
import { WayfinderError } from "../error.ts";
import { generateIndexes } from "./generate_indexes.ts";
import { loadBundle } from "./load_bundle.ts";

/** One index file that differs from the generator's output. */
export interface IndexChange {
  /** Bundle-relative posix path. */
  path: string;
  action: "create" | "update";
  /** The file's current text, or null when it does not exist. */
  before: string | null;
  after: string;
}

/** The changes `--fix` would make to the bundle at `dir`; empty when every index is current. */
export function planIndexFixes(dir: string): { root: string; changes: IndexChange[] } {
  const bundle = loadBundle(dir);
  const files = new Set(bundle.files);
  const changes: IndexChange[] = [];
  for (const index of generateIndexes(bundle)) {
    const before = files.has(index.path) ? readText(join(bundle.root, index.path)) : null;
    if (before === index.content) continue;
    changes.push({
      path: index.path,
      action: before === null ? "create" : "update",
      before,
      after: index.content,
    });
  }
  changes.sort((a, b) => (a.path < b.path ? -1 : 1));
  return { root: bundle.root, changes };
}

/**
 * Writes planned changes under `root`.
 * @throws {WayfinderError} `io` when a file cannot be written.
 */
export function applyIndexFixes(root: string, changes: readonly IndexChange[]): void {
  for (const change of changes) {
    try {
      writeFileSync(join(root, change.path), change.after);
    } catch (error) {
      throw new WayfinderError("io", `Cannot write '${change.path}': ${(error as Error).message}`);
    }
  }
}

/** A unified diff of the planned changes, as `git diff` would print it. */
export function diffIndexFixes(changes: readonly IndexChange[]): string {
  return changes.map((c) =>
    createTwoFilesPatch(
      c.before === null ? "/dev/null" : `a/${c.path}`,
      `b/${c.path}`,
      c.before ?? "",
      c.after,
    ).replace(/^=+\n/, "")
  ).join("");
}

function readText(path: string): string {
  // A file that is not UTF-8 can never equal the generated text; latin1 keeps the bytes distinct.
  const bytes = readFileSync(path);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return bytes.toString("latin1");
  }
}
