import { join } from "node:path";
import ignore, { type Ignore } from "ignore";
import { WayfinderError } from "../error.ts";
import { defaultExcludeRules } from "./default_excludes.ts";
import { patternTooLong } from "./globs.ts";

/** Files whose rules apply to their directory's subtree, in this order (later wins). */
export const IGNORE_FILES = [".gitignore", ".wayfinderignore"];

/** Ignore rules from one directory, matched against paths relative to it. */
export interface Rules {
  base: string;
  ig: Ignore;
  /** The built-in {@link DEFAULT_EXCLUDES}, below every project file. */
  builtIn?: boolean;
}

/** What left a path out: the built-in defaults or a project's ignore file. */
export type IgnoredBy = "defaults" | "ignore_file";

/** The rules every walk starts with: the default excludes, at the root. */
export function rootRules(): Rules[] {
  return [{ base: "", ig: defaultExcludeRules(), builtIn: true }];
}

/**
 * Adds this directory's ignore files, if any, to the inherited rules.
 *
 * @throws {WayfinderError} `input` when a line is too long to match with.
 */
export async function loadRules(
  dir: string,
  rel: string,
  entries: Deno.DirEntry[],
  parentRules: Rules[],
): Promise<Rules[]> {
  const texts: string[] = [];
  for (const name of IGNORE_FILES) {
    if (!entries.some((e) => e.name === name && !e.isDirectory)) continue;
    let text: string;
    try {
      text = await Deno.readTextFile(join(dir, name));
    } catch {
      continue; // An unreadable ignore file ignores nothing; the file itself is then skipped.
    }
    refuseOverlongLines(join(dir, name), text);
    texts.push(text);
  }
  if (texts.length === 0) return parentRules;
  // git is case-sensitive on Linux and case-insensitive on macOS and Windows by default.
  const ig = ignore({ ignorecase: Deno.build.os !== "linux" }).add(texts.join("\n"));
  return [...parentRules, { base: rel, ig }];
}

/**
 * An over-long line fails the walk, as an over-long `--include` or
 * `--exclude` glob does, rather than being skipped with a warning: a
 * skipped rule would index files the project excluded, secrets among them.
 */
function refuseOverlongLines(path: string, text: string): void {
  for (const [index, line] of text.split("\n").entries()) {
    const pattern = line.trim();
    const tooLong = pattern.startsWith("#") ? null : patternTooLong(pattern);
    if (tooLong) {
      throw new WayfinderError("input", `Ignore file '${path}' line ${index + 1}: ${tooLong}`);
    }
  }
}

/**
 * Last matching rule wins, and deeper ignore files override shallower ones, as
 * in git; the defaults come first, so any project file can negate them.
 */
export function ignoredBy(
  rules: Rules[],
  rel: string,
  isDirectory: boolean,
): IgnoredBy | undefined {
  let by: IgnoredBy | undefined;
  for (const { base, ig, builtIn } of rules) {
    const sub = base === "" ? rel : rel.slice(base.length + 1);
    const result = testOwn(ig, isDirectory ? `${sub}/` : sub);
    if (result.ignored) by = builtIn ? "defaults" : "ignore_file";
    else if (result.unignored) by = undefined;
  }
  return by;
}

type Verdict = { ignored: boolean; unignored: boolean };

/**
 * One file's verdict on the path itself, parents not re-tested. The walker
 * enters only folders the layered rules keep, and `ignore` would re-apply a
 * shallower file's exclusion of a folder that a deeper file re-includes
 * (`deep/*\/` at the root, `!*\/` in `deep/`), which git does not. Uses the
 * pinned `ignore` 7's per-path test; falls back to `test()` without it.
 */
function testOwn(ig: Ignore, path: string): Verdict {
  const own = (ig as unknown as {
    _rules?: { test?: (path: string, checkUnignored: boolean, mode: string) => Verdict };
  })._rules;
  return typeof own?.test === "function" ? own.test(path, true, "regex") : ig.test(path);
}
