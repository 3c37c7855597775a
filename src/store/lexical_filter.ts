import type { Column } from "./lexical_format.ts";

/**
 * Which chunks a lexical search may return. Categories are AND'd, values
 * within one OR'd; an absent or empty list keeps everything.
 */
export interface LexicalFilter {
  /** Chunk types, e.g. "function", "heading". */
  types?: string[];
  /** Chunk languages, e.g. "typescript", "markdown". */
  languages?: string[];
  /**
   * Source paths or directories: a chunk is kept when its path equals one or
   * lies below one (`src/auth` keeps `src/auth/token.ts`, not `src/authz.ts`).
   * Globs are the search layer's business.
   */
  pathPrefixes?: string[];
  /** Any other rule on a row, e.g. the search layer's globs and policies. */
  rows?: (row: number) => boolean;
}

function normalisePrefix(prefix: string): string {
  const path = prefix.replace(/\\/g, "/").replace(/^(?:\.\/)+/, "").replace(/\/+$/, "");
  return path === "." ? "" : path;
}

function under(path: string, prefix: string): boolean {
  return prefix === "" || path === prefix || path.startsWith(`${prefix}/`);
}

/**
 * Compiles a filter into a row predicate over the index's stored columns, or
 * undefined when it keeps everything. Each condition is decided once per
 * distinct value, so testing a row is a few array lookups.
 */
export function compileFilter(
  filter: LexicalFilter | undefined,
  columns: Record<Column, { values: readonly string[]; ids: Uint32Array }>,
): ((row: number) => boolean) | undefined {
  const tests: { keep: Uint8Array; ids: Uint32Array }[] = [];
  const add = (column: Column, keep: (value: string) => boolean) => {
    const { values, ids } = columns[column];
    tests.push({ keep: Uint8Array.from(values, (value) => keep(value) ? 1 : 0), ids });
  };
  if (filter?.types?.length) {
    const types = new Set(filter.types);
    add("type", (type) => types.has(type));
  }
  if (filter?.languages?.length) {
    const languages = new Set(filter.languages);
    add("language", (language) => languages.has(language));
  }
  if (filter?.pathPrefixes?.length) {
    const prefixes = filter.pathPrefixes.map(normalisePrefix);
    add("sourcePath", (path) => prefixes.some((prefix) => under(path, prefix)));
  }
  const rows = filter?.rows;
  if (tests.length === 0) return rows;
  return (row) => tests.every(({ keep, ids }) => keep[ids[row]!] === 1) && (!rows || rows(row));
}
