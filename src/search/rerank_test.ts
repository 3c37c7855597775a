import assert from "node:assert/strict";
import { WayfinderError } from "../error.ts";
import type { Chunk } from "../types.ts";
import { rerankHits, rerankingSearcher } from "./rerank.ts";
import type { SearchHit } from "./search_types.ts";
import { indexSearcher } from "./searcher.ts";
import { chunk, makeIndex } from "./testdata/index.ts";

function hit(id: string, similarity: number): SearchHit {
  const chunk: Chunk = {
    id,
    sourcePath: `src/${id}.ts`,
    lineStart: 1,
    lineEnd: 1,
    startOffset: 0,
    endOffset: id.length,
    type: "function",
    language: "typescript",
    content: `content of ${id}`,
    metadata: {},
  };
  return { chunk, score: similarity, similarity, scores: { dense: similarity } };
}

/** A scorer reading scores from a table by passage text, recording what it was asked. */
function tableScorer(table: Record<string, number>) {
  const calls: { query: string; documents: string[] }[] = [];
  return {
    calls,
    rank(query: string, documents: string[]) {
      calls.push({ query, documents });
      return Promise.resolve(documents.map((d) => table[d] ?? 0));
    },
  };
}

Deno.test("rerankHits() reorders the top hits by reranker score and keeps the tail after them", async () => {
  const hits = [hit("a", 0.9), hit("b", 0.8), hit("c", 0.7), hit("d", 0.6), hit("e", 0.5)];
  const scorer = tableScorer({ "content of a": 0.1, "content of b": 0.7, "content of c": 0.4 });
  const out = await rerankHits(hits, "the query", scorer, { top: 3 });
  assert.deepEqual(out.map((h) => h.chunk.id), ["b", "c", "a", "d", "e"]);
  assert.deepEqual(out.map((h) => h.similarity), [0.7, 0.4, 0.1, 0.6, 0.5]);
  assert.deepEqual(out[0].scores, { dense: 0.8, rerank: 0.7 });
  assert.deepEqual(out[3].scores, { dense: 0.6 }, "the tail is untouched");
  assert.deepEqual(scorer.calls, [{
    query: "the query",
    documents: ["content of a", "content of b", "content of c"],
  }]);
  assert.equal(hits[0].similarity, 0.9, "the input is not mutated");
});

Deno.test("rerankHits() keeps retrieval order among equal scores", async () => {
  const hits = [hit("a", 0.9), hit("b", 0.8), hit("c", 0.7), hit("d", 0.6)];
  const out = await rerankHits(hits, "q", tableScorer({ "content of d": 1 }), { top: 10 });
  assert.deepEqual(out.map((h) => h.chunk.id), ["d", "a", "b", "c"]);
});

Deno.test("rerankHits() reads the text the caller chooses", async () => {
  const scorer = tableScorer({ "src/b.ts": 1 });
  const out = await rerankHits([hit("a", 0.9), hit("b", 0.8)], "q", scorer, {
    top: 2,
    text: (chunk) => chunk.sourcePath,
  });
  assert.deepEqual(out.map((h) => h.chunk.id), ["b", "a"]);
});

Deno.test("rerankHits() refuses a bad top and a reranker giving the wrong number of scores", async () => {
  const hits = [hit("a", 0.9), hit("b", 0.8)];
  await assert.rejects(
    rerankHits(hits, "q", tableScorer({}), { top: 0 }),
    (e: unknown) => e instanceof WayfinderError && e.code === "usage",
  );
  const short = { rank: () => Promise.resolve([0.5]) };
  await assert.rejects(
    rerankHits(hits, "q", short, { top: 2 }),
    (e: unknown) => e instanceof WayfinderError && e.code === "model",
  );
});

const EAST = new Float32Array([1, 0, 0]);
const embedQuery = () => Promise.resolve(EAST);

Deno.test("rerankingSearcher() reorders candidates beyond the limit and keeps retrieval scores", async () => {
  const index = makeIndex(
    [chunk("a", "a.ts"), chunk("bb", "b.ts"), chunk("ccc", "c.ts")],
    [[1, 0, 0], [0.9, 0.1, 0], [0.5, 0.5, 0]],
  );
  const byLength = {
    rank: (_q: string, docs: string[]) => Promise.resolve(docs.map((d) => d.length)),
  };
  const searcher = rerankingSearcher(
    indexSearcher(index, { mode: "dense", embedQuery }),
    byLength,
    {
      candidates: 3,
    },
  );
  const { matches } = await searcher.search({ query: "q", limit: 1 });
  assert.deepEqual(matches.map((m) => m.chunk.id), ["ccc"]);
  assert.equal(matches[0].scores.rerank, 3);
  assert.ok(matches[0].scores.dense! < 1);
});

Deno.test("rerankingSearcher() scores exactly its candidates, once, and the rest follow them", async () => {
  const index = makeIndex(
    [chunk("a", "a.ts"), chunk("bb", "b.ts"), chunk("ccc", "c.ts"), chunk("dddd", "d.ts")],
    [[1, 0, 0], [0.9, 0.1, 0], [0.8, 0.2, 0], [0.5, 0.5, 0]],
  );
  const scored: string[][] = [];
  const byLength = {
    rank: (_q: string, docs: string[]) => {
      scored.push(docs);
      return Promise.resolve(docs.map((d) => d.length));
    },
  };
  const plain = indexSearcher(index, { mode: "dense", embedQuery });
  const searcher = rerankingSearcher(plain, byLength, { candidates: 2 });
  const { matches } = await searcher.search({ query: "q", limit: 3 });
  assert.deepEqual(scored, [["a", "bb"]], "the top 2, not the limit of 3");
  assert.deepEqual(matches.map((m) => m.chunk.id), ["bb", "a", "ccc"]);
  assert.equal(
    matches[2].scores.rerank,
    undefined,
    "past the candidates: retrieval order and score",
  );
});
