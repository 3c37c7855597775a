/**
 * The Orama backend: a corpus's index as one Orama database file that any
 * Orama program can load (`orama:PATH`), and the export of a local index to
 * one. Orama and its persistence plugin load only when a store is opened:
 * a process that never touches one does not pay for them.
 * @module
 */
import type { StoredIndex } from "../mod.ts";
import type { OramaExport } from "./export_orama.ts";
import type { OramaStore, OramaStoreOptions } from "./orama_store.ts";

export type { OramaExport, OramaStore, OramaStoreOptions };

/**
 * The Orama store kept in a database file; nothing is read until it is used.
 * @param path The file, with or without an `orama:` prefix; it need not exist yet.
 */
export async function openOramaStore(
  path: string,
  options: OramaStoreOptions = {},
): Promise<OramaStore> {
  const { OramaStore } = await import("./orama_store.ts");
  return new OramaStore(path, options);
}

/**
 * Writes a local index's live generation as an Orama database file,
 * replacing it atomically (see `export_orama.ts`).
 */
export async function exportToOrama(
  index: StoredIndex,
  path: string,
  options: OramaStoreOptions = {},
): Promise<OramaExport> {
  const { exportToOrama } = await import("./export_orama.ts");
  return await exportToOrama(index, path, options);
}
