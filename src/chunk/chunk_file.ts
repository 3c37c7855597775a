import type { Chunk, SourceFile } from "../types.ts";
import type { CodeChunker } from "./chunk_code.ts";
import { chunkMarkdown } from "./chunk_markdown.ts";
import { chunkText } from "./chunk_text.ts";

/** Options of {@link chunkFile}. */
export interface ChunkFileOptions {
  /** Non-whitespace characters per chunk, for every chunker. @default 1000 */
  maxChars?: number;
  /** Code: containers this small stay whole, smaller neighbours merge. @default 200 */
  minChars?: number;
}

/** Mean characters per line above which code is taken for minified. */
const MINIFIED_LINE = 1000;

/**
 * Minified or generated code: lines far longer than anyone writes. Its
 * syntax has no shape worth cutting along (a bundle of tiny statements would
 * become hundreds of thousands of chunks), so it is chunked as text.
 */
function looksMinified(text: string): boolean {
  if (text.length < MINIFIED_LINE) return false;
  let lines = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lines++;
  return text.length / lines > MINIFIED_LINE;
}

/**
 * Chunks one file by its language: code with a loaded grammar by syntax,
 * Markdown by headings and blocks, anything else as text. A code file the
 * grammar cannot chunk (a parse failure, or no chunks from non-blank text)
 * falls back to text, so no file is silently dropped; so does minified code
 * (lines over 1,000 characters on average).
 *
 * @param file The file to chunk.
 * @param language Its language id, as `detectLanguage` gives it.
 * @param chunker The code chunker; languages it does not support go to text.
 * @param options Budgets.
 * @returns The file's chunks in order; none only for a blank file.
 * @throws {WayfinderError} `usage` for a bad budget
 *
 * @example Route a Python file and an unknown format
 * ```ts
 * import assert from "node:assert/strict";
 * import { chunkFile, createCodeChunker } from "./mod.ts";
 *
 * const chunker = await createCodeChunker({ languages: ["python"] });
 * const content = "def hello():\n    return 'hi'\n";
 * const file = { path: "a.py", absolutePath: "/a.py", content, bytes: content.length };
 * assert.equal(chunkFile(file, "python", chunker)[0].symbol, "hello");
 * assert.equal(chunkFile({ ...file, path: "a.cfg" }, "text", chunker)[0].type, "text");
 * ```
 */
export function chunkFile(
  file: SourceFile,
  language: string,
  chunker: CodeChunker,
  options: ChunkFileOptions = {},
): Chunk[] {
  const { maxChars, minChars } = options;
  if (language === "markdown") return chunkMarkdown(file, { maxChars });
  const asText = () => chunkText(file, { maxChars, language });
  if (!chunker.supports(language) || looksMinified(file.content)) return asText();
  let chunks: Chunk[];
  try {
    chunks = chunker.chunk(file, language, { maxChars, minChars });
  } catch {
    // A grammar failure costs the file its structure, not its content.
    return asText();
  }
  return chunks.length === 0 && file.content.trim() !== "" ? asText() : chunks;
}
