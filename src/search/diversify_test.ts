import assert from "node:assert/strict";
import { diversifyingSearcher } from "./diversify.ts";
import { indexSearcher } from "./searcher.ts";
import { chunk, makeIndex } from "./testdata/index.ts";

const EAST = new Float32Array([1, 0, 0]);
const embedQuery = () => Promise.resolve(EAST);

Deno.test("diversifyingSearcher() picks the next different passage over a near-copy", async () => {
  const index = makeIndex(
    [chunk("a", "a.ts"), chunk("a2", "a2.ts"), chunk("b", "b.ts")],
    [[1, 0.1, 0], [1, 0.12, 0], [1, 0, 0.8]],
  );
  const plain = indexSearcher(index, { mode: "dense", embedQuery });
  const ids = async (searcher: typeof plain) =>
    (await searcher.search({ query: "q", limit: 2 })).matches.map((m) => m.chunk.id);
  assert.deepEqual(await ids(plain), ["a", "a2"]);
  assert.deepEqual(await ids(diversifyingSearcher(plain, index, { lambda: 0.5 })), ["a", "b"]);
  assert.deepEqual(await ids(diversifyingSearcher(plain, index, { lambda: 1 })), ["a", "a2"]);
  const diverse = await diversifyingSearcher(plain, index).search({ query: "q", limit: 2 });
  assert.ok(diverse.matches[0].similarity >= diverse.matches[1].similarity, "most relevant first");
  assert.throws(
    () => diversifyingSearcher(plain, index, { lambda: 2 }),
    /lambda must be within 0..1/,
  );
});

Deno.test("diversifyingSearcher() still chooses when asked for as many as fetchK, as under expansion", async () => {
  const index = makeIndex(
    [chunk("a", "a.ts"), chunk("a2", "a2.ts"), chunk("b", "b.ts")],
    [[1, 0.1, 0], [1, 0.12, 0], [1, 0, 0.8]],
  );
  const plain = indexSearcher(index, { mode: "dense", embedQuery });
  const diverse = diversifyingSearcher(plain, index, { lambda: 0, fetchK: 2 });
  const { matches } = await diverse.search({ query: "q", limit: 2 });
  assert.deepEqual(matches.map((m) => m.chunk.id), ["a", "b"], "a pool of 2 × the limit asked");
});
