import { isInside } from "../_paths.ts";
import { join, resolve } from "node:path";
import { BUILD_DEFAULTS } from "../build_defaults.ts";
import { WayfinderError } from "../error.ts";
import { projectRoot } from "../project_root.ts";
import type { SourceFile } from "../types.ts";
import { loadRules, rootRules, type Rules } from "./ignore_rules.ts";
import { rawNames } from "./raw_names.ts";
import { readSource } from "./read_source.ts";
import { keepsDir, keepsFile, type Selection, selection } from "./selection.ts";
import { isWayfinderFolder } from "./wayfinder_folders.ts";

/** Why a file the user might expect to be indexed was left out. */
export type SkipReason =
  | "binary"
  | "too_large"
  | "unreadable"
  | "symlink_outside_root"
  | "symlink_loop"
  | "symlink_duplicate"
  | "not_utf8"
  | "non_utf8_name";

/** A file (or directory) the walker saw but could not index. */
export interface SkippedFile {
  /**
   * Path relative to the root, with forward slashes. For `non_utf8_name`,
   * the name's bytes that are not UTF-8 are shown as `\xNN` and a backslash
   * in it as `\\`.
   */
  path: string;
  /** Why it was skipped. */
  reason: SkipReason;
}

/** How {@link walkTree} selects files. */
export interface WalkOptions {
  /**
   * Globs (picomatch) a file's root-relative posix path must match to be
   * indexed. A pattern without a slash matches the base name at any depth
   * (`*.md`). Directories are not tested against `include`. A pattern whose
   * last segment is itself a default exclude (`deno.lock`, `*.min.js`), or
   * that reaches into a default-excluded folder (`vendor`, `node_modules/x/**`),
   * only adds back the files it matches and restricts nothing: `["deno.lock"]`
   * indexes everything plus `deno.lock`, `["vendor"]` everything plus `vendor/`;
   * see {@link DEFAULT_EXCLUDES}.
   * @default [] (everything)
   */
  include?: string[];
  /**
   * Globs that drop files; a directory that matches is not entered. A pattern
   * without a slash matches the base name at any depth (`node_modules`).
   * Applied on top of {@link DEFAULT_EXCLUDES}.
   * @default []
   */
  exclude?: string[];
  /**
   * Files larger than this are skipped as `too_large` without being read.
   * @default 1048576 (1 MiB)
   */
  maxFileBytes?: number;
  /**
   * Folders never entered, by path (compared as real paths): the data and
   * index folders when they lie inside the root, so an index never holds itself.
   * @default []
   */
  excludeDirs?: string[];
  /**
   * Called for each folder the walk lists, with its stat taken just before
   * listing it: a later change to the folder's entries moves its mtime, so a
   * caller can tell files added, removed or renamed since without walking again.
   */
  onFolder?: (path: string, info: Deno.FileInfo) => void;
  /**
   * Files to leave unread, by root-relative path, size and modification time
   * (ms): an index run passes the files its record says are unchanged. They
   * are listed in `kept` instead of `files`.
   */
  keep?: (path: string, bytes: number, mtime: number) => boolean;
}

/** What {@link walkTree} found. */
export interface WalkResult {
  /** Accepted files, sorted by path. */
  files: SourceFile[];
  /**
   * Files left out for a reason worth telling the user, sorted by path.
   * Ignored and excluded paths are not listed.
   */
  skipped: SkippedFile[];
  /** Paths of files `keep` chose to leave unread, sorted. */
  kept?: string[];
}

/** Files read at once. */
const READ_BATCH = 16;

/** A directory to walk: where it is, what it really is, and what governs it. */
interface _Dir {
  abs: string;
  rel: string;
  real: string;
  rules: Rules[];
  /** Real paths of the directories above it, to tell a cycle. */
  ancestors: ReadonlySet<string>;
}

/** A file to read, keyed by its real path so it is read once. */
interface _Candidate {
  abs: string;
  rel: string;
  real: string;
  viaLink: boolean;
}

interface _Walk {
  selection: Selection;
  maxFileBytes: number;
  /** Real paths of folders never entered. */
  excludeDirs: ReadonlySet<string>;
  realRoot: string;
  /** Real paths of directories already walked: each is walked once. */
  walked: Set<string>;
  /** Symlinked directories, walked after every directory reachable without a link. */
  deferred: _Dir[];
  candidates: _Candidate[];
  skipped: SkippedFile[];
  onFolder?: (path: string, info: Deno.FileInfo) => void;
}

