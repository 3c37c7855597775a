/**
 * The Orama backend: a corpus's index as one Orama database file that any
 * Orama program can load (`orama:PATH`), and the export of a local index to
 * one.
 * @module
 */
export { LEXICAL_SETTINGS, oramaPath, OramaStore } from "./orama_store.ts";
export { exportToOrama, type OramaExport } from "./export_orama.ts";
