// Over 400 lines: one class, the Store contract on PostgreSQL, sharing its private state.
/**
 * A corpus's index in PostgreSQL with pgvector: generations published in
 * one transaction over rows they share, an advisory lock per corpus for
 * writers, leases for readers, and the team-wide embedding cache.
 */
import { WayfinderError } from "../../error.ts";
import type { Chunk, RowRange } from "../../types.ts";
import type { FileRecord, IndexManifest } from "../manifest.ts";
import type { FileChange, Publication, Store, StoreReader, StoreStatus } from "../store.ts";
import { redactUrl, storeError, vectorText } from "./connection.ts";
import { Db, type Queryable } from "./db.ts";
import { chunkTerms } from "./postings.ts";
import {
  cachedVectors,
  type GenerationInfo,
  LEASE_EXPIRY,
  PostgresReader,
} from "./postgres_reader.ts";
import {
  checkSchemaName,
  LOCK_CLASS,
  migrate,
  SCHEMA_VERSION,
  VECTOR_INDEXES,
  vectorIndexName,
  type VectorIndexType,
} from "./schema.ts";

/** How to open a PostgreSQL store. */
export interface PostgresStoreOptions {
  /** The corpus's name in the database: every machine that shares the index uses the same one. */
  corpus: string;
  /** The schema holding wayfinder's tables. @default "wayfinder" */
  schema?: string;
  /**
   * HNSW candidates a dense query examines (`hnsw.ef_search`), at least the
   * query's limit; more is slower and nearer exact. @default 100
   */
  efSearch?: number;
  /** Connections in the pool. @default 10 */
  connections?: number;
  /**
   * How the corpus's HNSW index is built, when its first generation is
   * published (or `rebuildVectorIndex` rebuilds it): links per node, the
   * candidate list while building, and what it holds: full-precision
   * `vector`s, `halfvec`s (half the size; pgvector ≥ 0.7) or `bit`s (one
   * a dimension). A quantized index finds `efSearch` candidates, which the
   * full vectors rank. Larger `m` and `efConstruction` are slower to build
   * and more exact. @default pgvector's 16 and 64, `vector`
   */
  hnsw?: { m?: number; efConstruction?: number; type?: VectorIndexType };
}

/**
 * A file change as the PostgreSQL store also takes it: with each chunk's
 * embedding-input hash, under which its vector joins the team-wide cache.
 */
export interface CachedFileChange extends FileChange {
  /** One per chunk: the hash of the text the model read (see `vectorsByInput`). */
  inputHashes?: readonly string[];
}

/** Rows written per statement. */
const BATCH = 1000;
/** Chunks a publish adds before the store vacuums and analyzes its tables. */
const TIDY_AFTER = 10_000;

/** Fails on text PostgreSQL cannot store (NUL), naming the file. */
function checkText(path: string, ...texts: (string | undefined)[]): void {
  if (texts.some((text) => text?.includes("\0"))) {
    throw new WayfinderError(
      "input",
      `Cannot store '${path}' in PostgreSQL: its text holds a NUL character`,
    );
  }
}

/** The manifest as the store records it: without files (rows of their own) and the derived counts. */
type StoredManifest = Omit<
  IndexManifest,
  "files" | "chunkCount" | "dimensions" | "checksums" | "formatVersion" | "pending"
>;

/**
 * One corpus's index in a PostgreSQL database with pgvector (≥ 0.5, for
 * HNSW). Open it with `openPostgresStore`.
 */
export class PostgresStore implements Store {
  readonly location: string;
  #sql: Db;
  #schema: string;
  #corpus: string;
  #efSearch: number;
  #hnsw: { m: number; efConstruction: number; type: VectorIndexType };
  #iterativeScan = false;

