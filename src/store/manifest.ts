import type { ModelIdentity } from "../embed/mod.ts";
import { type RebuildCommand, WayfinderError } from "../error.ts";
import type { Quantization, RowRange } from "../types.ts";

/**
 * Version of the on-disk layout; bumped on any incompatible change.
 * 2: `chunks.json` became `chunks.bin` (compact metadata) and `text.bin`
 * (passages, read per hit); checksums became xxh64, verified on every open.
 * 3: a generation is a manifest listing immutable segments (`seg-*`) and
 * their deleted rows; the data files live in the segments.
 * 4: the per-file records left the manifest for `files.jsonl` beside it
 * (one sorted line per file, checksummed with the data files), so a search
 * opens an index without parsing a record per file of the tree.
 */
export const FORMAT_VERSION = 4;

/** One immutable segment a generation reads, in row order. */
export interface SegmentRecord {
  /** Directory name, `seg-<ms>-<hex>`, beside the generations. */
  name: string;
  /** Rows the segment holds, deleted ones included. */
  rows: number;
  /** Segment rows this generation no longer holds, as `[start, end)` ranges. */
  deleted?: RowRange[];
  /** Segment rows not embedded yet (zeros on disk), as `[start, end)` ranges. */
  pending?: RowRange[];
}

/** What the index knows about one source file, for incremental updates. */
export interface FileRecord {
  /** Content hash chosen by the caller. */
  hash: string;
  bytes: number;
  /** Modification time (ms) when hashed: a file of the same size and time is not read again. */
  mtime?: number;
  /** Ids of the file's chunks, in order. */
  chunkIds: string[];
}

/**
 * The settings that define an index, recorded when it is built so that
 * `search` and the next `index` run use them without repeating the flags.
 */
export interface RecordedSettings {
  embedder: {
    provider: string;
    /** The model path or remote name, when one was chosen explicitly. */
    model?: string;
    /** An HTTP embedder's base URL. */
    url?: string;
    /** The static model's share of a joint vector (see `JointEmbedder`), when it was not the default. */
    staticShare?: number;
  };
  longInput: "reject" | "truncate";
  include: string[];
  exclude: string[];
  maxFileBytes: number;
  maxChunkChars: number;
  /** An OKF bundle indexed as knowledge. */
  knowledge?: boolean;
  /** Knowledge indexing turned off by choice, kept though the folder declares a bundle. */
  knowledgeOff?: true;
  /** The compact vector codes kept for a fast first pass of dense search. */
  quantization?: Quantization;
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
  inputFormat?: number | string;
  /** The settings the index was built with; absent in indexes built before they were recorded. */
  settings?: RecordedSettings;
  /**
   * Each file's record, by root-relative path. The local index keeps them in
   * the generation's `files.jsonl` and reads them when first asked for (one
   * path looked up, or all of them listed), not when it opens.
   */
  files: Record<string, FileRecord>;
  /** The vector codes this generation holds besides the float vectors; absent is "none". */
  quantization?: Quantization;
  /**
   * Rows whose passages are searchable but not embedded yet, as `[start, end)`
   * ranges: a generation published while its run was still embedding. Their
   * vectors are zeros and dense search skips them. Absent when every row has
   * its vector.
   */
  pending?: RowRange[];
  /** The segments holding the rows, in row order: live rows of the first, then the next. */
  segments: SegmentRecord[];
  /** xxh64 (16 hex digits) of each data file, by path under the index directory (`seg-…/vectors.f32`). */
  checksums: Record<string, string>;
}

/** The manifest fields the caller supplies; the store fills in the rest. */
export type IndexManifestInput =
  & Omit<
    IndexManifest,
    "formatVersion" | "createdAt" | "dimensions" | "chunkCount" | "checksums" | "segments"
  >
  & { createdAt?: string };

/** The identity fields that differ between the model an index was built with and another. */
export function identityChanges(
  built: ModelIdentity,
  current: ModelIdentity,
): (keyof ModelIdentity)[] {
  return (Object.keys(current) as (keyof ModelIdentity)[])
    .filter((key) => JSON.stringify(built[key]) !== JSON.stringify(current[key]));
}

/**
 * Refuses an index built with another model or preprocessing contract: its
 * vectors would not be comparable with the current model's.
 *
 * @param manifest The stored index's manifest.
 * @param current The identity of the model this run uses.
 * @param fingerprint Fingerprint of `current`.
 * @param root The corpus root, for the message.
 * @param command The rebuild command the error's fix names, with the flags the rebuild needs.
 * @throws {WayfinderError} `stale_index` when the fingerprints differ, naming what differs.
 */
export function assertSameModel(
  manifest: IndexManifest,
  current: ModelIdentity,
  fingerprint: string,
  root: string,
  command?: RebuildCommand,
): void {
  if (manifest.fingerprint === fingerprint) return;
  const built = manifest.identity;
  const differs = identityChanges(built, current).map((key) =>
    key === "sha256"
      ? "weights"
      : `${key} ${JSON.stringify(built[key])} → ${JSON.stringify(current[key])}`
  );
  throw new WayfinderError(
    "stale_index",
    built.name === current.name
      ? `Cannot use index for ${root}: model '${built.name}' was set up another way when it was built ` +
        `(${differs.join(", ") || "another identity"})`
      : `Cannot use index for ${root}: it was built with model '${built.name}', this run uses '${current.name}' ` +
        `(${differs.join(", ")})`,
    { fix: { kind: "rebuild", root, command } },
  );
}
