/**
 * Plain records passed between the stages of the data flow
 * (walk → chunk → fit → embed → store → search). No behaviour here.
 */

/** A file the walker accepted, read as UTF-8 text. */
export interface SourceFile {
  /** Path relative to the corpus root, with forward slashes. */
  path: string;
  /** Absolute path on disk. */
  absolutePath: string;
  /** The decoded text. */
  content: string;
  /** Size on disk in bytes. */
  bytes: number;
}

/**
 * An addressable passage of a source file.
 * Invariant: `source.slice(startOffset, endOffset) === content`.
 */
export interface Chunk {
  /** Stable id: sha1 of `path|lineStart|lineEnd|type|sha1(content)`. */
  id: string;
  sourcePath: string;
  /** 1-based, inclusive. */
  lineStart: number;
  lineEnd: number;
  /** UTF-16 offsets into the source text, end exclusive. */
  startOffset: number;
  endOffset: number;
  /** class, method, function, heading, paragraph, code, table, text, … */
  type: string;
  /** typescript, dart, markdown, text, … */
  language: string;
  /** Qualified name for code (`AuthService.refreshToken`), heading path for Markdown. */
  symbol?: string;
  /** The enclosing declaration's symbol, when there is one. */
  parent?: string;
  content: string;
  metadata: Record<string, unknown>;
}

/** A search result. */
export interface Hit {
  chunk: Chunk;
  /** Cosine similarity for dense search; the fused or lexical score otherwise. */
  similarity: number;
}
