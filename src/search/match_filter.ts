import picomatch from "picomatch";
import type { Chunk, RowColumn, RowColumns } from "../types.ts";
import { languageId } from "../walk/mod.ts";

/**
 * Which chunks a search may return. Categories are AND'd, values within one are OR'd.
 *
 * @example Any rule over a chunk
 * ```ts
 * import assert from "node:assert/strict";
 * import { FakeEmbedder, openCorpus } from "../mod.ts";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/auth.ts`, "export function refreshToken() {\n  return fetchToken();\n}\n");
 * await Deno.writeTextFile(`${root}/README.md`, "# Auth\n\nRefresh the token before it expires.\n");
 * const dataDir = await Deno.makeTempDir();
 * const corpus = await openCorpus(root, { dataDir, embedder: new FakeEmbedder() });
 * await corpus.index();
 * const { matches } = await corpus.search("token", {
 *   mode: "lexical",
 *   filter: { accept: (chunk) => chunk.symbol !== undefined },
 * });
 * assert.ok(matches.length > 0 && matches.every((hit) => hit.chunk.symbol));
 * await corpus.close();
 * await Deno.remove(root, { recursive: true });
 * await Deno.remove(dataDir, { recursive: true });
 * ```
 */
export interface SearchFilter {
  /**
   * Globs on `sourcePath` (picomatch, dotfiles included). A glob without "/"
   * matches the file name anywhere (`*.ts`); a plain path without glob
   * characters also matches everything below it (`src/auth`).
   */
  paths?: string[];
  /** Chunk types, e.g. "method", "heading". */
  types?: string[];
  /** Chunk languages, e.g. "typescript", "markdown", or an extension or alias of one ("ts", "md"). */
  languages?: string[];
  /** Any other rule, e.g. a knowledge policy over `metadata.concept`. */
  accept?: (chunk: Chunk) => boolean;
}

/** Characters that make a path filter a glob rather than a plain path or folder. */
export const GLOB_CHARS = /[*?[\]{}()!+@]/;

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

/** The filter's tests, one per category it restricts. */
function compile(filter: SearchFilter | undefined) {
  const paths = filter?.paths?.length ? filter.paths.map(pathMatcher) : undefined;
  const types = filter?.types?.length ? new Set(filter.types) : undefined;
  const languages = filter?.languages?.length
    ? new Set(filter.languages.map(languageId))
    : undefined;
  return {
    sourcePath: paths && ((path: string) => paths.some((m) => m(path))),
    type: types && ((type: string) => types.has(type)),
    language: languages && ((language: string) => languages.has(language)),
    accept: filter?.accept,
  };
}

/**
 * Compiles a filter into a predicate, or returns undefined when the filter
 * restricts nothing (so callers can skip widening and notices).
 */
export function matchFilter(
  filter: SearchFilter | undefined,
): ((chunk: Chunk) => boolean) | undefined {
  const { sourcePath, type, language, accept } = compile(filter);
  if (!sourcePath && !type && !language && !accept) return undefined;
  return (chunk) =>
    (!type || type(chunk.type)) &&
    (!language || language(chunk.language)) &&
    (!sourcePath || sourcePath(chunk.sourcePath)) &&
    (!accept || accept(chunk));
}

/**
 * The rows of an index a filter keeps, one byte each. With `columns`, path,
 * type and language are tested once per distinct value, and `accept` runs
 * only on the rows those keep, so most chunks are never built.
 */
export function keptRows(
  index: { chunks: Chunk[]; columns?: RowColumns },
  filter: SearchFilter,
): Uint8Array {
  const rows = index.chunks.length;
  const kept = new Uint8Array(rows);
  const { columns } = index;
  if (!columns) {
    const keep = matchFilter(filter);
    for (let row = 0; row < rows; row++) kept[row] = !keep || keep(index.chunks[row]) ? 1 : 0;
    return kept;
  }
  kept.fill(1);
  const tests = compile(filter);
  const narrow = (column: RowColumn, test: ((value: string) => boolean) | undefined) => {
    if (!test) return;
    const pass = Uint8Array.from(column.values, (value) => test(value) ? 1 : 0);
    for (let row = 0; row < rows; row++) kept[row]! &= pass[column.ids[row]!]!;
  };
  narrow(columns.type, tests.type);
  narrow(columns.language, tests.language);
  narrow(columns.sourcePath, tests.sourcePath);
  if (tests.accept) {
    for (let row = 0; row < rows; row++) {
      if (kept[row] === 1 && !tests.accept(index.chunks[row])) kept[row] = 0;
    }
  }
  return kept;
}

/** The distinct values of one column of an index, sorted. */
function heldValues(
  index: { chunks: Chunk[]; columns?: RowColumns },
  key: "language" | "type",
): string[] {
  const values = index.columns?.[key].values ?? index.chunks.map((chunk) => chunk[key]);
  return [...new Set(values)].sort();
}

/**
 * The notice for a filter that keeps no chunk of the index. When it names
 * languages or types, the ones the index holds follow, so `--lang ts` or a
 * misspelt type can be put right.
 */
export function noMatchNotice(
  index: { chunks: Chunk[]; columns?: RowColumns },
  filter: SearchFilter,
): string {
  const held = [
    filter.languages?.length ? `languages: ${heldValues(index, "language").join(", ")}` : "",
    filter.types?.length ? `types: ${heldValues(index, "type").join(", ")}` : "",
  ].filter((part) => part !== "");
  const notice = "the filters match no chunk in this index";
  return held.length ? `${notice} (it holds ${held.join("; ")})` : notice;
}