/**
 * Lists the text files under a project directory, honouring `.gitignore` and
 * `.wayfinderignore` files (root and nested, with negations) and skipping `.git/`,
 * {@link DEFAULT_EXCLUDES} (lock files, minified bundles, source maps, and
 * dependency, cache and build folders: `node_modules/`, `vendor/`, `.venv/`,
 * `dist/`, `build/`, `target/`, `__pycache__/` and their kin) and
 * wayfinder's own index and data folders (see `wayfinder_folders.ts`).
 * Binary, non-UTF-8 (see {@link decodeText}), oversized and unreadable files
 * and folders are reported in `skipped`; none of them aborts the walk.
 *
 * Symlinks are followed only when their target lies inside the root. Each
 * directory and file is indexed once, by real path: under its own path when
 * one without a symlink reaches it, else under the first link in path order.
 * Other links to it are skipped as `symlink_duplicate`, links to an ancestor
 * and link cycles as `symlink_loop`.
 *
 * @param root The project directory; it need not be a git repository.
 * @param options Include/exclude globs and the size limit.
 * @returns The accepted files and the skipped ones, each sorted by path.
 * @throws {WayfinderError} `usage` when `root` is `/` or a file; `io` when it
 * does not exist or cannot be listed (see {@link projectRoot}).
 *
 * @example Walk a small tree
 * ```ts
 * import assert from "node:assert/strict";
 * import { walkTree } from "./mod.ts";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/.gitignore`, "*.log\n");
 * await Deno.writeTextFile(`${root}/a.ts`, "export const a = 1;\n");
 * await Deno.writeTextFile(`${root}/debug.log`, "noise\n");
 * await Deno.writeTextFile(`${root}/deno.lock`, "{}\n");
 * const { files, skipped } = await walkTree(root);
 * assert.deepEqual(files.map((f) => f.path), [".gitignore", "a.ts"]);
 * assert.deepEqual(skipped, []);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function walkTree(root: string, options: WalkOptions = {}): Promise<WalkResult> {
  const absRoot = resolve(root);
  const realRoot = projectRoot(root);
  const walk: _Walk = {
    selection: selection(options),
    maxFileBytes: options.maxFileBytes ?? BUILD_DEFAULTS.maxFileBytes,
    excludeDirs: new Set(await Promise.all((options.excludeDirs ?? []).map(_realOrAbsolute))),
    realRoot,
    walked: new Set(),
    deferred: [],
    candidates: [],
    skipped: [],
    onFolder: options.onFolder,
  };
  const top: _Dir = {
    abs: absRoot,
    rel: "",
    real: realRoot,
    rules: rootRules(),
    ancestors: new Set(),
  };
  try {
    await _walkDir(walk, top);
  } catch (e) {
    if (e instanceof WayfinderError) throw e;
    throw new WayfinderError("io", `Cannot index '${root}': ${_message(e)}`, { cause: e });
  }
  // Links wait until every real directory is walked, so a tree is indexed
  // under its own path rather than under a link that happens to sort first.
  for (let link = walk.deferred.shift(); link; link = walk.deferred.shift()) {
    await _followLink(walk, link);
  }
  const kept: string[] = [];
  const files = await _readAll(walk, options.keep, kept);
  walk.skipped.sort((a, b) => _compare(a.path, b.path));
  return { files, skipped: walk.skipped, ...(options.keep ? { kept: kept.sort(_compare) } : {}) };
}

async function _walkDir(walk: _Walk, dir: _Dir): Promise<void> {
  walk.walked.add(dir.real);
  let entries: Deno.DirEntry[];
  try {
    // Before the listing, so a change after it always shows as a newer stat.
    if (walk.onFolder) walk.onFolder(dir.rel, await Deno.stat(dir.abs));
    entries = await Array.fromAsync(Deno.readDir(dir.abs));
  } catch (e) {
    if (dir.rel === "") throw e; // the root itself: the caller words the error
    walk.skipped.push({ path: dir.rel, reason: "unreadable" });
    return;
  }
  // Another run's index or data root in the tree (the root itself is what was asked for).
  if (dir.rel !== "" && await isWayfinderFolder(dir.abs, entries)) return;
  entries.sort((a, b) => _compare(a.name, b.name));
  const rules = await loadRules(dir.abs, dir.rel, entries, dir.rules);
  const ancestors = new Set(dir.ancestors).add(dir.real);
  // Names Deno decoded lossily, by their lossy form: asked for only when one is there.
  const raw = entries.some((e) => e.name.includes("\uFFFD")) ? await rawNames(dir.abs) : null;
  for (const entry of entries) {
    if (entry.name === ".git") continue;
    const child: _Dir = {
      abs: join(dir.abs, entry.name),
      rel: dir.rel === "" ? entry.name : `${dir.rel}/${entry.name}`,
      real: join(dir.real, entry.name),
      rules,
      ancestors,
    };
    // A lossy name opens nothing; a name that really holds U+FFFD does.
    if (raw && entry.name.includes("\uFFFD") && !await _exists(child.abs)) {
      _skipNonUtf8(walk, entry, child, raw.get(entry.name)?.shift() ?? entry.name);
    } else await _visit(walk, entry, child);
  }
}

/** Reports a file or folder whose name is not UTF-8, unless the walk would leave it out anyway. */
function _skipNonUtf8(walk: _Walk, entry: Deno.DirEntry, child: _Dir, name: string): void {
  const kept = entry.isDirectory
    ? keepsDir(walk.selection, child.rules, child.rel)
    : keepsFile(walk.selection, child.rules, child.rel);
  const at = child.rel.lastIndexOf("/");
  const path = at < 0 ? name : `${child.rel.slice(0, at)}/${name}`;
  if (kept) walk.skipped.push({ path, reason: "non_utf8_name" });
}

