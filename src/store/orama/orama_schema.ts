/**
 * How a corpus is laid out in an Orama database: the schema, the code
 * tokenizer plugged into Orama's public tokenizer hook, and the document of
 * each chunk. Shared by the store that writes and reads the database and by
 * nothing else: any Orama program can read the documents back.
 */
import type { Tokenizer } from "@orama/orama";
import type { Chunk } from "../../types.ts";
import { tokenizeCode, tokenizeQuery } from "../code_tokenizer.ts";

/** Id of the one document that is not a passage: the manifest, generation and row order. */
export const MANIFEST_ID = "wayfinder:manifest";

/**
 * The indexed properties. Full text over content, symbol and path (as the
 * local index's BM25F); enums for the type and language filters; `dirs`
 * lists the path and every folder above it, so a path-prefix filter is one
 * `containsAny`; `embedding` holds the vector (absent while pending).
 */
export function oramaSchema(dimensions: number) {
  return {
    content: "string",
    symbol: "string",
    sourcePath: "string",
    type: "enum",
    language: "enum",
    dirs: "enum[]",
    embedding: `vector[${dimensions}]`,
  } as const;
}

/** A chunk as an Orama document: its indexed properties plus the rest, stored as given. */
export interface ChunkDocument {
  id: string;
  content: string;
  symbol?: string;
  sourcePath: string;
  type: string;
  language: string;
  dirs: string[];
  embedding?: number[] | Float32Array;
  lineStart: number;
  lineEnd: number;
  startOffset: number;
  endOffset: number;
  parent?: string;
  metadata: Record<string, unknown>;
  /** Hash of the text the model embedded (see `Store.vectorsByInput`), when the store was told how to build it. */
  inputHash?: string;
}

/**
 * Marks the end of every indexed and queried token. Orama matches a query
 * token against every word it begins; with the mark, `token` no longer
 * matches `tokenizer`, as in the local index. A plain Orama program
 * querying without it still matches each word by its prefix.
 */
const END = "\u0001";

/**
 * `tokenizeCode` as an Orama tokenizer: Orama passes the property name when
 * indexing and none when tokenizing a query, which gets `tokenizeQuery`'s
 * stopword and compound handling. A passage's field yields each distinct
 * token once: Orama adds every occurrence to a term's document count (its
 * idf then falls for repeated words, not for common ones) and compares
 * every token with every other while indexing; once, its count is the
 * document frequency BM25 means, and indexing is much faster.
 */
export function codeTokenizer(): Tokenizer {
  return {
    language: "english",
    normalizationCache: new Map(),
    tokenize: (raw: string, _language?: string, prop?: string) => {
      const tokens = prop ? new Set(tokenizeCode(raw)) : tokenizeQuery(raw);
      return Array.from(tokens, (token) => token + END);
    },
  };
}

/** The path and each folder above it: `a/b/c.ts` → `a`, `a/b`, `a/b/c.ts`. */
export function dirsOf(path: string): string[] {
  const parts = path.split("/");
  return parts.map((_, i) => parts.slice(0, i + 1).join("/"));
}

/** The document of `chunk`, with its vector when it has one. */
export function chunkDocument(
  chunk: Chunk,
  vector: Float32Array | null,
  inputHash: string | undefined,
): ChunkDocument {
  const doc: ChunkDocument = {
    id: chunk.id,
    content: chunk.content,
    sourcePath: chunk.sourcePath,
    type: chunk.type,
    language: chunk.language,
    dirs: dirsOf(chunk.sourcePath),
    lineStart: chunk.lineStart,
    lineEnd: chunk.lineEnd,
    startOffset: chunk.startOffset,
    endOffset: chunk.endOffset,
    metadata: chunk.metadata,
  };
  if (inputHash !== undefined) doc.inputHash = inputHash;
  if (chunk.symbol !== undefined) doc.symbol = chunk.symbol;
  if (chunk.parent !== undefined) doc.parent = chunk.parent;
  if (vector) doc.embedding = Array.from(vector);
  return doc;
}

/** The chunk a document holds. */
export function chunkOf(doc: ChunkDocument): Chunk {
  const chunk: Chunk = {
    id: doc.id,
    sourcePath: doc.sourcePath,
    lineStart: doc.lineStart,
    lineEnd: doc.lineEnd,
    startOffset: doc.startOffset,
    endOffset: doc.endOffset,
    type: doc.type,
    language: doc.language,
    content: doc.content,
    metadata: doc.metadata ?? {},
  };
  if (doc.symbol !== undefined) chunk.symbol = doc.symbol;
  if (doc.parent !== undefined) chunk.parent = doc.parent;
  return chunk;
}
