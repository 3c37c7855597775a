/**
 * The local index behind the `Store` interface: a folder of segments and
 * generations (see docs/index-format.md). A publish is one segment write:
 * removed and changed files' rows are marked deleted, changed files' chunks
 * go into one new segment, every other segment is shared.
 */
import { unitMean } from "./unit_mean.ts";
import type { Chunk } from "../types.ts";
import { inRanges } from "../row_ranges.ts";
import { compileFilter } from "./lexical_filter.ts";
import { acquireIndexLock } from "./index_lock.ts";
import type { FileRecord, IndexManifest } from "./manifest.ts";
import { mergeSegments } from "./merge.ts";
import { openForEdit } from "./open_for_edit.ts";
import { currentGeneration, openIndex, readManifest, type StoredIndex } from "./open_index.ts";
import type {
  Publication,
  Store,
  StoreFilter,
  StoreHit,
  StoreQuery,
  StoreReader,
  StoreStatus,
} from "./store.ts";
import { publishEdit } from "./write_generation.ts";
import { topRows } from "./top_rows.ts";
import { fuseRankings } from "./fuse_rankings.ts";

/** Options of `LocalStore`. */
export interface LocalStoreOptions {
  /** The corpus root, for messages and the check that the folder indexes it. */
  root?: string;
  /**
   * The hash of the text the model read for a chunk, as `vectorsByInput`
   * is asked for it (the index run's: xxh64 of its embedding input).
   * @default the chunk's content
   */
  inputHash?: (chunk: Chunk) => string;
}

/** Reciprocal-rank fusion constant. */

/** The `Store` of a local index folder. */
export class LocalStore implements Store {
  constructor(readonly location: string, private readonly options: LocalStoreOptions = {}) {}

  manifest(): Promise<IndexManifest | null> {
    return readManifest(this.location, this.options.root);
  }

  async open(): Promise<StoreReader | null> {
    const index = await openIndex(this.location, { root: this.options.root });
    return index && new LocalReader(index, this.options.inputHash ?? ((chunk) => chunk.content));
  }

  async publish(publication: Publication): Promise<string> {
    const base = publication.fresh ? null : await openForEdit(this.location, this.options.root);
    try {
      const removed = new Set([
        ...publication.removed,
        ...publication.changed.map((change) => change.path),
      ]);
      const files: Record<string, FileRecord> = {};
      for (const [path, record] of Object.entries(base?.manifest.files ?? {})) {
        if (!removed.has(path)) files[path] = record;
      }
      for (const change of publication.changed) files[change.path] = change.record;
      const rows = publication.changed.flatMap((change) =>
        change.chunks.map((chunk, i) => [chunk, change.vectors[i] ?? null] as const)
      );
      const name = await publishEdit(this.location, base, {
        manifest: { ...publication.manifest, files },
        removed,
        rows: rows.map(([chunk, vector]) => [chunk, vector]),
      });
      await base?.close?.();
      await mergeSegments(this.location, { root: this.options.root }).catch(() => {});
      return await currentGeneration(this.location) ?? name;
    } finally {
      await base?.close?.();
    }
  }

  lock(): Promise<{ release(): Promise<void> }> {
    return acquireIndexLock(this.location, this.options.root);
  }

  async status(): Promise<StoreStatus> {
    const manifest = await this.manifest();
    return {
      generation: await currentGeneration(this.location),
      chunkCount: manifest?.chunkCount ?? 0,
      pending: manifest?.pending ?? [],
      bytes: await folderBytes(this.location),
    };
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** Bytes of every file under `dir`. */
export async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  try {
    for await (const entry of Deno.readDir(dir)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) total += await folderBytes(path);
      else total += (await Deno.stat(path).catch(() => ({ size: 0 }))).size;
    }
  } catch {
    // Gone meanwhile.
  }
  return total;
}

/** A leased generation of a local index, searched in memory. */
class LocalReader implements StoreReader {
  #inputs: Map<string, number> | null = null;

  constructor(
    private readonly index: StoredIndex,
    private readonly inputHash: (chunk: Chunk) => string,
  ) {}

  get generation(): string {
    return this.index.generation;
  }

  get manifest(): IndexManifest {
    return this.index.manifest;
  }

  get chunkCount(): number {
    return this.index.chunks.length;
  }

