/**
 * The tables a PostgreSQL store keeps, in a schema of their own
 * (`wayfinder` unless told otherwise), and their migration: a version table
 * says which steps ran; each missing step runs in one transaction under a
 * transaction-scoped advisory lock, so concurrent first runs do not race.
 *
 * Generations share rows: a chunk or file row is live from generation
 * `gen_from` until, not including, `gen_to` (null: still live). A publish
 * closes the rows of the files it replaces or removes and adds new ones.
 */
import type { Db } from "./db.ts";

/** The schema version this code reads and writes. */
export const SCHEMA_VERSION = 2;

/** Advisory-lock class of wayfinder's locks ("wayf"); the second key is a corpus id, or 0 for migrations. */
export const LOCK_CLASS = 0x77617966;

/** Migration steps: step i brings the schema from version i to i + 1. `$S` is the schema's name. */
const STEPS: string[][] = [[
  `CREATE TABLE $S.corpora (
     id serial PRIMARY KEY,
     name text NOT NULL UNIQUE,
     live bigint,
     next_generation bigint NOT NULL DEFAULT 1)`,
  `CREATE TABLE $S.generations (
     corpus int NOT NULL REFERENCES $S.corpora ON DELETE CASCADE,
     generation bigint NOT NULL,
     manifest jsonb NOT NULL,
     chunk_count int NOT NULL,
     avg_content float8 NOT NULL,
     avg_symbol float8 NOT NULL,
     avg_path float8 NOT NULL,
     pending jsonb NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (corpus, generation))`,
  `CREATE TABLE $S.files (
     corpus int NOT NULL,
     path text NOT NULL,
     gen_from bigint NOT NULL,
     gen_to bigint,
     record jsonb NOT NULL)`,
  `CREATE INDEX ON $S.files (corpus, path) WHERE gen_to IS NULL`,
  `CREATE INDEX ON $S.files (corpus, gen_to)`,
  `CREATE TABLE $S.chunks (
     row_id bigserial PRIMARY KEY,
     corpus int NOT NULL,
     gen_from bigint NOT NULL,
     gen_to bigint,
     id text NOT NULL,
     path text NOT NULL,
     line_start int NOT NULL,
     line_end int NOT NULL,
     start_offset int NOT NULL,
     end_offset int NOT NULL,
     type text NOT NULL,
     language text NOT NULL,
     symbol text,
     parent text,
     content text NOT NULL,
     metadata jsonb NOT NULL,
     input_hash text,
     embedding vector,
     len_content int NOT NULL,
     len_symbol int NOT NULL,
     len_path int NOT NULL)`,
  `CREATE INDEX ON $S.chunks (corpus, id)`,
  `CREATE INDEX ON $S.chunks (corpus, path) WHERE gen_to IS NULL`,
  `CREATE INDEX ON $S.chunks (corpus, gen_to)`,
  // One row per (term, chunk): how often the term occurs in each field, with the
  // chunk's generations and field lengths, so BM25F reads no chunk but its hits,
  // and (a covering key) once vacuumed, not even the table.
  `CREATE TABLE $S.postings (
     corpus int NOT NULL,
     term text NOT NULL,
     row_id bigint NOT NULL,
     gen_from bigint NOT NULL,
     gen_to bigint,
     in_content int NOT NULL,
     in_symbol int NOT NULL,
     in_path int NOT NULL,
     len_content int NOT NULL,
     len_symbol int NOT NULL,
     len_path int NOT NULL,
     PRIMARY KEY (corpus, term, row_id)
       INCLUDE (gen_from, gen_to, in_content, in_symbol, in_path, len_content, len_symbol, len_path))`,
  `CREATE INDEX ON $S.postings (row_id)`,
  // The team-wide cache: what a model made of an input, whoever embedded it.
  `CREATE TABLE $S.embedding_cache (
     fingerprint text NOT NULL,
     input_hash text NOT NULL,
     embedding vector NOT NULL,
     PRIMARY KEY (fingerprint, input_hash))`,
  // Readers' leases on a generation: a publish does not reclaim rows a leased generation sees.
  `CREATE TABLE $S.leases (
     id bigserial PRIMARY KEY,
     corpus int NOT NULL,
     generation bigint NOT NULL,
     seen timestamptz NOT NULL DEFAULT now())`,
], [
  // 2: which kind of HNSW index a corpus has (see `VECTOR_INDEXES`); null, as for a corpus made
  // at version 1, is the full-precision `vector` index.
  `ALTER TABLE $S.corpora ADD COLUMN vector_index text`,
]];

