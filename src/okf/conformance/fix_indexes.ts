/**
 * `validate --fix`: brings each generated `index.md` up to date and touches
 * nothing else. Planning and writing are separate so `--dry-run` can show
 * the plan as a diff. It never writes through a symlink, so it cannot write
 * outside the bundle.
 */
import { lstatSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createTwoFilesPatch } from "diff";
import { WayfinderError } from "../../error.ts";
import { generateIndexes } from "./generate_indexes.ts";
import { isInside } from "../../_paths.ts";
import { loadBundle, type LoadedBundle } from "./load_bundle.ts";

/** One index file that differs from the generator's output. */
export interface IndexChange {
  /** Bundle-relative posix path. */
  path: string;
  action: "create" | "update";
  /** The file's current text, or null when it does not exist. */
  before: string | null;
  after: string;
}

/** A file `--fix` leaves alone, and why: an index it will not write, or a file it cannot list. */
export interface IndexLeftAlone {
  /** Bundle-relative posix path. */
  path: string;
  reason: string;
}

/** What `--fix` would do to a bundle. */
export interface IndexFixPlan {
  /** Absolute path of the bundle root. */
  root: string;
  /** Empty when every index is current. */
  changes: IndexChange[];
  /**
   * Out-of-date indexes it will not write (a symlink), and files and folders
   * whose names are not UTF-8, which no index lists; sorted by path.
   */
  leftAlone: IndexLeftAlone[];
}

/** The changes `--fix` would make to the bundle at `dir`. */
export function planIndexFixes(dir: string): IndexFixPlan {
  const bundle = loadBundle(dir);
  const files = new Set(bundle.files);
  const changes: IndexChange[] = [];
  // Nothing can open such a name: say so rather than leave it out of every index unseen.
  const leftAlone: IndexLeftAlone[] = bundle.badNames.map(({ path }) => ({
    path,
    reason: "its name is not UTF-8, so no index.md lists it; rename it",
  }));
  for (const index of generateIndexes(bundle)) {
    const before = files.has(index.path) ? readText(join(bundle.root, index.path)) : null;
    if (before === index.content) continue;
    const reason = unwritable(bundle.root, index.path);
    if (reason) {
      leftAlone.push({ path: index.path, reason });
      continue;
    }
    changes.push({
      path: index.path,
      action: before === null ? "create" : "update",
      before,
      after: index.content,
    });
  }
  changes.sort((a, b) => (a.path < b.path ? -1 : 1));
  leftAlone.sort((a, b) => (a.path < b.path ? -1 : 1));
  return { root: bundle.root, changes, leftAlone };
}

/**
 * A test of whether `--fix` writes the index at a bundle-relative path: one
 * the generator makes (its folder holds a concept) that is no symlink.
 * Validate's messages ask it only when they would suggest `--fix`, so the
 * indexes are generated on the first question, not on every run.
 */
export function fixWrites(bundle: LoadedBundle): (path: string) => boolean {
  let writable: Set<string> | undefined;
  return (path) => {
    writable ??= new Set(
      generateIndexes(bundle).map((index) => index.path)
        .filter((p) => unwritable(bundle.root, p) === null),
    );
    return writable.has(path);
  };
}

/**
 * Writes planned changes under `root`.
 * @throws {WayfinderError} `io` when a file cannot be written, or became a
 * symlink since it was planned.
 */
export function applyIndexFixes(root: string, changes: readonly IndexChange[]): void {
  for (const change of changes) {
    // Checked again: the tree may have changed since planning.
    const reason = unwritable(root, change.path);
    if (reason) throw new WayfinderError("io", `Cannot write '${change.path}': ${reason}`);
    try {
      // "wx" creates only: it fails on anything already there, a dangling link included.
      writeFileSync(join(root, change.path), change.after, {
        flag: change.action === "create" ? "wx" : "w",
      });
    } catch (error) {
      throw new WayfinderError("io", `Cannot write '${change.path}': ${(error as Error).message}`);
    }
  }
}

/**
 * Why the index at `path` must not be written, or null when it may: writing
 * through a symlink would change whatever it points at, in the bundle or not.
 */
function unwritable(root: string, path: string): string | null {
  const abs = join(root, path);
  if (lstatSync(abs, { throwIfNoEntry: false })?.isSymbolicLink()) {
    return "it is a symlink, and --fix never writes through one";
  }
  if (!isInside(realpathSync(dirname(abs)), realpathSync(root))) {
    return "its folder lies outside the bundle";
  }
  return null;
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