  chunk(id: string): Promise<Chunk | null> {
    const row = this.index.rowOf(id);
    return Promise.resolve(row < 0 ? null : { ...this.index.chunks[row]! });
  }

  vectorsByInput(hashes: readonly string[]): Promise<Map<string, Float32Array>> {
    const { index } = this;
    if (this.#inputs === null) {
      this.#inputs = new Map();
      index.chunks.forEach((chunk, row) => {
        if (!inRanges(index.pending, row)) this.#inputs!.set(this.inputHash(chunk), row);
      });
    }
    const found = new Map<string, Float32Array>();
    const d = index.dimensions;
    for (const hash of hashes) {
      const row = this.#inputs.get(hash);
      if (row !== undefined) found.set(hash, index.vectors.slice(row * d, (row + 1) * d));
    }
    return Promise.resolve(found);
  }

  fileVectors(paths: readonly string[]): Promise<Map<string, Float32Array>> {
    const { index } = this;
    const d = index.dimensions;
    const means = new Map<string, Float32Array>();
    for (const path of paths) {
      const rows = (index.manifest.files[path]?.chunkIds ?? []).map((id) => index.rowOf(id))
        .filter((row) => row >= 0 && !inRanges(index.pending, row));
      const mean = unitMean(rows.map((row) => index.vectors.subarray(row * d, (row + 1) * d)), d);
      if (mean) means.set(path, mean);
    }
    return Promise.resolve(means);
  }

  #keep(filter: StoreFilter | undefined): ((row: number) => boolean) | undefined {
    return compileFilter(filter, this.index.columns);
  }

  #hit(row: number, score: number, scores: StoreHit["scores"]): StoreHit {
    return { chunk: { ...this.index.chunks[row]! }, score, scores };
  }

  #dense(vector: Float32Array, limit: number, filter?: StoreFilter): [number, number][] {
    const { index } = this;
    const d = index.dimensions;
    const keep = this.#keep(filter);
    let queryNorm = 0;
    for (let i = 0; i < d; i++) queryNorm += vector[i]! * vector[i]!;
    const scores = new Float64Array(index.chunks.length);
    const rows: number[] = [];
    for (let row = 0; row < index.chunks.length; row++) {
      if (inRanges(index.pending, row) || (keep && !keep(row))) continue;
      let dot = 0;
      let norm = 0;
      for (let i = 0, at = row * d; i < d; i++, at++) {
        dot += index.vectors[at]! * vector[i]!;
        norm += index.vectors[at]! * index.vectors[at]!;
      }
      scores[row] = dot / (Math.sqrt(norm * queryNorm) || 1);
      rows.push(row);
    }
    return topRows(rows, scores, limit).map((row) => [row, scores[row]!]);
  }

  dense(vector: Float32Array, query: StoreQuery): Promise<StoreHit[]> {
    return Promise.resolve(
      this.#dense(vector, query.limit, query.filter).map(([row, score]) =>
        this.#hit(row, score, { dense: score })
      ),
    );
  }

  lexical(text: string, query: StoreQuery): Promise<StoreHit[]> {
    const hits = this.index.lexical(text, query.limit, query.filter);
    return Promise.resolve(
      hits.map((hit) => this.#hit(hit.index, hit.score, { lexical: hit.score })),
    );
  }

  hybrid(
    text: string,
    vector: Float32Array,
    query: StoreQuery & { rrfK?: number },
  ): Promise<StoreHit[]> {
    const depth = Math.max(query.limit * 4, 50);
    const fused = fuseRankings({
      dense: this.#dense(vector, depth, query.filter).map(([key, score]) => ({ key, score })),
      lexical: this.index.lexical(text, depth, query.filter).map((hit) => ({
        key: hit.index,
        score: hit.score,
      })),
    }, query.rrfK);
    const rows = [...fused.keys()];
    const scores = new Float64Array(this.index.chunks.length);
    for (const [row, entry] of fused) scores[row] = entry.fused;
    return Promise.resolve(
      topRows(rows, scores, query.limit).map((row) =>
        this.#hit(row, scores[row]!, fused.get(row)!)
      ),
    );
  }

  close(): Promise<void> {
    return this.index.close?.() ?? Promise.resolve();
  }
}
