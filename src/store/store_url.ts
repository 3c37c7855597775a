/**
 * Which backend a store URL names, and opening it. A folder is the local
 * index; `postgres://…#corpus` a corpus in a PostgreSQL database;
 * `orama:FILE` an Orama database file. The PostgreSQL and Orama modules load
 * only when such a store is opened.
 */
import { basename } from "node:path";
import { WayfinderError } from "../error.ts";
import type { Chunk } from "../types.ts";
import type { Store } from "./store.ts";

/** A store URL, parsed. */
export type StoreUrl =
  | { kind: "local"; dir: string }
  | { kind: "postgres"; url: string; corpus?: string }
  | { kind: "orama"; file: string };

/**
 * Reads a store URL (already resolved by the config module, or given by a
 * library caller): `postgres://` or `postgresql://` with an optional
 * `#corpus` name, `orama:FILE`, else a folder.
 */
export function parseStoreUrl(url: string): StoreUrl {
  if (/^postgres(?:ql)?:\/\//i.test(url)) {
    const hash = url.indexOf("#");
    if (hash < 0) return { kind: "postgres", url };
    const corpus = decodeURIComponent(url.slice(hash + 1));
    return { kind: "postgres", url: url.slice(0, hash), ...(corpus ? { corpus } : {}) };
  }
  if (/^orama:/i.test(url)) {
    const file = url.slice("orama:".length);
    if (file === "") throw new WayfinderError("usage", "Cannot open store 'orama:': name a file");
    return { kind: "orama", file };
  }
  return { kind: "local", dir: url };
}

/** What opening a PostgreSQL or Orama store needs beyond its URL. */
export interface RemoteStoreOptions {
  /** The tree it indexes: its folder name is the PostgreSQL corpus when the URL names none. */
  root: string;
  /** Appended to the corpus name (PostgreSQL) or file name (Orama): a separate index beside the user's. */
  suffix?: string;
  /** The hash of the text the model read for a chunk, as the index run computes it. */
  inputHash: (chunk: Chunk) => string;
}

/** A PostgreSQL or Orama store, opened (connected, for PostgreSQL). */
export async function openRemoteStore(
  url: Exclude<StoreUrl, { kind: "local" }>,
  options: RemoteStoreOptions,
): Promise<Store> {
  const suffix = options.suffix ?? "";
  if (url.kind === "orama") {
    const { openOramaStore } = await import("./orama/mod.ts");
    const file = suffix ? url.file.replace(/(\.json)?$/, `${suffix}$1`) : url.file;
    return await openOramaStore(file, { inputHash: options.inputHash });
  }
  const { openPostgresStore } = await import("./postgres/mod.ts");
  const corpus = (url.corpus ?? basename(options.root)) + suffix;
  return await openPostgresStore(url.url, { corpus });
}
