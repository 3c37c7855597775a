import assert from "node:assert/strict";
import type { Searcher, SearchHit } from "../search/mod.ts";
import { chunk } from "../search/testdata/index.ts";
import { tieredSearcher } from "./static_tier.ts";

/** A hit on lines `from`–`to` of `path`. */
function hit(id: string, path: string, from: number, to: number, score: number): SearchHit {
  return {
    chunk: { ...chunk(id, path), lineStart: from, lineEnd: to },
    score,
    similarity: score,
    scores: { dense: score },
  };
}

/** A searcher that always answers with `hits`, as a ranking already made. */
const answering = (hits: SearchHit[]): Searcher => ({
  search: () => Promise.resolve({ matches: hits, notices: [], examined: hits.length }),
});

// The transformer has embedded a.ts: it ranks a fragment of `parse` first.
const transformer = answering([
  hit("parse#1", "a.ts", 1, 20, 0.9),
  hit("format", "a.ts", 40, 60, 0.5),
  hit("other", "a.ts", 70, 80, 0.1),
]);
// The static model ranks the whole tree: b.ts (not embedded yet) first, then a.ts's `format`.
const staticModel = answering([
  hit("b", "b.ts", 1, 30, 0.8),
  hit("format (whole)", "a.ts", 40, 60, 0.7),
  hit("parse (whole)", "a.ts", 1, 30, 0.3),
  hit("c", "c.ts", 1, 5, 0.2),
]);
const waiting = new Set(["b.ts"]);
const order = async (embedded: number) =>
  (await tieredSearcher(transformer, staticModel, waiting, embedded).search({
    query: "q",
    limit: 10,
  })).matches.map((m) => m.chunk.id);

Deno.test("the tier leads while the transformer has embedded little, and gives way as it fills in", async () => {
  // A tenth embedded: the static ranking decides; a.ts's hits are the transformer's own chunks.
  assert.deepEqual(await order(0.1), ["b", "format", "parse#1", "other"]);
  // Nine tenths: the transformer decides among what it embedded; b.ts keeps the tier's place.
  assert.deepEqual(await order(0.9), ["b", "parse#1", "format", "other"]);
  // Files embedded never bring the tier's own chunks (c.ts is embedded, the tier's chunk is not).
  assert.ok(!(await order(0.5)).includes("c"));
});

Deno.test("tiered scores are the fused ones: embedded × transformer + the rest × static", async () => {
  const result = await tieredSearcher(transformer, staticModel, waiting, 0.25).search({
    query: "q",
    limit: 10,
  });
  const score = (id: string) => result.matches.find((m) => m.chunk.id === id)!.score;
  // Each list is min-max normalised over itself: transformer 0.9 → 1, 0.5 → 0.5; static 0.7 → 5/6.
  assert.ok(Math.abs(score("format") - (0.25 * 0.5 + 0.75 * (5 / 6))) < 1e-9);
  assert.ok(Math.abs(score("parse#1") - (0.25 * 1 + 0.75 * (1 / 6))) < 1e-9);
  assert.equal(score("b"), 1);
  for (const m of result.matches) assert.equal(m.score, m.scores.fused);
  assert.ok(
    result.notices.some((n) => /1 file not embedded yet is ranked with the static/.test(n)),
  );
});
