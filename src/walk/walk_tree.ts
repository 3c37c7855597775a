import { basename, join, resolve, sep } from "node:path";
import ignore, { type Ignore } from "ignore";
import picomatch from "picomatch";
import { WayfinderError } from "../error.ts";
import type { SourceFile } from "../types.ts";

/** Why a file the user might expect to be indexed was left out. */
export type SkipReason =
  | "binary"
  | "too_large"
  | "unreadable"
  | "symlink_outside_root"
  | "symlink_loop"
  | "not_utf8";

/** A file (or directory) the walker saw but could not index. */
export interface SkippedFile {
  /** Path relative to the root, with forward slashes. */
  path: string;
  reason: SkipReason;
}

/** How {@link walkTree} selects files. */
export interface WalkOptions {
  /**
   * Globs (picomatch) a file's root-relative posix path must match to be
   * indexed. A pattern without a slash matches the base name at any depth
   * (`*.md`). Directories are not tested against `include`.
   * @default [] (everything)
   */
  include?: string[];
  /**
   * Globs that drop files; a directory that matches is not entered. A pattern
   * without a slash matches the base name at any depth (`node_modules`).
   * @default []
   */
  exclude?: string[];
  /**
   * Files larger than this are skipped as `too_large` without being read.
   * @default 1048576 (1 MiB)
   */
  maxFileBytes?: number;
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
}

/** Files whose rules apply to their directory's subtree, in this order (later wins). */
const IGNORE_FILES = [".gitignore", ".wayfinderignore"];
/** Bytes inspected for a NUL, as git does. */
const SNIFF_BYTES = 8192;
/** Files read at once within one directory. */
const READ_BATCH = 16;

/** Ignore rules from one directory, matched against paths relative to it. */
interface _Rules {
  base: string;
  ig: Ignore;
}

interface _Walk {
  include?: (rel: string) => boolean;
  exclude?: (rel: string) => boolean;
  maxFileBytes: number;
  realRoot: string;
  /** Real paths of directories already walked, so a symlink does not repeat one. */
  walked: Set<string>;
  files: SourceFile[];
  skipped: SkippedFile[];
}

/**
 * Lists the text files under a project directory, honouring `.gitignore` and
 * `.wayfinderignore` files (root and nested, with negations) and skipping `.git/`.
 * Binary, non-UTF-8, oversized and unreadable files are reported in `skipped`.
 * Symlinks are followed only when their target lies inside the root; a
 * symlinked directory already walked (or an ancestor) is not walked again.
 *
 * @param root The project directory; it need not be a git repository.
 * @param options Include/exclude globs and the size limit.
 * @returns The accepted files and the skipped ones, each sorted by path.
 * @throws {WayfinderError} `usage` when `root` is `/`; `io` when it does not
 * exist, is not a directory or cannot be listed.
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
 * const { files, skipped } = await walkTree(root);
 * assert.deepEqual(files.map((f) => f.path), [".gitignore", "a.ts"]);
 * assert.deepEqual(skipped, []);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function walkTree(root: string, options: WalkOptions = {}): Promise<WalkResult> {
  const absRoot = resolve(root);
  if (absRoot === sep) {
    throw new WayfinderError("usage", "Cannot index '/': choose a project directory");
  }
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(absRoot);
  } catch (e) {
    const why = e instanceof Deno.errors.NotFound ? "no such directory" : _message(e);
    throw new WayfinderError("io", `Cannot index '${root}': ${why}`, { cause: e });
  }
  if (!info.isDirectory) {
    throw new WayfinderError("io", `Cannot index '${root}': not a directory`);
  }
  const realRoot = await Deno.realPath(absRoot);
  if (realRoot === sep) {
    throw new WayfinderError("usage", "Cannot index '/': choose a project directory");
  }
  const walk: _Walk = {
    include: _globs(options.include),
    exclude: _globs(options.exclude),
    maxFileBytes: options.maxFileBytes ?? 1048576,
    realRoot,
    walked: new Set(),
    files: [],
    skipped: [],
  };
  try {
    await _walkDir(walk, absRoot, "", realRoot, [], new Set());
  } catch (e) {
    if (e instanceof WayfinderError) throw e;
    throw new WayfinderError("io", `Cannot index '${root}': ${_message(e)}`, { cause: e });
  }
  walk.files.sort((a, b) => _compare(a.path, b.path));
  walk.skipped.sort((a, b) => _compare(a.path, b.path));
  return { files: walk.files, skipped: walk.skipped };
}

async function _walkDir(
  walk: _Walk,
  dir: string,
  rel: string,
  real: string,
  parentRules: _Rules[],
  ancestors: Set<string>,
): Promise<void> {
  walk.walked.add(real);
  const here = new Set(ancestors).add(real);
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(dir));
  } catch (e) {
    if (rel === "") throw e; // the root itself: the caller words the error
    walk.skipped.push({ path: rel, reason: "unreadable" });
    return;
  }
  entries.sort((a, b) => _compare(a.name, b.name));
  const rules = await _loadRules(dir, rel, entries, parentRules);

  const readable: { abs: string; rel: string }[] = [];
  for (const entry of entries) {
    if (entry.name === ".git") continue;
    const childAbs = join(dir, entry.name);
    const childRel = rel === "" ? entry.name : `${rel}/${entry.name}`;
    let isDirectory = entry.isDirectory;
    let isFile = entry.isFile;
    let childReal = join(real, entry.name);
    let problem: SkipReason | undefined;
    if (entry.isSymlink) {
      try {
        childReal = await Deno.realPath(childAbs);
        const target = await Deno.stat(childReal);
        isDirectory = target.isDirectory;
        isFile = target.isFile;
        if (!_inside(childReal, walk.realRoot)) problem = "symlink_outside_root";
      } catch (e) {
        // A dangling or cyclic link: match it against the rules as a file.
        isFile = true;
        problem = e instanceof Deno.errors.FilesystemLoop ? "symlink_loop" : "unreadable";
      }
    }
    if (isDirectory) {
      if (_ignored(rules, childRel, true) || walk.exclude?.(childRel)) continue;
      if (problem) {
        walk.skipped.push({ path: childRel, reason: problem });
      } else if (here.has(childReal)) {
        walk.skipped.push({ path: childRel, reason: "symlink_loop" });
      } else if (!(entry.isSymlink && walk.walked.has(childReal))) {
        await _walkDir(walk, childAbs, childRel, childReal, rules, here);
      }
    } else if (isFile) {
      if (_ignored(rules, childRel, false)) continue;
      if (walk.include && !walk.include(childRel)) continue;
      if (walk.exclude?.(childRel)) continue;
      if (problem) walk.skipped.push({ path: childRel, reason: problem });
      else readable.push({ abs: childAbs, rel: childRel });
    }
    // Sockets, FIFOs and devices are never source files.
  }

  for (let i = 0; i < readable.length; i += READ_BATCH) {
    const batch = readable.slice(i, i + READ_BATCH);
    const results = await Promise.all(
      batch.map((f) => _readSource(f.abs, f.rel, walk.maxFileBytes)),
    );
    for (const result of results) {
      if ("reason" in result) walk.skipped.push(result);
      else walk.files.push(result);
    }
  }
}

/** Adds this directory's ignore files, if any, to the inherited rules. */
async function _loadRules(
  dir: string,
  rel: string,
  entries: Deno.DirEntry[],
  parentRules: _Rules[],
): Promise<_Rules[]> {
  const texts: string[] = [];
  for (const name of IGNORE_FILES) {
    if (!entries.some((e) => e.name === name && !e.isDirectory)) continue;
    try {
      texts.push(await Deno.readTextFile(join(dir, name)));
    } catch {
      // An unreadable ignore file ignores nothing; the file itself is then skipped.
    }
  }
  if (texts.length === 0) return parentRules;
  // git is case-sensitive on Linux and case-insensitive on macOS and Windows by default.
  const ig = ignore({ ignorecase: Deno.build.os !== "linux" }).add(texts.join("\n"));
  return [...parentRules, { base: rel, ig }];
}

