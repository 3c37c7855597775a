import { WayfinderError } from "../error.ts";
import type { Chunk } from "../types.ts";
import type { SearchHit } from "./search_types.ts";
import type { Searcher } from "./searcher.ts";

/**
 * What reranking needs: a cross-encoder scoring passages against a query.
 *
 * @example Your own scorer reranks the corpus's searches
 * ```ts
 * import assert from "node:assert/strict";
 * import { FakeEmbedder, openCorpus } from "../mod.ts";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/auth.ts`, "export function refreshToken() {\n  return fetchToken();\n}\n");
 * await Deno.writeTextFile(`${root}/README.md`, "# Auth\n\nRefresh the token before it expires.\n");
 * const dataDir = await Deno.makeTempDir();
 * // Any cross-encoder fits; this one prefers passages that say "expires".
 * const scorer = { rank: (_query: string, texts: string[]) => Promise.resolve(texts.map((t) => t.includes("expires") ? 1 : 0)) };
 * const corpus = await openCorpus(root, { dataDir, embedder: new FakeEmbedder(), reranker: scorer });
 * await corpus.index();
 * const { matches } = await corpus.search("refresh token", { mode: "lexical", rerank: true });
 * assert.equal(matches[0]!.chunk.sourcePath, "README.md");
 * assert.equal(matches[0]!.scores.rerank, 1);
 * await corpus.close();
 * await Deno.remove(root, { recursive: true });
 * await Deno.remove(dataDir, { recursive: true });
 * ```
 */
export interface PassageScorer {
  /** One score per document, in order; higher is more relevant. */
  rank(query: string, documents: string[]): Promise<number[]>;
}

/** How many hits to rerank and what text the reranker reads. */
export interface RerankOptions {
  /** Hits rescored, from the top; the rest follow unchanged. */
  top: number;
  /** The text of a chunk the reranker reads. @default chunk.content */
  text?: (chunk: Chunk) => string;
}

/**
 * Reorders the first `top` hits by a cross-encoder's scores, best first
 * (ties keep their retrieval order); the remaining hits follow in their
 * original order. A reranked hit's `score` (and `similarity`, its former
 * name) becomes the reranker's score and `scores.rerank` records it; the
 * retrieval scores stay in `scores`. Hits past `top` keep their retrieval
 * score, on its own scale.
 *
 * @throws {WayfinderError} "usage" when `top` is not a positive integer;
 * "model" when the reranker returns the wrong number of scores or a non-finite one.
 *
 * @example Rerank two hits
 * ```ts
 * import assert from "node:assert/strict";
 * import { rerankHits } from "./mod.ts";
 * const hit = (id: string, score: number) => ({
 *   chunk: { id, sourcePath: `${id}.ts`, lineStart: 1, lineEnd: 1, startOffset: 0, endOffset: 1,
 *     type: "function", language: "typescript", content: id, metadata: {} },
 *   score, similarity: score, scores: { dense: score },
 * });
 * const byLength = { rank: (_q: string, docs: string[]) => Promise.resolve(docs.map((d) => d.length)) };
 * const hits = await rerankHits([hit("a", 0.9), hit("bbb", 0.8)], "q", byLength, { top: 2 });
 * assert.deepEqual(hits.map((h) => h.chunk.id), ["bbb", "a"]);
 * assert.equal(hits[0].scores.dense, 0.8);
 * ```
 */
export async function rerankHits<T extends SearchHit>(
  hits: readonly T[],
  query: string,
  reranker: PassageScorer,
  options: RerankOptions,
): Promise<T[]> {
  const { top } = options;
  if (!Number.isInteger(top) || top < 1) {
    throw new WayfinderError("usage", `Cannot rerank: top must be a positive integer, got ${top}`);
  }
  const text = options.text ?? ((chunk: Chunk) => chunk.content);
  const head = hits.slice(0, top);
  const scores = await reranker.rank(query, head.map((hit) => text(hit.chunk)));
  if (scores.length !== head.length || !scores.every(Number.isFinite)) {
    throw new WayfinderError(
      "model",
      `Cannot rerank: the reranker gave ${scores.length} scores for ${head.length} passages, or a non-finite one`,
    );
  }
  const order = head.map((_, i) => i).sort((a, b) => scores[b] - scores[a] || a - b);
  const reranked = order.map((i) => ({
    ...head[i],
    score: scores[i],
    similarity: scores[i],
    scores: { ...head[i].scores, rerank: scores[i] },
  }));
  return [...reranked, ...hits.slice(top)];
}

/**
 * A cross-encoder over any searcher: rescores exactly the inner searcher's
 * top `candidates` hits and keeps the best `limit`. When `candidates` is
 * below the limit, the reranked hits lead and the next ones follow in
 * retrieval order, with their retrieval scores. Each search asks `inner`
 * once, so stack anything that searches its inner searcher repeatedly (an
 * `expandingSearcher`) below this one.
 *
 * @example Rerank any searcher's hits
 * ```ts
 * import assert from "node:assert/strict";
 * import { rerankingSearcher, type Searcher } from "./mod.ts";
 *
 * const chunk = (id: string) => ({
 *   id, sourcePath: `${id}.ts`, lineStart: 1, lineEnd: 1, startOffset: 0, endOffset: id.length,
 *   type: "function", language: "typescript", content: id, metadata: {},
 * });
 * const inner: Searcher = {
 *   search: () => Promise.resolve({
 *     matches: ["a", "ccc", "bb"].map((id, i) => ({
 *       chunk: chunk(id), score: 1 - i / 10, similarity: 1 - i / 10, scores: {},
 *     })),
 *     notices: [],
 *     examined: 3,
 *   }),
 * };
 * const longest = { rank: (_q: string, texts: string[]) => Promise.resolve(texts.map((t) => t.length)) };
 * const { matches } = await rerankingSearcher(inner, longest).search({ query: "q", limit: 2 });
 * assert.deepEqual(matches.map((hit) => hit.chunk.id), ["ccc", "bb"]);
 * ```
 */
export function rerankingSearcher(
  inner: Searcher,
  reranker: PassageScorer,
  options: {
    /** Candidates rescored: the inner searcher's top N, each scored once. @default 50 */
    candidates?: number;
    /** The text of a chunk the reranker reads. @default chunk.content */
    text?: (chunk: Chunk) => string;
  } = {},
): Searcher {
  const candidates = options.candidates ?? 50;
  return {
    async search(request) {
      const result = await inner.search({ ...request, limit: Math.max(request.limit, candidates) });
      if (result.matches.length === 0) return result;
      const reranked = await rerankHits(result.matches, request.query, reranker, {
        top: candidates,
        text: options.text,
      });
      return { ...result, matches: reranked.slice(0, request.limit) };
    },
  };
}

/** Options of {@linkcode rerankingSearcher}. */
export type RerankingOptions = NonNullable<Parameters<typeof rerankingSearcher>[2]>;
