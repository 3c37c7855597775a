/**
 * Reading one generation of a PostgreSQL store: dense search through the
 * corpus's HNSW index (cosine), lexical search as BM25F computed in SQL
 * over the stored postings (the local index's formula and tokenizer), and
 * both fused by reciprocal rank, as `search_index.ts` fuses them.
 */
import { unitMean } from "../unit_mean.ts";
import { WayfinderError } from "../../error.ts";
import type { Chunk } from "../../types.ts";
import { tokenizeQuery } from "../code_tokenizer.ts";
import type { IndexManifest } from "../manifest.ts";
import type { StoreFilter, StoreHit, StoreQuery, StoreReader } from "../store.ts";
import { parseVector, storeError, vectorText } from "./connection.ts";
import type { Db, Queryable, Row } from "./db.ts";
import { BM25F } from "./postings.ts";
import { VECTOR_INDEXES, type VectorIndexType } from "./schema.ts";

/** What a reader knows of its generation, read when it was opened. */
export interface GenerationInfo {
  corpus: number;
  generation: number;
  manifest: IndexManifest;
  chunkCount: number;
  /** Average field lengths (content, symbol, path) over the generation's chunks. */
  averages: [number, number, number];
}

/** How a reader reaches the server. */
export interface ReaderContext {
  sql: Db;
  schema: string;
  location: string;
  /** HNSW candidate list size (`hnsw.ef_search`) for a query of `limit` hits. */
  efSearch: (limit: number) => number;
  /** pgvector ≥ 0.8: filtered HNSW scans go on until enough rows pass. */
  iterativeScan: boolean;
  /** The `hnsw.ef_search` (and iterative scan) every connection already has. */
  sessionEf: number;
  /** The kind of the corpus's HNSW index, whose expression dense queries order by. */
  vectorIndex: VectorIndexType;
}

/** A lease not renewed for this long is dropped by the next publish, and its generation may go. */
export const LEASE_EXPIRY = "7 days";
/** How often an active reader renews its lease, in milliseconds. */
const RENEW_EVERY = 10 * 60_000;

const COLUMNS = `c.row_id, c.id, c.path, c.line_start, c.line_end, c.start_offset, c.end_offset,
  c.type, c.language, c.symbol, c.parent, c.content, c.metadata`;

function chunkOf(row: Row): Chunk {
  const chunk: Chunk = {
    id: row.id as string,
    sourcePath: row.path as string,
    lineStart: row.line_start as number,
    lineEnd: row.line_end as number,
    startOffset: row.start_offset as number,
    endOffset: row.end_offset as number,
    type: row.type as string,
    language: row.language as string,
    content: row.content as string,
    metadata: row.metadata as Record<string, unknown>,
  };
  if (row.symbol !== null) chunk.symbol = row.symbol as string;
  if (row.parent !== null) chunk.parent = row.parent as string;
  return chunk;
}

/** Path prefixes as the local filter normalises them. */
function normalisePrefix(prefix: string): string {
  const path = prefix.replace(/\\/g, "/").replace(/^(?:\.\/)+/, "").replace(/\/+$/, "");
  return path === "." ? "" : path;
}

/** The filter's three lists as parameters: null keeps everything in that category. */
function filterParams(filter: StoreFilter | undefined): (string[] | null)[] {
  const list = (values?: string[]) => values?.length ? values : null;
  return [
    list(filter?.types),
    list(filter?.languages),
    list(filter?.pathPrefixes?.map(normalisePrefix)),
  ];
}

/** The conditions of `filterParams`, whose parameters start at `$n`. */
function filterSql(n: number): string {
  return `($${n}::text[] IS NULL OR c.type = ANY($${n}::text[]))
    AND ($${n + 1}::text[] IS NULL OR c.language = ANY($${n + 1}::text[]))
    AND ($${n + 2}::text[] IS NULL OR EXISTS (
      SELECT 1 FROM unnest($${n + 2}::text[]) AS p(prefix)
      WHERE p.prefix = '' OR c.path = p.prefix OR starts_with(c.path, p.prefix || '/')))`;
}

