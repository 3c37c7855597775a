/**
 * Which paths a walk keeps, given the ignore rules governing them: the one
 * verdict `walkTree` and per-path callers (a watcher's events) share.
 */
import { namesDefaultExclude } from "./default_excludes.ts";
import { cleanGlobs, compileGlobs } from "./globs.ts";
import { ignoredBy, type Rules } from "./ignore_rules.ts";

/** The compiled include and exclude globs of one walk. */
export interface Selection {
  include?: (rel: string) => boolean;
  /** Include globs that name a default-excluded file, which they re-include. */
  namedInclude?: (rel: string) => boolean;
  exclude?: (rel: string) => boolean;
}

/** Compiles a walk's globs once. */
export function selection(options: { include?: string[]; exclude?: string[] }): Selection {
  return {
    include: compileGlobs(options.include),
    namedInclude: compileGlobs(cleanGlobs(options.include).filter(namesDefaultExclude)),
    exclude: compileGlobs(options.exclude),
  };
}

/** Whether the walk enters this directory (`include` never applies to directories). */
export function keepsDir(selection: Selection, rules: Rules[], rel: string): boolean {
  return !ignoredBy(rules, rel, true) && !selection.exclude?.(rel);
}

/** Ignore files win over `include`; `include` naming a default exclude wins over the default. */
export function keepsFile(selection: Selection, rules: Rules[], rel: string): boolean {
  const by = ignoredBy(rules, rel, false);
  if (by === "ignore_file") return false;
  if (by === "defaults" && !selection.namedInclude?.(rel)) return false;
  if (selection.include && !selection.include(rel)) return false;
  return !selection.exclude?.(rel);
}
