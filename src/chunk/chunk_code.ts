import { readFile, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Language, Parser } from "web-tree-sitter";
import { BUILD_DEFAULTS } from "../build_defaults.ts";
import { WayfinderError } from "../error.ts";
import type { Chunk, SourceFile } from "../types.ts";
import { codePieces } from "./code_pieces.ts";
import { LANGUAGES } from "./languages.ts";
import { makeChunk, nonWhitespaceCounter } from "./make_chunk.ts";
import { splitSpan } from "./split_span.ts";
import { renameImports } from "./wasm_imports.ts";

/** Options of {@link createCodeChunker}. */
export interface CodeChunkerOptions {
  /**
   * Folder holding every `tree-sitter-<grammar>.wasm`, and optionally the
   * runtime's `tree-sitter.wasm` (a compiled binary ships them beside it).
   * @default the `out` folder of the installed tree-sitter-wasms package, and
   * for a grammar that names another package (`LanguageSpec.package`) that package's root
   */
  grammarDir?: string;
  /**
   * Languages whose grammars load up front; others load with `load()`.
   * Unknown ids are ignored.
   * @default every language with a grammar table
   */
  languages?: readonly string[];
}

/** Options of {@link CodeChunker.chunk}. */
export interface CodeChunkOptions {
  /** Non-whitespace characters per chunk; larger declarations split. @default 1000 */
  maxChars?: number;
  /** Containers this small stay whole, and small neighbours merge below it. @default 200 */
  minChars?: number;
}

/** Splits source files along their syntax, one grammar per language. */
export interface CodeChunker {
  /** Language ids with a grammar table, loaded or not. */
  readonly languages: readonly string[];
  /** Whether `language`'s grammar is loaded, so `chunk()` can take it. */
  supports(language: string): boolean;
  /** Loads a grammar; resolves false for a language without a table. */
  load(language: string): Promise<boolean>;
  /**
   * Chunks one file: one chunk per declaration, a header chunk and one
   * chunk per member for classes and their kin, `imports`/`module` chunks
   * for the code in between. Chunks are in file order and never overlap.
   * @throws {WayfinderError} `input` when the language's grammar is not loaded
   */
  chunk(file: SourceFile, language: string, options?: CodeChunkOptions): Chunk[];
}

const DEFAULT_MIN_CHARS = 200;

/**
 * The web-tree-sitter runtime is one per process: initialising it again
 * would invalidate every loaded grammar, so the first init is shared.
 */
const runtime: { ready?: Promise<void> } = {};