/** Rows of generation `$2` of corpus `$1`. */
const VISIBLE = "c.corpus = $1 AND c.gen_from <= $2 AND (c.gen_to IS NULL OR c.gen_to > $2)";

function checkLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new WayfinderError(
      "usage",
      `Cannot search: limit must be a positive integer, got ${limit}`,
    );
  }
}

/** The reader of one leased generation. */
export class PostgresReader implements StoreReader {
  readonly generation: string;
  readonly manifest: IndexManifest;
  readonly chunkCount: number;
  #info: GenerationInfo;
  #context: ReaderContext;
  #lease: string;
  #renewed = Date.now();
  #closed = false;

  constructor(info: GenerationInfo, context: ReaderContext, lease: string) {
    this.generation = String(info.generation);
    this.manifest = info.manifest;
    this.chunkCount = info.chunkCount;
    this.#info = info;
    this.#context = context;
    this.#lease = lease;
  }

  get #dims(): number {
    return this.manifest.dimensions;
  }

  /** Runs `work`, renewing the lease when due; any failure becomes a one-line `WayfinderError`. */
  async #run<T>(doing: string, work: () => Promise<T>): Promise<T> {
    if (this.#closed) throw new WayfinderError("internal", "Cannot read: the reader is closed");
    const { sql, schema, location } = this.#context;
    try {
      if (Date.now() - this.#renewed > RENEW_EVERY) {
        const renewed = await sql.unsafe(
          `UPDATE ${schema}.leases SET seen = now() WHERE id = $1 RETURNING id`,
          [this.#lease],
        );
        if (renewed.length === 0) {
          throw new WayfinderError(
            "stale_index",
            `Cannot ${doing}: generation ${this.generation} at ${location} was reclaimed while unused; open the store again`,
          );
        }
        this.#renewed = Date.now();
      }
      return await work();
    } catch (error) {
      throw storeError(error, doing, location);
    }
  }

  chunk(id: string): Promise<Chunk | null> {
    const { sql, schema } = this.#context;
    return this.#run("read a chunk", async () => {
      const [row] = await sql.unsafe(
        `SELECT ${COLUMNS} FROM ${schema}.chunks c WHERE ${VISIBLE} AND c.id = $3 LIMIT 1`,
        [this.#info.corpus, this.#info.generation, id],
      );
      return row ? chunkOf(row) : null;
    });
  }

  vectorsByInput(hashes: readonly string[]): Promise<Map<string, Float32Array>> {
    const { sql, schema } = this.#context;
    return this.#run(
      "read cached vectors",
      () => cachedVectors(sql, schema, this.manifest.fingerprint, this.#dims, hashes),
    );
  }

  /** The unit mean vector of each named file's embedded passages (pgvector's `avg`). */
  fileVectors(paths: readonly string[]): Promise<Map<string, Float32Array>> {
    const { sql, schema } = this.#context;
    const d = this.#dims;
    return this.#run("read file vectors", async () => {
      const rows = await sql.unsafe(
        `SELECT c.path, avg(c.embedding::vector(${d}))::text AS mean FROM ${schema}.chunks c
         WHERE ${VISIBLE} AND vector_dims(c.embedding) = ${d} AND c.path = ANY($3::text[])
         GROUP BY c.path`,
        [this.#info.corpus, this.#info.generation, [...paths]],
      );
      const means = new Map<string, Float32Array>();
      for (const row of rows) {
        const mean = unitMean([parseVector(row.mean as string)], d);
        if (mean) means.set(row.path as string, mean);
      }
      return means;
    });
  }

  dense(vector: Float32Array, query: StoreQuery): Promise<StoreHit[]> {
    checkLimit(query.limit);
    this.#checkVector(vector);
    return this.#run("search densely", async () => {
      const rows = await this.#denseRows(vector, query);
      return rows.map((row) => {
        const dense = row.dense as number;
        return { chunk: chunkOf(row), score: dense, scores: { dense } };
      });
    });
  }

  lexical(text: string, query: StoreQuery): Promise<StoreHit[]> {
    checkLimit(query.limit);
    return this.#run("search lexically", async () => {
      const rows = await this.#lexicalRows(text, query, null);
      return rows.map((row) => {
        const lexical = row.score as number;
        return { chunk: chunkOf(row), score: lexical, scores: { lexical } };
      });
    });
  }

  hybrid(
    text: string,
    vector: Float32Array,
    query: StoreQuery & { rrfK?: number },
  ): Promise<StoreHit[]> {
    checkLimit(query.limit);
    this.#checkVector(vector);
    const k = query.rrfK ?? 60;
    if (!(k >= 0)) throw new WayfinderError("usage", `Cannot search: rrfK must be ≥ 0, got ${k}`);
    return this.#run("search", async () => {
      const [dense, lexical] = await Promise.all([
        this.#denseRows(vector, query),
        this.#lexicalRows(text, query, vector),
      ]);
      return fuse(dense, lexical, k, query.limit);
    });
  }

  #checkVector(vector: Float32Array): void {
    if (vector.length !== this.#dims) {
      throw new WayfinderError(
        "stale_index",
        `Cannot search: the query vector has ${vector.length} dimensions, the index ${this.#dims}`,
      );
    }
  }

  /**
   * The nearest rows by cosine, through the corpus's HNSW index when the
   * planner takes it. A quantized index (halfvec, bit) yields `ef_search`
   * candidates by its own distance; their full vectors rank them.
   */
  #denseRows(vector: Float32Array, query: StoreQuery): Promise<Row[]> {
    const { sql, schema, efSearch, iterativeScan, sessionEf, vectorIndex } = this.#context;
    const d = this.#dims;
    const ef = efSearch(query.limit);
    const distance = `c.embedding::vector(${d}) <=> $3::vector(${d})`;
    const where = `WHERE ${VISIBLE} AND vector_dims(c.embedding) = ${d} AND ${filterSql(4)}`;
    let statement = `SELECT ${COLUMNS}, 1 - (${distance}) AS dense
      FROM ${schema}.chunks c ${where}
      ORDER BY ${distance}, c.row_id LIMIT $7`;
    if (vectorIndex !== "vector") {
      const { column, query: probe, operator } = VECTOR_INDEXES[vectorIndex];
      statement = `SELECT * FROM (
          SELECT ${COLUMNS}, ${distance} AS distance, 1 - (${distance}) AS dense
          FROM ${schema}.chunks c ${where}
          ORDER BY ${column(d)} ${operator} ${probe(d, "$3")} LIMIT ${ef}) near
        ORDER BY distance, row_id LIMIT $7`;
    }
    const params = [
      this.#info.corpus,
      this.#info.generation,
      vectorText(vector),
      ...filterParams(query.filter),
      query.limit,
    ];
    // One statement when the session's settings are the ones this query needs.
    if (ef === sessionEf) return sql.unsafe(statement, params);
    return sql.begin(async (tx) => {
      await tx.unsafe(
        iterativeScan
          ? "SELECT set_config('hnsw.ef_search', $1, true), set_config('hnsw.iterative_scan', 'strict_order', true)"
          : "SELECT set_config('hnsw.ef_search', $1, true)",
        [String(ef)],
      );
      return await tx.unsafe(statement, params);
    });
  }

  /**
   * BM25F over the generation (see `loadLexical`): per query token, its
   * document frequency among the generation's rows, and per row the
   * field-weighted, length-normalised count, saturated by k1. The filter
   * restricts the hits, not the statistics. With `vector`, each hit also
   * gets its cosine, for fusion's tie-break.
   */
  #lexicalRows(text: string, query: StoreQuery, vector: Float32Array | null): Promise<Row[]> {
    const terms = tokenizeQuery(text);
    if (terms.length === 0) return Promise.resolve([]);
    const { sql, schema } = this.#context;
    const [bc, bs, bp] = BM25F.b;
    const [wc, ws, wp] = BM25F.weights;
    const [ac, as, ap] = this.#info.averages.map((a) => a || 1);
    const d = this.#dims;
    const dense = `CASE WHEN $9::vector(${d}) IS NOT NULL AND vector_dims(c.embedding) = ${d}
      THEN 1 - (c.embedding::vector(${d}) <=> $9::vector(${d})) END`;
    const filtered = filterParams(query.filter).some((list) => list !== null);
    // Without a filter the top rows are cut before any chunk is read.
    const statement = `WITH hits AS (
        SELECT p.term, p.row_id,
          ${wc}::float8 * p.in_content / (${1 - bc} + ${bc} * p.len_content / $5::float8)
          + ${ws}::float8 * p.in_symbol / (${1 - bs} + ${bs} * p.len_symbol / $6::float8)
          + ${wp}::float8 * p.in_path / (${1 - bp} + ${bp} * p.len_path / $7::float8) AS tf
        FROM ${schema}.postings p
        WHERE p.corpus = $1 AND p.term = ANY($3::text[])
          AND p.gen_from <= $2 AND (p.gen_to IS NULL OR p.gen_to > $2)),
      df AS (SELECT term, count(*)::float8 AS df FROM hits GROUP BY term),
      scored AS (
        SELECT h.row_id, sum(ln(1 + ($4::float8 - df.df + 0.5) / (df.df + 0.5)) * h.tf / (${BM25F.k1} + h.tf)) AS score
        FROM hits h JOIN df USING (term) GROUP BY h.row_id
        ${filtered ? "" : "ORDER BY score DESC, row_id LIMIT $8"})
      SELECT ${COLUMNS}, s.score, ${dense} AS dense
      FROM scored s JOIN ${schema}.chunks c ON c.row_id = s.row_id
      WHERE ${filterSql(10)}
      ORDER BY s.score DESC, c.row_id LIMIT $8`;
    const params = [
      this.#info.corpus,
      this.#info.generation,
      terms,
      this.chunkCount,
      ac,
      as,
      ap,
      query.limit,
      vector ? vectorText(vector) : null,
      ...filterParams(query.filter),
    ];
    return sql.unsafe(statement, params);
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    const { sql, schema, location } = this.#context;
    this.#closed = true;
    return sql.unsafe(`DELETE FROM ${schema}.leases WHERE id = $1`, [this.#lease])
      .then(() => {}, (error) => {
        throw storeError(error, "release the generation", location);
      });
  }
}