/** Last matching rule wins, and deeper ignore files override shallower ones, as in git. */
function _ignored(rules: _Rules[], rel: string, isDirectory: boolean): boolean {
  let ignored = false;
  for (const { base, ig } of rules) {
    const sub = base === "" ? rel : rel.slice(base.length + 1);
    const result = ig.test(isDirectory ? `${sub}/` : sub);
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}

async function _readSource(
  abs: string,
  rel: string,
  maxFileBytes: number,
): Promise<SourceFile | SkippedFile> {
  let bytes: Uint8Array;
  try {
    // Check the size first so a huge file is never read.
    const { size } = await Deno.stat(abs);
    if (size > maxFileBytes) return { path: rel, reason: "too_large" };
    bytes = await Deno.readFile(abs);
  } catch {
    return { path: rel, reason: "unreadable" };
  }
  // The file may have grown between stat and read.
  if (bytes.length > maxFileBytes) return { path: rel, reason: "too_large" };
  if (bytes.subarray(0, SNIFF_BYTES).includes(0)) return { path: rel, reason: "binary" };
  let content: string;
  try {
    content = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { path: rel, reason: "not_utf8" };
  }
  return { path: rel, absolutePath: abs, content, bytes: bytes.length };
}

/**
 * Compiles globs into one predicate on root-relative posix paths. Patterns
 * without a slash match the base name at any depth (picomatch's own
 * `basename` option breaks patterns that do have a slash, so the two are split).
 */
function _globs(patterns: string[] | undefined): ((rel: string) => boolean) | undefined {
  const cleaned = (patterns ?? [])
    .map((p) => p.trim().replace(/^\.\//, "").replace(/\/+$/, ""))
    .filter((p) => p !== "");
  if (cleaned.length === 0) return undefined;
  const withSlash = cleaned.filter((p) => p.includes("/"));
  const bare = cleaned.filter((p) => !p.includes("/"));
  const byPath = withSlash.length > 0 ? picomatch(withSlash, { dot: true }) : undefined;
  const byName = bare.length > 0 ? picomatch(bare, { dot: true }) : undefined;
  return (rel) => (byPath?.(rel) ?? false) || (byName?.(basename(rel)) ?? false);
}

function _inside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** Code-unit order, independent of locale, for deterministic output. */
function _compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function _message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
