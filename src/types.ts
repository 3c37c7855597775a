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
  /** Modification time (ms) when read, where the walk knows it. */
  mtime?: number;
}

/**
 * An addressable passage of a source file.
 * Invariant: `source.slice(startOffset, endOffset) === content`.
 *
 * @example A hit's passage is where it says in its file
 * ```ts
 * import assert from "node:assert/strict";
 * import { FakeEmbedder, openCorpus } from "./mod.ts";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/auth.ts`, "export function refreshToken() {\n  return fetchToken();\n}\n");
 * await Deno.writeTextFile(`${root}/README.md`, "# Auth\n\nRefresh the token before it expires.\n");
 * const dataDir = await Deno.makeTempDir();
 * const corpus = await openCorpus(root, { dataDir, embedder: new FakeEmbedder() });
 * await corpus.index();
 * const { chunk } = (await corpus.search("refreshToken", { mode: "lexical", limit: 1 })).matches[0]!;
 * const text = await Deno.readTextFile(`${root}/${chunk.sourcePath}`);
 * assert.equal(text.slice(chunk.startOffset, chunk.endOffset), chunk.content);
 * await corpus.close();
 * await Deno.remove(root, { recursive: true });
 * await Deno.remove(dataDir, { recursive: true });
 * ```
 */
export interface Chunk {
  /** Stable id: sha1 of `path|lineStart|lineEnd|type|sha1(content)`. */
  id: string;
  /** The file, relative to the root, `/`-separated. */
  sourcePath: string;
  /** 1-based, inclusive. */
  lineStart: number;
  /** Last line, inclusive. */
  lineEnd: number;
  /** UTF-16 offsets into the source text, end exclusive. */
  startOffset: number;
  /** UTF-16 offset where it ends, exclusive. */
  endOffset: number;
  /** class, method, function, heading, paragraph, code, table, text, … */
  type: string;
  /** typescript, dart, markdown, text, … */
  language: string;
  /** Qualified name for code (`AuthService.refreshToken`), heading path for Markdown. */
  symbol?: string;
  /** The enclosing declaration's symbol, when there is one. */
  parent?: string;
  /** The passage's text. */
  content: string;
  /** What a stage adds (a knowledge passage's concept and status, among others). */
  metadata: Record<string, unknown>;
}

/** A search result. */
export interface Hit {
  /** The passage found. */
  chunk: Chunk;
  /**
   * What the hit was ranked by: cosine similarity for dense search, BM25 for
   * lexical, the fused score for hybrid, the cross-encoder's when reranked.
   */
  score: number;
  /**
   * The same number as `score`, under its former name.
   * @deprecated Read `score`; `similarity` goes with the next JSON format version.
   */
  similarity: number;
}

/** Whether and how an index also keeps its vectors in a compact code for a fast first pass. */
export type Quantization = "none" | "int8" | "binary";

/**
 * An index's vectors in compact codes: dense search scores these first and
 * rescores the best candidates exactly with the float vectors.
 */
export interface QuantizedVectors {
  kind: Exclude<Quantization, "none">;
  /**
   * int8: `rows × dimensions` signed bytes, row r's value d ≈ `codes[r·dims + d] × scales[r]`;
   * binary: `rows × ceil(dimensions / 8)` bytes, bit `d % 8` of byte `d / 8` set when value d > 0.
   */
  codes: Int8Array | Uint8Array;
  /** int8 only: each row's scale. */
  scales?: Float32Array;
}

/** Rows `start` (inclusive) to `end` (exclusive) of an index. */
export type RowRange = [start: number, end: number];

/** A dictionary-encoded column of an index: row r holds `values[ids[r]]`. */
export interface RowColumn {
  values: readonly string[];
  ids: Uint32Array;
}

/** Each row's path, type and language, so a filter tests each distinct value once. */
export interface RowColumns {
  sourcePath: RowColumn;
  type: RowColumn;
  language: RowColumn;
}
