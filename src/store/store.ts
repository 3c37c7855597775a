/**
 * The one interface every index backend implements: the local index (its
 * first implementation), PostgreSQL + pgvector and Orama. Search above it
 * (the ranking stage, expansion, diversity, rerank) works on the hits it
 * returns, so a backend answers candidates and never hands over all its
 * vectors.
 *
 * A backend is chosen by URL: a folder path (the local index),
 * `postgres://…`, or `orama:PATH`.
 *
 * @module
 */
import type { Chunk, RowRange } from "../types.ts";
import type { LexicalFilter } from "./lexical_filter.ts";
import type { FileRecord, IndexManifest, IndexManifestInput } from "./manifest.ts";

/** Which chunks a search may return: the lexical filter's categories, for every mode. */
export type StoreFilter = Omit<LexicalFilter, "rows">;

/** One candidate a store returns, best first. */
export interface StoreHit {
  /** The passage, its text included. */
  chunk: Chunk;
  /** What the store ranked by: cosine for dense, BM25 for lexical, the fused score for hybrid. */
  score: number;
  /** Each component score the store computed. */
  scores: { dense?: number; lexical?: number; fused?: number };
}

/** How many hits, and which chunks may be among them. */
export interface StoreQuery {
  limit: number;
  filter?: StoreFilter;
}

/** The live generation, held for reading: a publish does not reclaim it until `close`. */
export interface StoreReader {
  /** Name of the generation read. */
  readonly generation: string;
  readonly manifest: IndexManifest;
  /** Chunks searchable in this generation. */
  readonly chunkCount: number;
  /** The chunk with this id, or null. */
  chunk(id: string): Promise<Chunk | null>;
  /**
   * Stored vectors by embedding-input hash (`contentHash` of the text the
   * model read), for the model of this generation: what lets a run, or
   * another machine, skip embedding an input anyone embedded before.
   */
  vectorsByInput(hashes: readonly string[]): Promise<Map<string, Float32Array>>;
  /** Nearest chunks to a query vector by cosine; pending rows are skipped. */
  dense(vector: Float32Array, query: StoreQuery): Promise<StoreHit[]>;
  /** BM25 full-text search over content, symbol and path. */
  lexical(text: string, query: StoreQuery): Promise<StoreHit[]>;
  /** Both, fused by reciprocal rank (k = `rrfK`, default 60). */
  hybrid(
    text: string,
    vector: Float32Array,
    query: StoreQuery & { rrfK?: number },
  ): Promise<StoreHit[]>;
  /**
   * The unit mean vector of each named file's embedded passages, for the
   * ranking stage's file similarity. Optional: a store without it skips that step.
   */
  fileVectors?(paths: readonly string[]): Promise<Map<string, Float32Array>>;
  /** Releases the generation (its lease); the reader is unusable afterwards. */
  close(): Promise<void>;
}

/** One file's passages in a new generation. */
export interface FileChange {
  /** Root-relative, `/`-separated. */
  path: string;
  record: FileRecord;
  /** In file order; `record.chunkIds` lists their ids. */
  chunks: Chunk[];
  /** One per chunk; null for a chunk still to embed (it is published pending). */
  vectors: (Float32Array | null)[];
  /**
   * One per chunk: the hash of the text the model read for it (see
   * `StoreReader.vectorsByInput`). A backend that keeps input hashes stores
   * these; the local index derives them from the chunk instead.
   */
  inputHashes?: readonly string[];
}

/**
 * A new generation built from the live one: files whose passages are
 * replaced or dropped, and the passages that replace them. Files named in
 * neither list carry over unchanged, without being rewritten.
 */
export interface Publication {
  manifest: Omit<IndexManifestInput, "files">;
  /** Files whose passages leave the index: deleted ones (files in `changed` are replaced anyway). */
  removed: readonly string[];
  changed: readonly FileChange[];
  /** Start from nothing instead of the live generation (a rebuild). */
  fresh?: boolean;
}

/** What `status` reports about a store. */
export interface StoreStatus {
  /** The live generation, or null before the first publish. */
  generation: string | null;
  chunkCount: number;
  /** Rows not embedded yet. */
  pending: RowRange[];
  /** Bytes the store holds for this corpus, when it can tell. */
  bytes?: number;
}

/** One corpus's index, wherever it is kept. */
export interface Store {
  /** Where the index lives, for messages: a folder, or a URL without its password. */
  readonly location: string;
  /** The live generation's manifest, or null before the first publish. */
  manifest(): Promise<IndexManifest | null>;
  /** Opens the live generation for reading, or null before the first publish. */
  open(): Promise<StoreReader | null>;
  /**
   * Publishes a new generation atomically: readers see the old one or the
   * new one, never a mix. The caller holds the store's writer lock.
   * @returns The new generation's name.
   */
  publish(publication: Publication): Promise<string>;
  /**
   * Takes the corpus's writer lock (the local lock file, a PostgreSQL
   * advisory lock): two index runs never interleave their publishes.
   * @throws {WayfinderError} `busy` when another writer holds it.
   */
  lock(): Promise<{ release(): Promise<void> }>;
  status(): Promise<StoreStatus>;
  /** Releases connections and files. */
  close(): Promise<void>;
}

/**
 * A store that keeps vectors by model and embedding input apart from any
 * generation (PostgreSQL's team-wide cache): an index run asks it before
 * embedding, even for a corpus the store has never held.
 */
export interface EmbeddingCache {
  /** The vectors stored for these input hashes with the model of `fingerprint`. */
  cachedVectors(
    fingerprint: string,
    dimensions: number,
    hashes: readonly string[],
  ): Promise<Map<string, Float32Array>>;
}

/** Whether `store` keeps an embedding cache of its own. */
export function hasEmbeddingCache(store: Store): store is Store & EmbeddingCache {
  return typeof (store as Partial<EmbeddingCache>).cachedVectors === "function";
}