  private constructor(url: string, options: PostgresStoreOptions) {
    this.location = `${redactUrl(url)}#${options.corpus}`;
    this.#schema = options.schema ?? "wayfinder";
    this.#corpus = options.corpus;
    this.#efSearch = options.efSearch ?? 100;
    this.#hnsw = {
      m: options.hnsw?.m ?? 16,
      efConstruction: options.hnsw?.efConstruction ?? 64,
      type: options.hnsw?.type ?? "vector",
    };
    this.#sql = new Db(url, options.connections ?? 10);
  }

  /**
   * Connects, and creates or migrates the schema.
   * @throws {WayfinderError} `usage` on a bad schema name or corpus; `io` when the server cannot be reached or refuses.
   */
  static async open(url: string, options: PostgresStoreOptions): Promise<PostgresStore> {
    const schema = options.schema ?? "wayfinder";
    if (!checkSchemaName(schema)) {
      throw new WayfinderError(
        "usage",
        `Cannot use schema '${schema}': it must be a lowercase identifier`,
      );
    }
    const type = options.hnsw?.type ?? "vector";
    if (!Object.hasOwn(VECTOR_INDEXES, type)) {
      throw new WayfinderError(
        "usage",
        `Cannot build an HNSW index of '${type}': it must be vector, halfvec or bit`,
      );
    }
    if (options.corpus === "" || options.corpus.includes("\0")) {
      throw new WayfinderError("usage", "Cannot open a PostgreSQL store: the corpus name is empty");
    }
    const store = new PostgresStore(url, options);
    try {
      await migrate(store.#sql, schema);
      const [row] = await store.#sql.unsafe(
        "SELECT extversion FROM pg_extension WHERE extname = 'vector'",
      );
      const [major, minor] = String(row?.extversion ?? "0.0").split(".").map(Number);
      if (major! === 0 && minor! < 5) {
        throw new Error(`pgvector ${row?.extversion} has no HNSW index; 0.5 or later is needed`);
      }
      store.#iterativeScan = major! > 0 || minor! >= 8;
      if (type !== "vector" && major! === 0 && minor! < 7) {
        throw new Error(`pgvector ${row?.extversion} has no ${type} index; 0.7 or later is needed`);
      }
      // Every connection searches with these, so that most searches are a single statement.
      store.#sql.setSession({
        "hnsw.ef_search": String(store.#sessionEf),
        ...(store.#iterativeScan ? { "hnsw.iterative_scan": "strict_order" } : {}),
      });
    } catch (error) {
      await store.#sql.end().catch(() => {});
      throw storeError(error, "open the index", store.location);
    }
    return store;
  }

  /** The `hnsw.ef_search` of every connection's session: a query of more hits sets its own. */
  get #sessionEf(): number {
    return Math.min(1000, Math.max(this.#efSearch, 1));
  }

  get #tables(): string {
    return this.#schema;
  }

  async #corpusId(tx: Queryable, create: boolean): Promise<number | null> {
    const S = this.#tables;
    if (create) {
      await tx.unsafe(
        `INSERT INTO ${S}.corpora (name) VALUES ($1) ON CONFLICT (name) DO NOTHING`,
        [this.#corpus],
      );
    }
    const [row] = await tx.unsafe(`SELECT id FROM ${S}.corpora WHERE name = $1`, [this.#corpus]);
    return row ? row.id as number : null;
  }

  async #guard<T>(doing: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw storeError(error, doing, this.location);
    }
  }

  /** The live generation's manifest and statistics, read in one snapshot; null before the first publish. */
  async #live(tx: Queryable): Promise<GenerationInfo | null> {
    const S = this.#tables;
    const [row] = await tx.unsafe(
      `SELECT c.id, c.live, g.manifest, g.chunk_count, g.avg_content, g.avg_symbol, g.avg_path,
         g.pending
       FROM ${S}.corpora c JOIN ${S}.generations g ON g.corpus = c.id AND g.generation = c.live
       WHERE c.name = $1`,
      [this.#corpus],
    );
    if (!row) return null;
    return await this.#info(tx, row);
  }

  async #info(tx: Queryable, row: Record<string, unknown>): Promise<GenerationInfo> {
    const S = this.#tables;
    const corpus = row.id as number;
    const generation = Number(row.live);
    const files: Record<string, FileRecord> = {};
    const fileRows = await tx.unsafe(
      `SELECT path, record FROM ${S}.files
       WHERE corpus = $1 AND gen_from <= $2 AND (gen_to IS NULL OR gen_to > $2) ORDER BY path`,
      [corpus, generation],
    );
    for (const file of fileRows) files[file.path] = file.record;
    const stored = row.manifest as StoredManifest;
    const chunkCount = row.chunk_count as number;
    const pending = row.pending as RowRange[];
    const manifest: IndexManifest = {
      ...stored,
      formatVersion: SCHEMA_VERSION,
      dimensions: stored.identity.dimensions,
      chunkCount,
      files,
      checksums: {},
      ...(pending.length ? { pending } : {}),
    };
    return {
      corpus,
      generation,
      manifest,
      chunkCount,
      averages: [row.avg_content as number, row.avg_symbol as number, row.avg_path as number],
    };
  }

  /**
   * Rows of the generation being published (the live rows) without a
   * vector, as ranges of its rows in row order; read once, when published.
   */
  async #pending(tx: Queryable, corpus: number): Promise<RowRange[]> {
    const rows = await tx.unsafe(
      `SELECT min(r) AS start, max(r) + 1 AS end FROM (
         SELECT r, r - row_number() OVER (ORDER BY r) AS run FROM (
           SELECT row_number() OVER (ORDER BY row_id) - 1 AS r, embedding IS NULL AS pending
           FROM ${this.#tables}.chunks c WHERE corpus = $1 AND gen_to IS NULL) numbered
         WHERE pending) runs
       GROUP BY run ORDER BY start`,
      [corpus],
    );
    return rows.map((r) => [Number(r.start), Number(r.end)] as RowRange);
  }

  manifest(): Promise<IndexManifest | null> {
    return this.#guard(
      "read the index",
      async () =>
        (await this.#sql.begin((tx) => this.#live(tx), "REPEATABLE READ"))
          ?.manifest ?? null,
    );
  }

  open(): Promise<StoreReader | null> {
    const S = this.#tables;
    return this.#guard("open the index", async () => {
      // FOR SHARE waits out a publish in progress, so the lease is on the generation it made live.
      const [lease] = await this.#sql.unsafe(
        `INSERT INTO ${S}.leases (corpus, generation)
         SELECT id, live FROM ${S}.corpora WHERE name = $1 AND live IS NOT NULL FOR SHARE
         RETURNING id, corpus, generation`,
        [this.#corpus],
      );
      if (!lease) return null;
      const info = await this.#sql.begin(async (tx) => {
        const [row] = await tx.unsafe(
          `SELECT g.corpus AS id, g.generation AS live, g.manifest, g.chunk_count,
             g.avg_content, g.avg_symbol, g.avg_path, g.pending
           FROM ${S}.generations g WHERE g.corpus = $1 AND g.generation = $2`,
          [lease.corpus, lease.generation],
        );
        const [kind] = await tx.unsafe(`SELECT vector_index FROM ${S}.corpora WHERE id = $1`, [
          lease.corpus,
        ]);
        return { ...await this.#info(tx, row!), vectorIndex: kind?.vector_index ?? "vector" };
      }, "REPEATABLE READ").catch(async (error) => {
        // Not left behind to hold back reclamation for days.
        await this.#sql.unsafe(`DELETE FROM ${S}.leases WHERE id = $1`, [lease.id]).catch(() => {});
        throw error;
      });
      return new PostgresReader(info, {
        sql: this.#sql,
        schema: S,
        location: this.location,
        efSearch: (limit) => Math.min(1000, Math.max(this.#efSearch, limit)),
        iterativeScan: this.#iterativeScan,
        sessionEf: this.#sessionEf,
        vectorIndex: info.vectorIndex as VectorIndexType,
      }, String(lease.id));
    });
  }

  /**
   * Vectors any machine stored for these embedding inputs with the model of
   * `fingerprint`: what lets a first run against a shared database embed
   * nothing that anyone embedded before, before this corpus has a generation.
   */
  cachedVectors(
    fingerprint: string,
    dimensions: number,
    hashes: readonly string[],
  ): Promise<Map<string, Float32Array>> {
    return this.#guard(
      "read cached vectors",
      () => cachedVectors(this.#sql, this.#tables, fingerprint, dimensions, hashes),
    );
  }

  /**
   * Adds vectors to the team-wide cache under their embedding-input hashes
   * (those already there are kept), each batch committed at once: an index
   * run can call it as it embeds, so a run that dies keeps its work.
   */
  cacheVectors(fingerprint: string, vectors: Map<string, Float32Array>): Promise<void> {
    const entries = [...vectors];
    return this.#guard("cache vectors", async () => {
      for (let i = 0; i < entries.length; i += BATCH) {
        const batch = entries.slice(i, i + BATCH);
        await this.#sql.unsafe(
          `INSERT INTO ${this.#tables}.embedding_cache (fingerprint, input_hash, embedding)
           SELECT $1, h, v::vector FROM unnest($2::text[], $3::text[]) AS t(h, v)
           ON CONFLICT DO NOTHING`,
          [fingerprint, batch.map(([input]) => input), batch.map(([, v]) => vectorText(v))],
        );
      }
    });
  }

  async publish(publication: Publication): Promise<string> {
    const dims = publication.manifest.identity.dimensions;
    for (const change of publication.changed) {
      if (change.chunks.length !== change.vectors.length) {
        throw new WayfinderError(
          "internal",
          `Cannot publish '${change.path}': ${change.chunks.length} chunks but ${change.vectors.length} vectors`,
        );
      }
      for (const vector of change.vectors) {
        if (vector && vector.length !== dims) {
          throw new WayfinderError(
            "internal",
            `Cannot publish '${change.path}': a vector has ${vector.length} dimensions, the model ${dims}`,
          );
        }
      }
      checkText(change.path, change.path);
      for (const chunk of change.chunks) {
        checkText(
          change.path,
          chunk.content,
          chunk.symbol,
          chunk.parent,
          chunk.id,
          chunk.type,
          chunk.language,
          JSON.stringify(chunk.metadata),
        );
      }
    }
    const cache = new Map<string, Float32Array>();
    for (const change of publication.changed as readonly CachedFileChange[]) {
      change.vectors.forEach((vector, i) => {
        const input = change.inputHashes?.[i];
        if (vector && input) cache.set(input, vector);
      });
    }
    // Cached first, and committed on its own: a publish that fails still leaves them for the next run.
    await this.cacheVectors(publication.manifest.fingerprint, cache);
    const generation = await this.#guard(
      "publish the index",
      () => this.#sql.begin((tx) => this.#publishIn(tx, publication)),
    );
    const added = publication.changed.reduce((sum, change) => sum + change.chunks.length, 0);
    if (added >= TIDY_AFTER) await this.#tidy();
    return generation;
  }

  /**
   * After a large publish: fresh statistics for the planner, and the
   * visibility map set, so lexical search scans the postings' covering key
   * alone. Best effort: autovacuum gets there too, later.
   */
  async #tidy(): Promise<void> {
    for (const table of ["postings", "chunks"]) {
      await this.#sql.unsafe(`VACUUM (ANALYZE) ${this.#tables}.${table}`).catch(() => {});
    }
  }

  async #publishIn(tx: Queryable, publication: Publication): Promise<string> {
    const S = this.#tables;
    const corpus = (await this.#corpusId(tx, true))!;
    const [state] = await tx.unsafe(
      `SELECT next_generation, live, vector_index FROM ${S}.corpora WHERE id = $1 FOR UPDATE`,
      [corpus],
    );
    // The options choose the index's kind when it is first built; later publishes keep it.
    const kind: VectorIndexType = state!.vector_index ??
      (state!.live === null ? this.#hnsw.type : "vector");
    const generation = Number(state!.next_generation);
    const replaced = [
      ...new Set([...publication.removed, ...publication.changed.map((c) => c.path)]),
    ];
    if (publication.fresh || replaced.length) {
      // A chunk's postings close with it.
      const which = publication.fresh ? "" : "AND path = ANY($3::text[])";
      const params = publication.fresh ? [corpus, generation] : [corpus, generation, replaced];
      await tx.unsafe(
        `WITH closed AS (
           UPDATE ${S}.chunks SET gen_to = $2 WHERE corpus = $1 AND gen_to IS NULL ${which}
           RETURNING row_id)
         UPDATE ${S}.postings p SET gen_to = $2 FROM closed WHERE p.row_id = closed.row_id`,
        params,
      );
      await tx.unsafe(
        `UPDATE ${S}.files SET gen_to = $2 WHERE corpus = $1 AND gen_to IS NULL ${which}`,
        params,
      );
    }
    const changed = publication.changed as readonly CachedFileChange[];
    for (let i = 0; i < changed.length; i += BATCH) {
      const batch = changed.slice(i, i + BATCH);
      await tx.unsafe(
        `INSERT INTO ${S}.files (corpus, path, gen_from, record)
         SELECT $1, path, $2, record::jsonb FROM unnest($3::text[], $4::text[]) AS f(path, record)`,
        [corpus, generation, batch.map((c) => c.path), batch.map((c) => JSON.stringify(c.record))],
      );
    }
    await this.#insertChunks(tx, corpus, generation, changed);
    const [stats] = await tx.unsafe(
      `SELECT count(*)::int AS chunks, coalesce(avg(len_content), 0)::float8 AS content,
         coalesce(avg(len_symbol), 0)::float8 AS symbol, coalesce(avg(len_path), 0)::float8 AS path,
         count(*) FILTER (WHERE embedding IS NULL)::int AS pending
       FROM ${S}.chunks WHERE corpus = $1 AND gen_to IS NULL`,
      [corpus],
    );
    const pending = stats!.pending > 0 ? await this.#pending(tx, corpus) : [];
    const manifest: StoredManifest = {
      ...publication.manifest,
      createdAt: publication.manifest.createdAt ?? new Date().toISOString(),
    } as StoredManifest;
    delete (manifest as { pending?: unknown }).pending;
    await tx.unsafe(
      `INSERT INTO ${S}.generations
         (corpus, generation, manifest, chunk_count, avg_content, avg_symbol, avg_path, pending)
       VALUES ($1, $2, $3::text::jsonb, $4, $5, $6, $7, $8::text::jsonb)`,
      [
        corpus,
        generation,
        JSON.stringify(manifest),
        stats!.chunks,
        stats!.content,
        stats!.symbol,
        stats!.path,
        JSON.stringify(pending),
      ],
    );
    await this.#ensureHnsw(tx, corpus, publication.manifest.identity.dimensions, kind);
    await tx.unsafe(
      `UPDATE ${S}.corpora SET live = $2::bigint, next_generation = $2::bigint + 1,
         vector_index = $3 WHERE id = $1`,
      [corpus, generation, kind],
    );
    await this.#reclaim(tx, corpus, generation);
    return String(generation);
  }

  /** Inserts the chunks and their postings. */
  async #insertChunks(
    tx: Queryable,
    corpus: number,
    generation: number,
    changed: readonly CachedFileChange[],
  ): Promise<void> {
    const S = this.#tables;
    const all: { chunk: Chunk; vector: Float32Array | null; input: string | null }[] = [];
    for (const change of changed) {
      change.chunks.forEach((chunk, i) => {
        all.push({
          chunk,
          vector: change.vectors[i] ?? null,
          input: change.inputHashes?.[i] ?? null,
        });
      });
    }
    for (let start = 0; start < all.length; start += BATCH) {
      const batch = all.slice(start, start + BATCH);
      const ids = (await tx.unsafe(
        `SELECT nextval(pg_get_serial_sequence('${S}.chunks', 'row_id')) AS id
         FROM generate_series(1, $1)`,
        [batch.length],
      )).map((r) => String(r.id));
      const terms = batch.map(({ chunk }) => chunkTerms(chunk));
      const column = <T>(pick: (entry: typeof batch[number], i: number) => T) => batch.map(pick);
      await tx.unsafe(
        `INSERT INTO ${S}.chunks (row_id, corpus, gen_from, id, path, line_start, line_end,
           start_offset, end_offset, type, language, symbol, parent, content, metadata, input_hash,
           embedding, len_content, len_symbol, len_path)
         SELECT row_id, $1, $2, id, path, line_start, line_end, start_offset, end_offset, type,
           language, symbol, parent, content, metadata::jsonb, input_hash, embedding::vector,
           len_content, len_symbol, len_path
         FROM unnest($3::bigint[], $4::text[], $5::text[], $6::int[], $7::int[], $8::int[],
           $9::int[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[],
           $16::text[], $17::text[], $18::int[], $19::int[], $20::int[])
           AS t(row_id, id, path, line_start, line_end, start_offset, end_offset, type, language,
             symbol, parent, content, metadata, input_hash, embedding, len_content, len_symbol,
             len_path)`,
        [
          corpus,
          generation,
          ids,
          column(({ chunk }) => chunk.id),
          column(({ chunk }) => chunk.sourcePath),
          column(({ chunk }) => chunk.lineStart),
          column(({ chunk }) => chunk.lineEnd),
          column(({ chunk }) => chunk.startOffset),
          column(({ chunk }) => chunk.endOffset),
          column(({ chunk }) => chunk.type),
          column(({ chunk }) => chunk.language),
          column(({ chunk }) => chunk.symbol ?? null),
          column(({ chunk }) => chunk.parent ?? null),
          column(({ chunk }) => chunk.content),
          column(({ chunk }) => JSON.stringify(chunk.metadata ?? {})),
          column(({ input }) => input),
          column(({ vector }) => vector ? vectorText(vector) : null),
          column((_, i) => terms[i]!.lengths[0]),
          column((_, i) => terms[i]!.lengths[1]),
          column((_, i) => terms[i]!.lengths[2]),
        ],
      );
      const postings: (string | number)[][] = [[], [], [], [], [], [], [], []];
      terms.forEach(({ counts, lengths }, i) => {
        for (const [term, fields] of counts) {
          [term, ids[i]!, ...fields, ...lengths].forEach((value, c) => postings[c]!.push(value));
        }
      });
      await tx.unsafe(
        `INSERT INTO ${S}.postings (corpus, gen_from, term, row_id, in_content, in_symbol, in_path,
           len_content, len_symbol, len_path)
         SELECT $1, $2, * FROM unnest($3::text[], $4::bigint[], $5::int[], $6::int[], $7::int[],
           $8::int[], $9::int[], $10::int[])`,
        [corpus, generation, ...postings],
      );
    }
  }

  /**
   * The corpus's HNSW index over vectors of `dims` dimensions (cosine), made
   * once, after its first rows are in: building over loaded rows is faster
   * than growing it row by row. Names and numbers here are integers.
   */
  async #ensureHnsw(
    tx: Queryable,
    corpus: number,
    dims: number,
    type: VectorIndexType,
    name = vectorIndexName(corpus, dims, type),
  ): Promise<void> {
    if (!Number.isInteger(dims) || dims < 1 || dims > 16000) {
      throw new WayfinderError("internal", `Cannot index vectors of ${dims} dimensions`);
    }
    const { m, efConstruction } = this.#hnsw;
    if (![m, efConstruction].every((n) => Number.isInteger(n) && n >= 2 && n <= 1000)) {
      throw new WayfinderError(
        "usage",
        `Cannot build the HNSW index with m ${m}, efConstruction ${efConstruction}`,
      );
    }
    const S = this.#tables;
    const { column, ops } = VECTOR_INDEXES[type];
    await tx.unsafe(
      `CREATE INDEX IF NOT EXISTS ${name} ON ${S}.chunks
       USING hnsw ((${column(dims)}) ${ops})
       WITH (m = ${m}, ef_construction = ${efConstruction})
       WHERE corpus = ${corpus} AND vector_dims(embedding) = ${dims}`,
    );
  }

  /**
   * Builds the corpus's HNSW index again as this store's `hnsw` options
   * say (kind, `m`, `efConstruction`), over the live generation's vectors,
   * and drops the one it replaces; readers opened afterwards use it. One
   * transaction: searches go on with the old index while the new one is
   * built (publishes of any corpus wait), and stop only for the swap.
   * @throws {WayfinderError} `busy` while a writer holds the corpus's lock.
   */
  rebuildVectorIndex(): Promise<void> {
    const S = this.#tables;
    return this.#guard("rebuild the vector index", async () => {
      await this.#sql.begin(async (tx) => {
        const info = await this.#live(tx);
        if (!info) return;
        const [lock] = await tx.unsafe("SELECT pg_try_advisory_xact_lock($1, $2) AS taken", [
          LOCK_CLASS,
          info.corpus,
        ]);
        if (!lock!.taken) {
          throw new WayfinderError(
            "busy",
            `Cannot rebuild: another run is updating ${this.location}`,
          );
        }
        const dims = info.manifest.dimensions;
        const { type } = this.#hnsw;
        const name = vectorIndexName(info.corpus, dims, type);
        await this.#ensureHnsw(tx, info.corpus, dims, type, `${name}_next`);
        const old = await tx.unsafe(
          `SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename = 'chunks'
             AND indexname ~ $2`,
          [S, `^chunks_hnsw_${info.corpus}_${dims}(_[a-z]+)?$`],
        );
        for (const { indexname } of old) await tx.unsafe(`DROP INDEX ${S}.${indexname}`);
        await tx.unsafe(`ALTER INDEX ${S}.${name}_next RENAME TO ${name}`);
        await tx.unsafe(`UPDATE ${S}.corpora SET vector_index = $2 WHERE id = $1`, [
          info.corpus,
          type,
        ]);
      });
    });
  }

  /**
   * Deletes what no generation still needed sees: the live one, and those
   * readers lease (a lease not renewed for `LEASE_EXPIRY` is dropped first).
   */
  async #reclaim(tx: Queryable, corpus: number, live: number): Promise<void> {
    const S = this.#tables;
    await tx.unsafe(
      `DELETE FROM ${S}.leases WHERE corpus = $1 AND seen < now() - interval '${LEASE_EXPIRY}'`,
      [corpus],
    );
    const [row] = await tx.unsafe(
      `SELECT least($2::bigint, min(generation)) AS oldest FROM ${S}.leases WHERE corpus = $1`,
      [corpus, live],
    );
    const oldest = Number(row!.oldest);
    await tx.unsafe(
      `DELETE FROM ${S}.generations WHERE corpus = $1 AND generation < $2`,
      [corpus, oldest],
    );
    await tx.unsafe(
      `WITH gone AS (
         DELETE FROM ${S}.chunks WHERE corpus = $1 AND gen_to IS NOT NULL AND gen_to <= $2
         RETURNING row_id)
       DELETE FROM ${S}.postings p USING gone WHERE p.row_id = gone.row_id`,
      [corpus, oldest],
    );
    await tx.unsafe(
      `DELETE FROM ${S}.files WHERE corpus = $1 AND gen_to IS NOT NULL AND gen_to <= $2`,
      [corpus, oldest],
    );
  }

  lock(): Promise<{ release(): Promise<void> }> {
    return this.#guard("lock the index", async () => {
      const corpus = (await this.#corpusId(this.#sql, true))!;
      // A session lock lives on one connection, reserved until release; a lost session frees it.
      const session = await this.#sql.reserve();
      try {
        const [row] = await session.unsafe(
          "SELECT pg_try_advisory_lock($1, $2) AS taken",
          [LOCK_CLASS, corpus],
        );
        if (!row!.taken) {
          throw new WayfinderError(
            "busy",
            `Cannot index: another run is updating ${this.location}`,
          );
        }
      } catch (error) {
        session.release();
        throw error;
      }
      let released = false;
      return {
        release: async () => {
          if (released) return;
          released = true;
          try {
            await session.unsafe("SELECT pg_advisory_unlock($1, $2)", [LOCK_CLASS, corpus]);
          } catch {
            // The session is gone, and its lock with it.
          } finally {
            session.release();
          }
        },
      };
    });
  }

  status(): Promise<StoreStatus> {
    return this.#guard("read the index status", async () => {
      const info = await this.#sql.begin((tx) => this.#live(tx), "REPEATABLE READ");
      if (!info) return { generation: null, chunkCount: 0, pending: [] };
      const [size] = await this.#sql.unsafe(
        `SELECT coalesce(sum(pg_column_size(c.*)), 0)::float8 AS bytes FROM ${this.#tables}.chunks c
         WHERE corpus = $1`,
        [info.corpus],
      );
      return {
        generation: String(info.generation),
        chunkCount: info.chunkCount,
        pending: info.manifest.pending ?? [],
        bytes: Number(size!.bytes),
      };
    });
  }

  async close(): Promise<void> {
    await this.#sql.end().catch(() => {});
  }
}

/**
 * Opens the index of `options.corpus` in the PostgreSQL database at `url`
 * (`postgres://user:password@host:port/db?sslmode=require`; what the URL
 * leaves out comes from the libpq variables PGHOST, PGUSER, PGPASSWORD, …),
 * creating or migrating wayfinder's schema there.
 */
export function openPostgresStore(
  url: string,
  options: PostgresStoreOptions,
): Promise<PostgresStore> {
  return PostgresStore.open(url, options);
}
