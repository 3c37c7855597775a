/**
 * Chunking: cuts source files into addressable passages. Code is cut along
 * its syntax (tree-sitter), Markdown along headings and blocks, anything
 * else as plain text; `chunkFile` routes between them.
 */

export {
  type CodeChunker,
  type CodeChunkerOptions,
  type CodeChunkOptions,
  createCodeChunker,
} from "./chunk_code.ts";
export { chunkFile, type ChunkFileOptions } from "./chunk_file.ts";
export { chunkMarkdown, markdownBodyStart, type MarkdownOptions } from "./chunk_markdown.ts";
export { chunkBudget, chunkText, type TextOptions } from "./chunk_text.ts";
export { chunkId, type ChunkSpec, countNonWhitespace, makeChunk } from "./make_chunk.ts";
export { sliceChunk } from "./slice_chunk.ts";
export { LANGUAGES, type LanguageSpec } from "./languages.ts";
