/**
 * Publishing before the last passage is embedded. Walking, chunking and the
 * full-text index take seconds; embedding a large tree on a laptop CPU takes
 * many minutes. So a run with much to embed publishes a generation first in
 * which every passage is searchable lexically and rows still to embed carry
 * zero vectors, listed as `pending` (dense search skips them), then publishes
 * again as embedding goes on. Each is an ordinary generation, switched in
 * atomically: a run killed midway leaves the last one live, and the next run
 * embeds only what it still lacks.
 */
import { rowRanges, rowsIn } from "../row_ranges.ts";
import type { RowRange } from "../types.ts";

/** When a run publishes generations before every passage has its vector. */
export interface PartialPublishing {
  /** Publish a first generation before embedding when at least this many inputs need it. */
  minInputs: number;
  /** Then publish again at most this often, and never more often than 10× a publish's own time. */
  everyMs: number;
}

/** Defaults: about half a minute of embedding on one llama.cpp thread, and twice a minute. */
export const PARTIAL_PUBLISHING: PartialPublishing = { minInputs: 256, everyMs: 30_000 };

/** Publishes the plan's current state; returns the generation's name. */
type Publish = (pending: RowRange[]) => Promise<string>;

/** Coverage of a partial generation, reported with its name. */
export interface PartialPublished {
  generation: string;
  dense: { covered: number; total: number };
}

/**
 * A function to call before embedding and after each batch: it publishes
 * when the policy says a partial generation is due, or, called with "now"
 * (a run being stopped), whenever the policy publishes at all, so the
 * vectors in hand outlive the run. `vectors[i]` is null while row i waits
 * for its vector.
 */
export function partialPublisher(
  policy: PartialPublishing | false,
  inputs: number,
  vectors: readonly (Float32Array | null)[],
  publish: Publish,
  onPublished: (published: PartialPublished) => void,
): (urgency?: "now") => Promise<void> {
  if (policy === false || inputs < policy.minInputs) return () => Promise.resolve();
  let last = -Infinity;
  let cost = 0;
  let waiting = -1;
  return async (urgency) => {
    const now = performance.now();
    if (urgency !== "now" && now - last < Math.max(policy.everyMs, 10 * cost)) return;
    const pending = rowRanges(vectors.keys().filter((row) => vectors[row] === null));
    // Nothing left to embed, or nothing embedded since the last publish.
    if (pending.length === 0 || rowsIn(pending) === waiting) return;
    waiting = rowsIn(pending);
    const generation = await publish(pending);
    last = performance.now();
    cost = last - now;
    onPublished({
      generation,
      dense: { covered: vectors.length - rowsIn(pending), total: vectors.length },
    });
  };
}
