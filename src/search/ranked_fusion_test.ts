import assert from "node:assert/strict";
import {
  DENSE_DEPTH,
  DENSE_SHARE,
  denseDepth,
  fuseHybrid,
  fuseRanked,
  lexicalCovers,
} from "./ranked_fusion.ts";
import type { RankingSignals } from "./code_ranking.ts";
import { chunk } from "./testdata/index.ts";

const rows = (list: { row: number }[]) => list.map((r) => r.row);

Deno.test("fuseRanked: the lexical order leads; the dense share only reorders near ties", () => {
  // Lexical 1 clearly first; 2 and 3 close behind; dense puts 3 first and 1 last.
  const lexical = [{ row: 1, score: 8 }, { row: 2, score: 4.2 }, { row: 3, score: 4 }];
  const dense = [{ row: 3, score: 0.8 }, { row: 2, score: 0.5 }, { row: 1, score: 0.3 }];
  const fused = fuseRanked(lexical, dense);
  assert.deepEqual(rows(fused), [1, 3, 2]);
  assert.equal(fused[0]!.score, 1); // the lexical best, with no dense share (last of the dense top)
  assert.ok(Math.abs(fused[1]!.score - (0.5 + DENSE_SHARE)) < 1e-9);
});

Deno.test("fuseRanked: a passage no query word names enters from the dense ranking", () => {
  const lexical = [{ row: 1, score: 2 }];
  const dense = [{ row: 9, score: 0.9 }, { row: 1, score: 0.2 }];
  const fused = fuseRanked(lexical, dense);
  assert.deepEqual(rows(fused), [1, 9]);
  assert.ok(Math.abs(fused[1]!.score - DENSE_SHARE) < 1e-9);
  // With no lexical candidates at all, the dense order is the answer.
  assert.deepEqual(rows(fuseRanked([], dense)), [9, 1]);
});

Deno.test("fuseRanked: a dense share of 0 gives the lexical order, dense-only rows after it", () => {
  const lexical = [{ row: 5, score: 3 }, { row: 4, score: 2 }];
  const dense = [{ row: 4, score: 0.9 }, { row: 7, score: 0.8 }];
  assert.deepEqual(rows(fuseRanked(lexical, dense, 0)), [5, 4, 7]);
});

Deno.test("fuseRanked: dense candidates below the top DENSE_DEPTH take no part", () => {
  const dense = Array.from({ length: DENSE_DEPTH + 5 }, (_, i) => ({ row: i, score: 1 - i / 100 }));
  const fused = fuseRanked([], dense);
  assert.equal(fused.length, DENSE_DEPTH);
  assert.ok(!fused.some((r) => r.row >= DENSE_DEPTH));
  // Five per hit wanted when more are asked for.
  assert.equal(denseDepth(10), DENSE_DEPTH);
  assert.equal(denseDepth(40), 200);
  assert.equal(fuseRanked([], dense, DENSE_SHARE, denseDepth(40)).length, DENSE_DEPTH + 5);
});

Deno.test("lexicalCovers: every query word, as BM25 reads it, in the passage's text, symbol or path", () => {
  const passage = {
    ...chunk("p", "src/payments/refund_policy.ts"),
    content: "function parseOrders() {}",
  };
  // Plurals fold and stopwords drop, as the lexical index tokenizes them.
  assert.equal(lexicalCovers("how are the orders parsed", passage), false); // "parsed" ≠ "parse"
  assert.equal(lexicalCovers("parse an order", passage), true);
  // The path and the symbol count: `payments` and `refund` are in the path only.
  assert.equal(lexicalCovers("parse payment orders", passage), true);
  assert.equal(lexicalCovers("refund policy", passage), true);
  assert.equal(lexicalCovers("order symbol", { ...passage, symbol: "Symbol" }), true);
  assert.equal(lexicalCovers("parse orders quickly", passage), false);
  // No word to cover (stopwords and one-letter words only), or no passage: not covered.
  assert.equal(lexicalCovers("how is it", passage), false);
  assert.equal(lexicalCovers("g", passage), false);
  assert.equal(lexicalCovers("parse", undefined), false);
});

Deno.test("fuseHybrid: a file's similarity counts where the cosine chooses files, not where BM25 leads", () => {
  const chunks = [
    { ...chunk("a", "src/local.rs"), content: "fn tick() { run spawned tasks }" },
    { ...chunk("b", "src/join_set.rs"), content: "pub struct JoinSet" },
    { ...chunk("c", "src/other.rs"), content: "fn other()" },
  ];
  // BM25 and the cosine both put local.rs a little ahead of join_set.rs.
  const lexical = [{ row: 0, score: 5 }, { row: 1, score: 4.9 }];
  const dense = [{ row: 0, score: 0.5 }, { row: 1, score: 0.49 }, { row: 2, score: 0.1 }];
  const cosines: Record<string, number> = {
    "src/local.rs": 0.2,
    "src/join_set.rs": 0.6,
    "src/other.rs": 0.1,
  };
  const signals: RankingSignals = { fileSimilarity: (path) => cosines[path] };
  const fuse = (query: string, given = signals) =>
    fuseHybrid("adaptive", query, lexical, dense, (row) => chunks[row]!, {}, 50, 1, given)
      .map((r) => r.row);
  // Asked by meaning (BM25's best lacks "collecting"): the file similarity lifts join_set.rs.
  assert.deepEqual(fuse("collecting results"), [1, 0, 2]);
  assert.deepEqual(fuse("collecting results", {}), [0, 1, 2]);
  // Asked in the code's words (BM25's best holds them all): BM25 leads, the signal is not read.
  assert.deepEqual(fuse("run spawned tasks"), [0, 1, 2]);
});
