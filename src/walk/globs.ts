import { basename } from "node:path";
import picomatch from "picomatch";
import { WayfinderError } from "../error.ts";

/**
 * The longest glob or ignore-file pattern accepted: Linux's PATH_MAX, so no
 * pattern that could match a real path is refused. Much longer ones build
 * regular expressions past V8's size limit (about 33,000 characters of
 * `ignore`'s, 65,536 of picomatch's input), which fail with the whole
 * expression as their message.
 */
export const MAX_PATTERN_CHARS = 4096;

/** Why a pattern is refused, for a message that names where it came from; null when it is fine. */
export function patternTooLong(pattern: string): string | null {
  return pattern.length > MAX_PATTERN_CHARS
    ? `${quoted(pattern)} is ${pattern.length} characters long; the limit is ${MAX_PATTERN_CHARS}`
    : null;
}

/** A pattern quoted for a one-line message, cut short when long. */
function quoted(pattern: string): string {
  return pattern.length > 40 ? `'${pattern.slice(0, 40)}…'` : `'${pattern}'`;
}

/** Trims globs, drops a leading `./` and trailing slashes, and empty ones. */
export function cleanGlobs(patterns: readonly string[] | undefined): string[] {
  return (patterns ?? [])
    .map((p) => p.trim().replace(/^\.\//, "").replace(/\/+$/, ""))
    .filter((p) => p !== "");
}

/**
 * Compiles globs into one predicate on root-relative posix paths. Patterns
 * without a slash match the base name at any depth (picomatch's own
 * `basename` option breaks patterns that do have a slash, so the two are split).
 *
 * @param what The globs' name in a message: "Include glob".
 * @throws {WayfinderError} `usage` when a glob is too long or too complex to compile.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compileGlobs } from "./globs.ts";
 *
 * const match = compileGlobs(["*.md", "src/**\/*.ts"])!;
 * assert.equal(match("docs/deep/a.md"), true);
 * assert.equal(match("src/a/b.ts"), true);
 * assert.equal(match("lib/b.ts"), false);
 * assert.equal(compileGlobs([" ", "./"]), undefined);
 * ```
 */
export function compileGlobs(
  patterns: readonly string[] | undefined,
  what = "Glob",
): ((rel: string) => boolean) | undefined {
  const cleaned = cleanGlobs(patterns);
  if (cleaned.length === 0) return undefined;
  const byPath = cleaned.filter((p) => p.includes("/")).map((p) => compileGlob(p, what));
  const byName = cleaned.filter((p) => !p.includes("/")).map((p) => compileGlob(p, what));
  return (rel) => byPath.some((m) => m(rel)) || byName.some((m) => m(basename(rel)));
}

/** One glob's matcher, or a one-line error naming it rather than picomatch's whole expression. */
function compileGlob(glob: string, what: string): (path: string) => boolean {
  const tooLong = patternTooLong(glob);
  if (tooLong) throw new WayfinderError("usage", `${what} ${tooLong}`);
  try {
    // "s": file names may hold newlines, which `**` must cross like any character.
    return picomatch(glob, { dot: true, flags: "s" });
  } catch (error) {
    throw new WayfinderError("usage", `${what} ${quoted(glob)} is too complex to match with`, {
      cause: error,
    });
  }
}
