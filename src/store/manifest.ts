import type { ModelIdentity } from "../embed/embedder.ts";
import { WayfinderError } from "../error.ts";

/** Version of the on-disk layout; bumped on any incompatible change. */
export const FORMAT_VERSION = 1;

/** What the index knows about one source file, for incremental updates. */
export interface FileRecord {
  /** Content hash chosen by the caller. */
  hash: string;
  bytes: number;
  /** Ids of the file's chunks, in order. */
  chunkIds: string[];
}

/** `manifest.json` of one generation. */
export interface IndexManifest {
  formatVersion: number;
  /** Real path of the corpus root. */
  root: string;
  /** ISO time the generation was written. */
  createdAt: string;
  identity: ModelIdentity;
  /** Fingerprint of `identity`; indexes are compatible only when equal. */
  fingerprint: string;
  dimensions: number;
  chunkCount: number;
  /** Version of the chunker that produced the chunks, when the caller records it. */
  chunkerVersion?: number;
  /** Version of the text built from a chunk before embedding, when the caller records it. */
  inputFormat?: number;
  files: Record<string, FileRecord>;
  /** sha256 hex of each data file in the generation, by file name. */
  checksums: Record<string, string>;
}

/** The manifest fields the caller supplies; the store fills in the rest. */
export type IndexManifestInput =
  & Omit<IndexManifest, "formatVersion" | "createdAt" | "dimensions" | "chunkCount" | "checksums">
  & { createdAt?: string };

/**
 * Refuses an index built with another model: its vectors would not be
 * comparable with the current model's.
 *
 * @param manifest The stored index's manifest.
 * @param fingerprint Fingerprint of the current model's identity.
 * @param root The corpus root, for the message.
 * @param currentModel Name of the current model, for the message.
 * @throws {WayfinderError} `stale_index` when the fingerprints differ.
 */
export function assertSameModel(
  manifest: IndexManifest,
  fingerprint: string,
  root: string,
  currentModel?: string,
): void {
  if (manifest.fingerprint === fingerprint) return;
  const built = `'${manifest.identity.name}' (${manifest.fingerprint.slice(0, 12)})`;
  const current = currentModel === undefined
    ? `(${fingerprint.slice(0, 12)})`
    : `'${currentModel}' (${fingerprint.slice(0, 12)})`;
  throw new WayfinderError(
    "stale_index",
    `Cannot use index for ${root}: it was built with model ${built}, the current model is ${current}; run 'wayfinder index ${root} --rebuild'`,
  );
}
