/**
 * The PostgreSQL + pgvector backend of the `Store` interface: one database
 * holds the indexes of many corpora and one embedding cache for the team.
 * See docs/postgres.md.
 *
 * @module
 */
export {
  type CachedFileChange,
  openPostgresStore,
  PostgresStore,
  type PostgresStoreOptions,
} from "./postgres_store.ts";
export { redactUrl } from "./connection.ts";
export { SCHEMA_VERSION } from "./schema.ts";
