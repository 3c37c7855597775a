/**
 * What a build takes when neither the caller nor the index's record chooses.
 * The one table of these defaults: the settings table, the corpus, the walk
 * and the chunkers all read it, so a default changes in one place.
 */
import type { Quantization } from "./types.ts";

export const BUILD_DEFAULTS: Readonly<{
  /** The embedding backend. */
  provider: "llama";
  /** A passage that cannot fit the model's token budget fails the build. */
  longInput: "reject";
  /** Globs of paths to index: none means everything. */
  include: readonly string[];
  /** Globs of paths to skip, besides the default excludes. */
  exclude: readonly string[];
  /** Larger files are skipped (1 MiB). */
  maxFileBytes: number;
  /**
   * Chunk budget in non-whitespace characters, for every chunker (chosen by measurement:
   * docs/code-search-benchmark.md, round four).
   */
  maxChunkChars: number;
  /** Vector codes kept besides the float vectors. */
  quantization: Quantization;
  /**
   * The static model's share of the cosine when one sits beside the GGUF (see
   * `JointEmbedder`; chosen by measurement: docs/code-search-benchmark.md, round eight).
   */
  staticShare: number;
}> = {
  provider: "llama",
  longInput: "reject",
  include: [],
  exclude: [],
  maxFileBytes: 1_048_576,
  maxChunkChars: 1000,
  quantization: "none",
  staticShare: 0.2,
};