function resolveFile(specifier: string): string | undefined {
  try {
    return fileURLToPath(import.meta.resolve(specifier));
  } catch {
    return undefined;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

async function initRuntime(grammarDir: string): Promise<void> {
  const beside = join(grammarDir, "tree-sitter.wasm");
  const path = (await exists(beside)) ? beside : resolveFile("web-tree-sitter/tree-sitter.wasm");
  if (!path) {
    throw new WayfinderError("io", "Cannot load tree-sitter: 'tree-sitter.wasm' not found");
  }
  let wasmBinary: Uint8Array;
  try {
    wasmBinary = await readFile(path);
  } catch (cause) {
    throw new WayfinderError("io", `Cannot load tree-sitter: '${path}' is unreadable`, { cause });
  }
  await Parser.init({ wasmBinary } as Parameters<typeof Parser.init>[0]);
}

function count(value: number, name: string, least: number): number {
  if (!Number.isInteger(value) || value < least) {
    throw new WayfinderError(
      "usage",
      `Cannot chunk code: ${name} must be an integer of at least ${least}, got '${value}'`,
    );
  }
  return value;
}

/** The root folder of an installed npm package. */
function packageDir(name: string): string {
  const manifest = resolveFile(`${name}/package.json`);
  if (!manifest) {
    throw new WayfinderError("io", `Cannot find grammars: package '${name}' is not installed`);
  }
  return dirname(manifest);
}

function defaultGrammarDir(): string {
  return join(packageDir("tree-sitter-wasms"), "out");
}

/**
 * Creates a code chunker: initialises the tree-sitter runtime (once per
 * process) and loads the grammars asked for.
 *
 * @param options Where grammars live and which to load now.
 * @returns A chunker for the loaded languages.
 * @throws {WayfinderError} `io` when the runtime or an explicitly asked grammar cannot be read
 *
 * @example Chunk a TypeScript class
 * ```ts
 * import assert from "node:assert/strict";
 * import { createCodeChunker } from "./mod.ts";
 *
 * const chunker = await createCodeChunker({ languages: ["typescript"] });
 * const content = "export class A {\n  run(): number {\n    return 1;\n  }\n}\n";
 * const chunks = chunker.chunk(
 *   { path: "a.ts", absolutePath: "/a.ts", content, bytes: content.length },
 *   "typescript",
 *   { minChars: 0 },
 * );
 * assert.deepEqual(chunks.map((c) => c.symbol), ["A", "A.run"]);
 * ```
 */
// Over 60 lines: the chunker's closures share the loaded grammars and one parser.
export async function createCodeChunker(options: CodeChunkerOptions = {}): Promise<CodeChunker> {
  const grammarDir = options.grammarDir ?? defaultGrammarDir();
  runtime.ready ??= initRuntime(grammarDir).catch((error) => {
    runtime.ready = undefined;
    throw error;
  });
  await runtime.ready;
  const parser = new Parser();
  const grammars = new Map<string, Language>();
  const languages = Object.keys(LANGUAGES);
  // Serialises later load() calls, for the same reason as the first loads below.
  let queue: Promise<boolean> = Promise.resolve(true);

  async function load(language: string, required = true): Promise<boolean> {
    const spec = LANGUAGES[language];
    if (!spec) return false;
    if (grammars.has(language)) return true;
    let path = join(grammarDir, `tree-sitter-${spec.grammar}.wasm`);
    try {
      if (options.grammarDir === undefined && spec.package) {
        path = join(packageDir(spec.package), `tree-sitter-${spec.grammar}.wasm`);
      }
      // Grammars built against more of libc than the runtime exports get its equivalents.
      grammars.set(language, await Language.load(renameImports(await readFile(path))));
      return true;
    } catch (cause) {
      if (!required) return false;
      if (cause instanceof WayfinderError) throw cause;
      throw new WayfinderError("io", `Cannot load grammar '${language}': '${path}' is unreadable`, {
        cause,
      });
    }
  }

  const wanted = options.languages ?? languages;
  // One at a time: the runtime's dynamic linker fails grammars loaded concurrently.
  // Explicitly asked grammars must load; the default set loads what is shipped.
  for (const language of wanted) await load(language, options.languages !== undefined);

  function chunk(file: SourceFile, language: string, chunkOptions: CodeChunkOptions = {}): Chunk[] {
    const grammar = grammars.get(language);
    if (!grammar) {
      throw new WayfinderError(
        "input",
        `Cannot chunk '${file.path}': no grammar loaded for '${language}'`,
      );
    }
    const spec = LANGUAGES[language];
    const maxChars = count(chunkOptions.maxChars ?? BUILD_DEFAULTS.maxChunkChars, "maxChars", 1);
    const minChars = count(chunkOptions.minChars ?? DEFAULT_MIN_CHARS, "minChars", 0);
    parser.setLanguage(grammar);
    const tree = parser.parse(file.content);
    if (!tree) throw new WayfinderError("internal", `Cannot parse '${file.path}' as ${language}`);
    try {
      const text = file.content;
      const count = nonWhitespaceCounter(text);
      const pieces = codePieces({ text, spec, maxChars, minChars, count }, tree.rootNode);
      const split = { text, blocks: spec.blocks, comments: spec.comments, maxChars, count };
      return pieces.flatMap((piece) => {
        // Parts end at their last visible character, like every other chunk.
        const spans = splitSpan(split, piece.start, piece.end, piece.nodes)
          .map(([start, end]) => [start, start + text.slice(start, end).trimEnd().length])
          .filter(([start, end]) => end > start);
        return spans.map(([start, end], i) => {
          const metadata: Record<string, unknown> = {};
          if (spans.length > 1) Object.assign(metadata, { part: i + 1, parts: spans.length });
          if (piece.symbols && piece.symbols.length > 1) metadata.symbols = piece.symbols;
          return makeChunk(file, {
            start,
            end,
            type: piece.type,
            language,
            symbol: piece.symbol,
            parent: piece.parent,
            metadata,
          });
        });
      });
    } finally {
      tree.delete();
    }
  }

  return {
    languages,
    supports: (language) => grammars.has(language),
    load: (language) => {
      const next = queue.then(() => load(language));
      queue = next.catch(() => false);
      return next;
    },
    chunk,
  };
}
