/**
 * Which paths a walk keeps, given the ignore rules governing them: the one
 * verdict `walkTree` and per-path callers (a watcher's events) share.
 */
import { excludedFolderIn, namesDefaultExclude } from "./default_excludes.ts";
import { cleanGlobs, compileGlobs } from "./globs.ts";
import { ignoredBy, type Rules } from "./ignore_rules.ts";

/** The compiled include and exclude globs of one walk. */
export interface Selection {
  /** Include globs that restrict the walk to what they match. */
  include?: (rel: string) => boolean;
  /**
   * Include globs that name a default-excluded file (`deno.lock`,
   * `*.min.js`) or reach into a default-excluded folder (`vendor`,
   * `node_modules/react/**`): they add what they match back and restrict nothing.
   */
  namedInclude?: (rel: string) => boolean;
  /** Default-excluded folders an include glob reaches into: the walk enters them. */
  namedFolder?: (rel: string) => boolean;
  exclude?: (rel: string) => boolean;
}

/**
 * What a glob reaching a default-excluded folder adds back: what it matches,
 * or everything inside when it ends at the folder (`vendor` is `**\/vendor/**`).
 */
function filesOf(glob: string, folder: string): string {
  if (folder !== glob) return glob;
  return glob.includes("/") ? `${glob}/**` : `**/${glob}/**`;
}

/** Compiles a walk's globs once. */
export function selection(options: { include?: string[]; exclude?: string[] }): Selection {
  const restricting: string[] = [];
  const naming: string[] = [];
  const folders: string[] = [];
  for (const glob of cleanGlobs(options.include)) {
    const folder = excludedFolderIn(glob);
    if (folder !== undefined) {
      folders.push(folder);
      naming.push(filesOf(glob, folder));
    } else if (namesDefaultExclude(glob)) naming.push(glob);
    else restricting.push(glob);
  }
  return {
    include: compileGlobs(restricting, "Include glob"),
    namedInclude: compileGlobs(naming, "Include glob"),
    namedFolder: compileGlobs(folders, "Include glob"),
    exclude: compileGlobs(options.exclude, "Exclude glob"),
  };
}

/**
 * Whether the walk enters this directory. `include` does not restrict
 * directories; a glob reaching into a default-excluded one opens it.
 */
export function keepsDir(selection: Selection, rules: Rules[], rel: string): boolean {
  const by = ignoredBy(rules, rel, true);
  if (by === "ignore_file") return false;
  if (by === "defaults" && !selection.namedFolder?.(rel)) return false;
  return !selection.exclude?.(rel);
}

/** Whether a folder above `rel` is one the defaults leave out (so only a naming glob opened it). */
function underExcludedFolder(rules: Rules[], rel: string): boolean {
  for (let at = rel.indexOf("/"); at !== -1; at = rel.indexOf("/", at + 1)) {
    if (ignoredBy(rules, rel.slice(0, at), true) === "defaults") return true;
  }
  return false;
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
  // Inside a folder opened by a naming glob, only what such a glob matches.
  if (!named && selection.namedFolder && underExcludedFolder(rules, rel)) return false;
  if (selection.include && !selection.include(rel) && !named) return false;
  return !selection.exclude?.(rel);
}
