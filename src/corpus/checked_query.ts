import { WayfinderError } from "../error.ts";
import type { Searcher } from "../search/mod.ts";

/** The query a search runs on: trimmed, and refused when nothing is left. */
export function searchableQuery(query: string): string {
  const text = query.trim();
  if (!text) throw new WayfinderError("usage", "Cannot search: the query is empty");
  return text;
}

/**
 * `inner` behind the checks every corpus search makes, whether through
 * `corpus.search` or a searcher from `corpus.searcher`: the query trimmed and
 * not empty, then `fits` (the model's token budget, when the mode embeds the
 * query), which throws or returns notices that lead the result's.
 */
export function checkedQuerySearcher(
  inner: Searcher,
  fits?: (query: string) => Promise<string[]>,
): Searcher {
  return {
    async search(request) {
      const query = searchableQuery(request.query);
      const cut = fits ? await fits(query) : [];
      const result = await inner.search({ ...request, query });
      return { ...result, notices: [...cut, ...result.notices] };
    },
  };
}
