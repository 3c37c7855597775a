import { WayfinderError } from "../mod.ts";
import { type ConfiguredCorpus, escapeLine } from "../cli/mod.ts";
import type { Roots } from "./roots.ts";

/** A stored passage as `get_chunk` returns it: `read_range`'s fields and what the index knows. */
export interface StoredPassage {
  root: string;
  id: string;
  path: string;
  lineStart: number;
  lineEnd: number;
  type: string;
  language: string;
  symbol: string | null;
  content: string;
  metadata: Record<string, unknown>;
}

/** An id as an agent sent it, short enough for one line. */
function shownId(id: string): string {
  return escapeLine(id.length > 60 ? `${id.slice(0, 57)}...` : id);
}

/**
 * The passage with chunk id `id` in the live index of `root`, or, with no
 * root named, of the first served root whose index holds it: an id from a
 * search of any root works without naming that root again.
 * @throws {WayfinderError} "usage" naming the id when no index holds it;
 *   "no_index" when the root asked (or every root) has no index yet.
 */
export async function readChunk(roots: Roots, id: string, root?: string): Promise<StoredPassage> {
  const corpora: readonly ConfiguredCorpus[] = root === undefined ? roots.all : [roots.pick(root)];
  let unindexed: unknown = null;
  let searched = 0;
  for (const corpus of corpora) {
    let chunk;
    try {
      chunk = await corpus.chunk(id);
    } catch (error) {
      // Another root's missing index does not hide this one's chunk.
      if (error instanceof WayfinderError && error.code === "no_index" && corpora.length > 1) {
        unindexed ??= error;
        continue;
      }
      throw error;
    }
    searched++;
    if (chunk === undefined) continue;
    return {
      root: corpus.root,
      id: chunk.id,
      path: chunk.sourcePath,
      lineStart: chunk.lineStart,
      lineEnd: chunk.lineEnd,
      type: chunk.type,
      language: chunk.language,
      symbol: chunk.symbol ?? null,
      content: chunk.content,
      metadata: chunk.metadata,
    };
  }
  if (searched === 0 && unindexed) throw unindexed;
  const where = corpora.length === 1 ? `the index of ${corpora[0]!.root}` : "any served index";
  throw new WayfinderError(
    "usage",
    `No chunk '${
      shownId(id)
    }' in ${where}; an id changes when its passage changes or moves, so search again`,
  );
}
