import picomatch from "picomatch";
import type { Chunk } from "../types.ts";

/** Which chunks a search may return. Categories are AND'd, values within one are OR'd. */
export interface SearchFilter {
  /**
   * Globs on `sourcePath` (picomatch, dotfiles included). A glob without "/"
   * matches the file name anywhere (`*.ts`); a plain path without glob
   * characters also matches everything below it (`src/auth`).
   */
  paths?: string[];
  /** Chunk types, e.g. "method", "heading". */
  types?: string[];
  /** Chunk languages, e.g. "typescript", "markdown". */
  languages?: string[];
  /** Any other rule, e.g. a knowledge policy over `metadata.concept`. */
  accept?: (chunk: Chunk) => boolean;
}

const GLOB_CHARS = /[*?[\]{}()!+@]/;

function pathMatcher(pattern: string): (path: string) => boolean {
  const glob = pattern.replace(/\\/g, "/").replace(/^\.\//, "");
  if (!GLOB_CHARS.test(glob)) {
    const dir = glob.replace(/\/+$/, "");
    return (path) => path === dir || path.startsWith(`${dir}/`);
  }
  const isMatch = picomatch(glob, { dot: true });
  if (glob.includes("/")) return isMatch;
  // picomatch's own `basename` option misbehaves on arrays and slashes, so match the name here.
  return (path) => isMatch(path.slice(path.lastIndexOf("/") + 1));
}

/**
 * Compiles a filter into a predicate, or returns undefined when the filter
 * restricts nothing (so callers can skip widening and notices).
 */
export function matchFilter(
  filter: SearchFilter | undefined,
): ((chunk: Chunk) => boolean) | undefined {
  if (!filter) return undefined;
  const paths = filter.paths?.length ? filter.paths.map(pathMatcher) : undefined;
  const types = filter.types?.length ? new Set(filter.types) : undefined;
  const languages = filter.languages?.length ? new Set(filter.languages) : undefined;
  const accept = filter.accept;
  if (!paths && !types && !languages && !accept) return undefined;
  return (chunk) =>
    (!types || types.has(chunk.type)) &&
    (!languages || languages.has(chunk.language)) &&
    (!paths || paths.some((m) => m(chunk.sourcePath))) &&
    (!accept || accept(chunk));
}