async function _exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

/** Sorts one directory entry: walk it, defer it, keep it as a file, or skip it. */
async function _visit(walk: _Walk, entry: Deno.DirEntry, child: _Dir): Promise<void> {
  const target = entry.isSymlink ? await _resolveLink(child.abs, walk.realRoot) : {
    kind: entry.isDirectory ? "dir" as const : entry.isFile ? "file" as const : "other" as const,
    real: child.real,
  };
  const skip = (reason: SkipReason): void => {
    walk.skipped.push({ path: child.rel, reason });
  };
  if (target.kind === "dir") {
    if (!keepsDir(walk.selection, child.rules, child.rel)) return;
    if (walk.excludeDirs.has(target.real)) return;
    if (target.problem) return skip(target.problem);
    const dir = { ...child, real: target.real };
    if (entry.isSymlink) walk.deferred.push(dir);
    // Only a walk through a link meets a real directory a second time.
    else if (walk.walked.has(dir.real)) skip("symlink_duplicate");
    else await _walkDir(walk, dir);
  } else if (target.kind === "file") {
    if (!keepsFile(walk.selection, child.rules, child.rel)) return;
    if (target.problem) return skip(target.problem);
    walk.candidates.push({ ...child, real: target.real, viaLink: entry.isSymlink });
  }
  // Sockets, FIFOs and devices are never source files.
}

interface _Target {
  kind: "dir" | "file" | "other";
  real: string;
  problem?: SkipReason;
}

/** Where a symlink leads, and why it may not be followed. */
async function _resolveLink(abs: string, realRoot: string): Promise<_Target> {
  try {
    const real = await Deno.realPath(abs);
    const info = await Deno.stat(real);
    const kind = info.isDirectory ? "dir" : info.isFile ? "file" : "other";
    return { kind, real, problem: isInside(real, realRoot) ? undefined : "symlink_outside_root" };
  } catch (e) {
    // A dangling or cyclic link: match it against the rules as a file.
    const problem = e instanceof Deno.errors.FilesystemLoop ? "symlink_loop" : "unreadable";
    return { kind: "file", real: abs, problem };
  }
}

async function _followLink(walk: _Walk, link: _Dir): Promise<void> {
  if (link.ancestors.has(link.real)) {
    walk.skipped.push({ path: link.rel, reason: "symlink_loop" });
  } else if (walk.walked.has(link.real)) {
    walk.skipped.push({ path: link.rel, reason: "symlink_duplicate" });
  } else {
    await _walkDir(walk, link);
  }
}

/** Reads each real file once: a path without a link first, then path order. */
async function _readAll(
  walk: _Walk,
  keep: WalkOptions["keep"],
  kept: string[],
): Promise<SourceFile[]> {
  const order = walk.candidates.sort((a, b) =>
    Number(a.viaLink) - Number(b.viaLink) || _compare(a.rel, b.rel)
  );
  const seen = new Set<string>();
  const unique: _Candidate[] = [];
  for (const c of order) {
    if (!seen.has(c.real)) {
      seen.add(c.real);
      unique.push(c);
    } else {
      // Without a link a real path repeats only if the OS lists one name twice.
      walk.skipped.push({ path: c.rel, reason: c.viaLink ? "symlink_duplicate" : "unreadable" });
    }
  }
  const files: SourceFile[] = [];
  for (let i = 0; i < unique.length; i += READ_BATCH) {
    const batch = unique.slice(i, i + READ_BATCH);
    for (
      const r of await Promise.all(
        batch.map((c) => readSource(c.abs, c.rel, walk.maxFileBytes, walk.realRoot, keep)),
      )
    ) {
      if ("reason" in r) walk.skipped.push(r);
      else if ("kept" in r) kept.push(r.kept);
      else files.push(r);
    }
  }
  return files.sort((a, b) => _compare(a.path, b.path));
}

/** A folder's real path, or its absolute path while it does not exist yet. */
async function _realOrAbsolute(path: string): Promise<string> {
  return await Deno.realPath(path).catch(() => resolve(path));
}

/** Code-unit order, independent of locale, for deterministic output. */
function _compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function _message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
