/**
 * Which paths a walk keeps, given the ignore rules governing them: the one
 * verdict `walkTree` and per-path callers (a watcher's events) share.
 */
import { namesDefaultExclude } from "./default_excludes.ts";
import { cleanGlobs, compileGlobs } from "./globs.ts";
import { ignoredBy, type Rules } from "./ignore_rules.ts";

/** The compiled include and exclude globs of one walk. */
export interface Selection {
  /** Include globs that restrict the walk to what they match. */
  include?: (rel: string) => boolean;
  /**
   * Include globs that name a default-excluded file (`deno.lock`,
   * `*.min.js`): they add it back and restrict nothing.
   */
  namedInclude?: (rel: string) => boolean;
  exclude?: (rel: string) => boolean;
}

/** Compiles a walk's globs once. */
export function selection(options: { include?: string[]; exclude?: string[] }): Selection {
  const include = cleanGlobs(options.include);
  return {
    include: compileGlobs(include.filter((glob) => !namesDefaultExclude(glob)), "Include glob"),
    namedInclude: compileGlobs(include.filter(namesDefaultExclude), "Include glob"),
    exclude: compileGlobs(options.exclude, "Exclude glob"),
  };
}

/** Whether the walk enters this directory (`include` never applies to directories). */
export function keepsDir(selection: Selection, rules: Rules[], rel: string): boolean {
  return !ignoredBy(rules, rel, true) && !selection.exclude?.(rel);
}

/**
 * Ignore files win over `include`; an include glob naming a default exclude
 * wins over the default and over the other include globs; `exclude` wins over all.
 */
export function keepsFile(selection: Selection, rules: Rules[], rel: string): boolean {
  const by = ignoredBy(rules, rel, false);
  if (by === "ignore_file") return false;
  const named = selection.namedInclude?.(rel) ?? false;
  if (by === "defaults" && !named) return false;
  if (selection.include && !selection.include(rel) && !named) return false;
  return !selection.exclude?.(rel);
}