/**
 * The kinds of HNSW index a corpus's vectors can have, each over an
 * expression of the stored full-precision `vector` column. `halfvec` and
 * `bit` are quantized: the index finds candidates, the full vectors rank them.
 */
export const VECTOR_INDEXES = {
  /** Full precision (4 bytes a dimension), cosine. */
  vector: {
    column: (d: number) => `embedding::vector(${d})`,
    query: (d: number, p: string) => `${p}::vector(${d})`,
    ops: "vector_cosine_ops",
    operator: "<=>",
  },
  /** Half precision (2 bytes a dimension), cosine: half the index, half the memory traffic. pgvector ≥ 0.7. */
  halfvec: {
    column: (d: number) => `embedding::halfvec(${d})`,
    query: (d: number, p: string) => `${p}::halfvec(${d})`,
    ops: "halfvec_cosine_ops",
    operator: "<=>",
  },
  /** One bit a dimension (its sign), Hamming distance. pgvector ≥ 0.7. */
  bit: {
    column: (d: number) => `binary_quantize(embedding::vector(${d}))::bit(${d})`,
    query: (d: number, p: string) => `binary_quantize(${p}::vector(${d}))::bit(${d})`,
    ops: "bit_hamming_ops",
    operator: "<~>",
  },
} as const;

/** A kind of HNSW index: `vector`, `halfvec` or `bit`. */
export type VectorIndexType = keyof typeof VECTOR_INDEXES;

/** The name of corpus `corpus`'s index of `dims`-dimensional vectors of kind `type`. */
export function vectorIndexName(corpus: number, dims: number, type: VectorIndexType): string {
  return type === "vector"
    ? `chunks_hnsw_${corpus}_${dims}`
    : `chunks_hnsw_${corpus}_${dims}_${type}`;
}

/** A schema name is written into statements, so only a plain lowercase identifier is accepted. */
export function checkSchemaName(name: string): boolean {
  return /^[a-z_][a-z0-9_]{0,62}$/.test(name);
}

/**
 * Creates pgvector (when the role may), the schema and its tables, or
 * brings an older schema up to `SCHEMA_VERSION`.
 * @returns The schema version found before, 0 for none.
 * @throws {Error} When the schema is newer than this code.
 */
export async function migrate(sql: Db, schema: string): Promise<number> {
  // Up to date already: no DDL, no lock, so a role that may only read and search opens it too.
  const [present] = await sql.unsafe("SELECT to_regclass($1) IS NOT NULL AS present", [
    `${schema}.schema_version`,
  ]);
  if (present?.present) {
    const [row] = await sql.unsafe(`SELECT max(version) AS version FROM ${schema}.schema_version`);
    if (Number(row?.version) === SCHEMA_VERSION) return SCHEMA_VERSION;
  }
  return await sql.begin(async (tx) => {
    await tx.unsafe("SELECT pg_advisory_xact_lock($1, 0)", [LOCK_CLASS]);
    const [vector] = await tx.unsafe("SELECT 1 FROM pg_extension WHERE extname = 'vector'");
    if (!vector) await tx.unsafe("CREATE EXTENSION IF NOT EXISTS vector");
    await tx.unsafe(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await tx.unsafe(`CREATE TABLE IF NOT EXISTS ${schema}.schema_version (version int NOT NULL)`);
    const [row] = await tx.unsafe(`SELECT max(version) AS version FROM ${schema}.schema_version`);
    const found = Number(row?.version ?? 0);
    if (found > SCHEMA_VERSION) {
      throw new Error(
        `its schema '${schema}' is version ${found}, newer than this wayfinder's ${SCHEMA_VERSION}`,
      );
    }
    for (let step = found; step < SCHEMA_VERSION; step++) {
      for (const statement of STEPS[step]!) await tx.unsafe(statement.replaceAll("$S", schema));
      await tx.unsafe(`INSERT INTO ${schema}.schema_version (version) VALUES ($1)`, [step + 1]);
    }
    return found;
  });
}
