/**
 * Merging segments. Each edit adds a small segment and leaves deleted rows
 * behind; merging rewrites some segments' live rows into one new segment
 * and publishes a generation listing it instead, without deletions. Like
 * any publish it is one switch of `current`: a crash or kill during the
 * merge leaves the generation before it live, and the half-written segment
 * is collected by the next publish.
 */
import type { Chunk } from "../types.ts";
import { inRanges } from "../row_ranges.ts";
import type { IndexManifest, IndexManifestInput, SegmentRecord } from "./manifest.ts";
import { currentGeneration, openIndex, readManifest, type StoredIndex } from "./open_index.ts";
import type { SegmentView } from "./read_segments.ts";
import { reclaim } from "./reclaim.ts";
import { liveRows, published, publishGeneration, writeSegment } from "./write_generation.ts";

/** When to merge. */
export interface MergePolicy {
  /** Merge everything once deleted rows pass this share of all stored rows. */
  deletedShare: number;
  /** Merge the small segments once a generation lists more than this many. */
  maxSegments: number;
}

export const MERGE_POLICY: MergePolicy = { deletedShare: 0.25, maxSegments: 8 };

/**
 * The segments to merge, in order, or [] for none: all of them when deleted
 * rows pass the policy's share; else, past the segment count, every segment
 * but the leading ones that each hold at least a quarter of the live rows
 * (so ten one-file edits are merged together, not into the whole index).
 */
export function segmentsToMerge(
  segments: readonly SegmentRecord[],
  policy: MergePolicy = MERGE_POLICY,
): number[] {
  const stored = segments.reduce((sum, segment) => sum + segment.rows, 0);
  const live = segments.reduce((sum, segment) => sum + liveRows(segment), 0);
  const all = segments.map((_, s) => s);
  if (stored > 0 && (stored - live) / stored > policy.deletedShare && segments.length > 0) {
    return all;
  }
  if (segments.length <= policy.maxSegments) return [];
  let first = 0;
  while (first < segments.length && liveRows(segments[first]!) * 4 >= live) first++;
  const chosen = all.slice(first);
  return chosen.length > 1 ? chosen : all;
}

/** The live rows of `views`, in order: each chunk and its vector, null while pending. */
function* liveRowsOf(
  index: StoredIndex,
  views: SegmentView[],
): Generator<[Chunk, Float32Array | null]> {
  const d = index.dimensions;
  for (const view of views) {
    const count = liveRows(view.record);
    for (let row = view.start; row < view.start + count; row++) {
      const vector = inRanges(index.pending, row)
        ? null
        : index.vectors.subarray(row * d, (row + 1) * d);
      yield [index.chunks[row]!, vector];
    }
  }
}

/** The manifest fields a merge carries over unchanged. */
function carried(manifest: IndexManifest): IndexManifestInput {
  const {
    formatVersion: _v,
    createdAt: _c,
    dimensions: _d,
    chunkCount: _n,
    checksums: _s,
    segments: _g,
    pending: _p,
    ...rest
  } = manifest;
  return rest;
}

/** Options of `mergeSegments`. */
export interface MergeOptions {
  root?: string;
  policy?: MergePolicy;
  /** Merge every segment into one, whatever the policy says. */
  all?: boolean;
}

/**
 * Merges the live generation's segments when the policy asks for it. The
 * caller holds the index lock.
 * @returns The merged generation's name, or null when nothing was merged.
 */
export async function mergeSegments(
  indexDir: string,
  options: MergeOptions = {},
): Promise<string | null> {
  // Decided on the segment list alone: most publishes merge nothing and should not pay an
  // open, nor a read of the manifest this process just wrote.
  const mine = published.get(indexDir);
  const live = mine && mine.name === await currentGeneration(indexDir)
    ? mine
    : await readManifest(indexDir, options.root).catch(() => null);
  if (
    !live?.segments ||
    (options.all
      ? live.segments.length < 2 && !live.segments[0]?.deleted
      : segmentsToMerge(live.segments, options.policy).length === 0)
  ) {
    return null;
  }
  const index = await openIndex(indexDir, { root: options.root });
  if (!index?.segments) {
    await index?.close?.();
    return null;
  }
  try {
    const records = index.manifest.segments;
    const chosen = options.all
      ? (records.length > 1 || records.some((r) => r.deleted?.length)
        ? records.map((_, s) => s)
        : [])
      : segmentsToMerge(records, options.policy);
    if (chosen.length === 0) return null;
    const picked = new Set(chosen);
    const views: SegmentView[] = chosen.map((s) => index.segments![s]!);
    const { manifest } = index;
    const written = await writeSegment(
      indexDir,
      liveRowsOf(index, views),
      manifest.dimensions,
      manifest.quantization ?? "none",
    );
    const segments = [...records.filter((_, s) => !picked.has(s)), written.record];
    return await publishGeneration(indexDir, carried(manifest), segments, {
      ...manifest.checksums,
      ...written.checksums,
    });
  } finally {
    await index.close?.();
    await reclaim(indexDir);
  }
}
