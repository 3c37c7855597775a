import { basename } from "node:path";
import picomatch from "picomatch";

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
): ((rel: string) => boolean) | undefined {
  const cleaned = cleanGlobs(patterns);
  if (cleaned.length === 0) return undefined;
  const withSlash = cleaned.filter((p) => p.includes("/"));
  const bare = cleaned.filter((p) => !p.includes("/"));
  // "s": file names may hold newlines, which `**` must cross like any character.
  const options = { dot: true, flags: "s" };
  const byPath = withSlash.length > 0 ? picomatch(withSlash, options) : undefined;
  const byName = bare.length > 0 ? picomatch(bare, options) : undefined;
  return (rel) => (byPath?.(rel) ?? false) || (byName?.(basename(rel)) ?? false);
}
