import assert from "node:assert/strict";
import { WayfinderError } from "../error.ts";
import type { Chunk } from "../types.ts";
import { rerankHits } from "./rerank.ts";
import type { SearchHit } from "./search_index.ts";

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