/**
 * Reciprocal rank fusion as `search_index.ts` does it: 1 / (k + rank) summed
 * over the rankings holding a chunk, ties broken by cosine, then by row.
 */
function fuse(dense: Row[], lexical: Row[], k: number, limit: number): StoreHit[] {
  const byRow = new Map<string, { row: Row; fused: number; dense?: number; lexical?: number }>();
  dense.forEach((row, i) => {
    byRow.set(String(row.row_id), { row, fused: 1 / (k + i + 1), dense: row.dense as number });
  });
  lexical.forEach((row, i) => {
    const key = String(row.row_id);
    const entry = byRow.get(key) ??
      { row, fused: 0, dense: row.dense === null ? undefined : row.dense as number };
    entry.fused += 1 / (k + i + 1);
    entry.lexical = row.score as number;
    byRow.set(key, entry);
  });
  return [...byRow.values()]
    .sort((a, b) =>
      b.fused - a.fused || (b.dense ?? -Infinity) - (a.dense ?? -Infinity) ||
      Number(a.row.row_id) - Number(b.row.row_id)
    )
    .slice(0, limit)
    .map(({ row, fused, dense, lexical }) => ({
      chunk: chunkOf(row),
      score: fused,
      scores: { dense, lexical, fused },
    }));
}

/** Cached vectors of `fingerprint`'s model by input hash, those of `dimensions` only. */
export async function cachedVectors(
  sql: Queryable,
  schema: string,
  fingerprint: string,
  dimensions: number,
  hashes: readonly string[],
): Promise<Map<string, Float32Array>> {
  const found = new Map<string, Float32Array>();
  const BATCH = 5000;
  for (let i = 0; i < hashes.length; i += BATCH) {
    const rows = await sql.unsafe(
      `SELECT input_hash, embedding::text AS embedding FROM ${schema}.embedding_cache
       WHERE fingerprint = $1 AND input_hash = ANY($2::text[]) AND vector_dims(embedding) = $3`,
      [fingerprint, hashes.slice(i, i + BATCH) as string[], dimensions],
    );
    for (const row of rows) found.set(row.input_hash, parseVector(row.embedding));
  }
  return found;
}
