import assert from "node:assert/strict";
import { WayfinderError } from "../error.ts";
import type { SearchFilter } from "./match_filter.ts";
import { searchIndex } from "./search_index.ts";
import type { SearchableIndex } from "./search_types.ts";
import { chunk, makeIndex } from "./testdata/index.ts";

/** n chunks whose similarity to [1, 0] falls strictly with their number. */
function fanIndex(n: number, pathOf: (i: number) => string) {
  const chunks = Array.from({ length: n }, (_, i) => chunk(`c${i}`, pathOf(i)));
  const rows = Array.from({ length: n }, (_, i) => [Math.cos(i * 0.003), Math.sin(i * 0.003)]);
  return makeIndex(chunks, rows);
}

const EAST = new Float32Array([1, 0]);

Deno.test("searchIndex() ranks by cosine similarity", () => {
  const index = makeIndex(
    [chunk("a", "a.ts"), chunk("b", "b.ts"), chunk("c", "c.ts")],
    [[0, 1], [1, 1], [1, 0]],
  );
  const { matches, notices } = searchIndex(index, EAST, "", { limit: 2 });
  assert.deepEqual(matches.map((m) => m.chunk.id), ["c", "b"]);
  assert.ok(Math.abs(matches[0].similarity - 1) < 1e-6);
  assert.ok(Math.abs(matches[1].similarity - Math.SQRT1_2) < 1e-6);
  assert.equal(matches[1].scores.dense, matches[1].similarity);
  assert.deepEqual(notices, []);
});

Deno.test("searchIndex() refuses a query vector of another dimension", () => {
  const index = makeIndex([chunk("a", "a.ts")], [[1, 0]]);
  assert.throws(
    () => searchIndex(index, new Float32Array([1, 0, 0]), "", {}),
    (e) => e instanceof WayfinderError && e.code === "stale_index",
  );
});

Deno.test("searchIndex() widens the window by doubling until the filter yields enough hits", () => {
  // Matches at ranks 3 and 40: windows 2, 4, … 32 hold one, 64 (the 32× cap) holds both.
  const index = fanIndex(400, (i) => (i === 3 || i === 40 ? `lib/${i}.ts` : `src/${i}.ts`));
  const result = searchIndex(index, EAST, "", { limit: 2, filter: { paths: ["lib/**"] } });
  assert.deepEqual(result.matches.map((m) => m.chunk.id), ["c3", "c40"]);
  assert.equal(result.examined, 64);
  assert.deepEqual(result.notices, []);
});

Deno.test("searchIndex() ranks only the kept rows when a filter starves the widest window", () => {
  const paths = (i: number) => ([5, 35, 150, 390].includes(i) ? `lib/${i}.ts` : `src/${i}.ts`);
  const index = fanIndex(400, paths);
  const result = searchIndex(index, EAST, "", { limit: 10, filter: { paths: ["lib/**"] } });
  // Row 390 lies past the 32× window of 320 rows, and is found all the same.
  assert.deepEqual(result.matches.map((m) => m.chunk.id), ["c5", "c35", "c150", "c390"]);
  assert.equal(result.examined, 4);
  assert.deepEqual(result.notices, []);
  const none = searchIndex(index, EAST, "", { limit: 10, filter: { paths: ["lib/nothing"] } });
  assert.deepEqual(none.matches, []);
  assert.deepEqual(none.notices, ["the filters match no chunk in this index"]);
});

Deno.test("searchIndex() hands a starving filter to lexical search as a row predicate", () => {
  const paths = (i: number) => (i === 399 ? "lib/last.ts" : `src/${i}.ts`);
  const index = fanIndex(400, paths);
  const asked: (((row: number) => boolean) | undefined)[] = [];
  // Every row matches, best first by row: the kept row comes last of 400.
  const lexical: SearchableIndex["lexical"] = (_q, limit, filter) => {
    asked.push(filter?.rows);
    const rows = Array.from({ length: 400 }, (_, i) => i).filter((i) => filter?.rows?.(i) ?? true);
    return rows.slice(0, limit).map((i) => ({ index: i, score: 400 - i }));
  };
  const withLexical = { ...index, lexical };
  for (const mode of ["lexical", "hybrid"] as const) {
    asked.length = 0;
    const result = searchIndex(withLexical, EAST, "q", {
      mode,
      limit: 3,
      filter: { paths: ["lib"] },
    });
    assert.deepEqual(result.matches.map((m) => m.chunk.id), ["c399"], mode);
    assert.equal(asked.length, 2, `${mode}: a window over all rows, then the kept rows`);
    assert.equal(asked[0], undefined);
    assert.equal(asked[1]?.(399), true);
    assert.equal(asked[1]?.(0), false);
  }
});

Deno.test("searchIndex() ranked hybrid: lexical leads, and a starving filter finds dense rows past the top 50", () => {
  // 90 rows by falling cosine, all within the widest window; BM25 matches rows 70 and 3 only.
  const paths = (i: number) => (i === 80 ? "lib/far.ts" : `src/${i}.ts`);
  const lexical: SearchableIndex["lexical"] = (_q, _limit, filter) =>
    [{ index: 70, score: 8 }, { index: 3, score: 2 }].filter((h) =>
      filter?.rows?.(h.index) ?? true
    );
  const index = { ...fanIndex(90, paths), lexical };
  const { matches } = searchIndex(index, EAST, "q", { mode: "hybrid", fusion: "ranked", limit: 3 });
  // BM25's winner stays first though dense ranks it 71st; row 3 has both; row 0 dense alone.
  assert.deepEqual(matches.map((m) => m.chunk.id), ["c70", "c3", "c0"]);
  assert.equal(matches[0]!.scores.lexical, 8);
  assert.equal(matches[0]!.score, matches[0]!.scores.fused);
  // Row 80 is neither a lexical match nor in the dense top 50: only ranking the kept rows finds it.
  const kept = searchIndex(index, EAST, "q", {
    mode: "hybrid",
    fusion: "ranked",
    limit: 3,
    filter: { paths: ["lib"] },
  });
  assert.deepEqual(kept.matches.map((m) => m.chunk.id), ["c80"]);
});

/**
 * BM25 ranks `first` (10) above b0 (6); dense ranks b0, b1, b2 (one file)
 * nearest and `first` farthest.
 */
function denseFavoursOneFile(first: string) {
  const lexical = () => [{ index: 0, score: 10 }, { index: 1, score: 6 }];
  return makeIndex(
    [
      chunk(first, "a.ts"),
      chunk("b0", "b.ts"),
      chunk("b1", "b.ts"),
      chunk("b2", "b.ts"),
      chunk("c0", "c.ts"),
    ],
    [[0, 1], [1, 0], [1, 0.2], [1, 0.4], [1, 1]],
    lexical,
  );
}

Deno.test("searchIndex() early hybrid: the raw rankings fuse first, so a file dense ranks high can lead", () => {
  const index = denseFavoursOneFile("a0");
  const search = (fusion: "ranked" | "early") =>
    searchIndex(index, EAST, "q", { mode: "hybrid", fusion, ranking: true, limit: 3 }).matches;
  // Ranked: BM25's order, staged, leads; dense only reorders behind it.
  assert.equal(search("ranked")[0]!.chunk.id, "a0");
  // Early: b0 has half a0's BM25 and the best cosine, and its file's other chunks, found by
  // dense alone, lift it through file coherence before the stage picks the order.
  const early = search("early");
  assert.equal(early[0]!.chunk.id, "b0");
  assert.equal(early[0]!.scores.lexical, 6);
  assert.equal(early[0]!.score, early[0]!.scores.fused);
  assert.ok(early.some((m) => m.chunk.id === "a0"), "BM25's winner still ranks");
});

Deno.test("searchIndex() adaptive hybrid: ranked when BM25's best holds every query word, else early", () => {
  // BM25's winner now spells `alphaBeta`.
  const index = denseFavoursOneFile("alphaBeta");
  const ids = (query: string, fusion: "ranked" | "early" | "adaptive") =>
    searchIndex(index, EAST, query, { mode: "hybrid", fusion, ranking: true, limit: 5 }).matches
      .map((m) => m.chunk.id);
  // Both words in BM25's best passage: BM25 leads, as in ranked fusion.
  assert.deepEqual(ids("alpha beta", "adaptive"), ids("alpha beta", "ranked"));
  assert.equal(ids("alpha beta", "adaptive")[0], "alphaBeta");
  // A word it lacks: the query is asked by meaning, and fuses early.
  assert.deepEqual(ids("alpha gamma", "adaptive"), ids("alpha gamma", "early"));
  assert.equal(ids("alpha gamma", "adaptive")[0], "b0");
});

Deno.test("searchIndex() gives no notice when the window already covers the whole index", () => {
  const index = fanIndex(50, (i) => (i === 7 ? "lib/x.ts" : `src/${i}.ts`));
  const result = searchIndex(index, EAST, "", { limit: 10, filter: { paths: ["lib/**"] } });
  assert.deepEqual(result.matches.map((m) => m.chunk.id), ["c7"]);
  assert.equal(result.examined, 50);
  assert.deepEqual(result.notices, []);
});

Deno.test("searchIndex() filters by glob, type and language", () => {
  const chunks = [
    chunk("ts", "src/auth/login.ts"),
    chunk("md", "docs/guide.md", "heading", "markdown"),
    chunk("dart", "lib/auth.dart", "method", "dart"),
    chunk("cls", "src/auth/user.ts", "class"),
    chunk("dot", ".github/notes.md", "paragraph", "markdown"),
  ];
  const index = makeIndex(chunks, chunks.map((_, i) => [1, i]));
  const ids = (filter: SearchFilter) =>
    searchIndex(index, EAST, "", { filter }).matches.map((m) => m.chunk.id).sort();
  assert.deepEqual(ids({ paths: ["*.md"] }), ["dot", "md"]);
  assert.deepEqual(ids({ paths: ["src/**/*.ts"] }), ["cls", "ts"]);
  assert.deepEqual(ids({ paths: ["src/auth"] }), ["cls", "ts"]);
  assert.deepEqual(ids({ paths: ["docs/**", "lib/**"] }), ["dart", "md"]);
  assert.deepEqual(ids({ types: ["class", "method"] }), ["cls", "dart"]);
  assert.deepEqual(ids({ languages: ["markdown"] }), ["dot", "md"]);
  assert.deepEqual(ids({ paths: ["src/**"], types: ["function"] }), ["ts"]);
  assert.deepEqual(ids({ paths: [], types: [] }), ["cls", "dart", "dot", "md", "ts"]);
});

Deno.test("searchIndex() drops hits below minScore", () => {
  const index = fanIndex(400, (i) => `src/${i}.ts`);
  // cos(i × 0.003) ≥ 0.9999 holds for i ≤ 4.
  const result = searchIndex(index, EAST, "", { limit: 10, minScore: 0.9999 });
  assert.deepEqual(result.matches.map((m) => m.chunk.id), ["c0", "c1", "c2", "c3", "c4"]);
  assert.deepEqual(result.notices, []);
  const filtered = searchIndex(index, EAST, "", {
    limit: 10,
    minScore: 0.9999,
    filter: { paths: ["src/**"] },
  });
  assert.equal(filtered.matches.length, 5);
  assert.deepEqual(filtered.notices, [], "past the cut nothing could match, so no notice");
});

Deno.test("searchIndex() fuses dense and lexical ranks by RRF", () => {
  // Dense order a, b, c; lexical order c, a. With k = 60:
  //   a = 1/61 + 1/62 ≈ 0.032522, c = 1/63 + 1/61 ≈ 0.032266, b = 1/62 ≈ 0.016129.
  const lexical = () => [{ index: 2, score: 4.5 }, { index: 0, score: 1.25 }];
  const index = makeIndex(
    [chunk("a", "a.ts"), chunk("b", "b.ts"), chunk("c", "c.ts")],
    [[1, 0.1], [1, 0.5], [1, 2]],
    lexical,
  );
  const { matches } = searchIndex(index, EAST, "q", { mode: "hybrid" });
  assert.deepEqual(matches.map((m) => m.chunk.id), ["a", "c", "b"]);
  assert.ok(Math.abs(matches[0].similarity - (1 / 61 + 1 / 62)) < 1e-12);
  assert.ok(Math.abs(matches[1].similarity - (1 / 63 + 1 / 61)) < 1e-12);
  assert.ok(Math.abs(matches[2].similarity - 1 / 62) < 1e-12);
  assert.equal(matches[1].scores.lexical, 4.5);
  assert.equal(matches[2].scores.lexical, undefined);
  assert.ok(Math.abs(matches[0].scores.dense! - 1 / Math.hypot(1, 0.1)) < 1e-6);
  // rrfK is honoured: with k = 0, a scores 1/1 + 1/2.
  const sharp = searchIndex(index, EAST, "q", { mode: "hybrid", rrfK: 0 });
  assert.deepEqual(sharp.matches.map((m) => m.chunk.id), ["a", "c", "b"]);
  assert.ok(Math.abs(sharp.matches[0].similarity - 1.5) < 1e-12);
});

Deno.test("searchIndex() ranks a generation still embedding as if its dense ranks spread over every row", () => {
  // Rows a and b have vectors, c to f are pending (zeros). BM25 ranks e first, then a.
  // With 2 of 6 rows embedded, dense rank i counts as rank 3i among all rows:
  // a = 1/(60+3) + 1/62 ≈ .03200, e = 1/61 ≈ .01639, b = 1/(60+6) ≈ .01515,
  // so the lexical winner e passes b, which only the part-built dense ranking found.
  const lexical = () => [{ index: 4, score: 6 }, { index: 0, score: 2 }];
  const ids = ["a", "b", "c", "d", "e", "f"];
  const index = {
    ...makeIndex(
      ids.map((id) => chunk(id, `${id}.ts`)),
      [[1, 0.1], [1, 0.5], ...ids.slice(2).map(() => [1, 1])],
      lexical,
    ),
    pending: [[2, 6]] as [number, number][],
  };
  const { matches } = searchIndex(index, EAST, "q", { mode: "hybrid", limit: 3 });
  assert.deepEqual(matches.map((m) => m.chunk.id), ["a", "e", "b"]);
  assert.ok(Math.abs(matches[0].similarity - (1 / 63 + 1 / 62)) < 1e-12);
  assert.ok(Math.abs(matches[2].similarity - 1 / 66) < 1e-12);
});

Deno.test("searchIndex() blends normalised scores, leaning on BM25 for a bare identifier", () => {
  // Dense cosines: a .995, b .894, c .447 → normalised 1, .82, 0; BM25 c 4.5, a 1.25 → 1, 0.
  const lexical = () => [{ index: 2, score: 4.5 }, { index: 0, score: 1.25 }];
  const index = makeIndex(
    [chunk("a", "a.ts"), chunk("b", "b.ts"), chunk("c", "c.ts")],
    [[1, 0.1], [1, 0.5], [1, 2]],
    lexical,
  );
  const blend = (query: string) =>
    searchIndex(index, EAST, query, { mode: "hybrid", fusion: "blend" }).matches;
  // A sentence weighs both alike: a .5, c .5, b .41 (ties break by dense).
  assert.deepEqual(blend("find the thing").map((m) => m.chunk.id), ["a", "c", "b"]);
  // A bare identifier leans on BM25 (.7): c .7, a .3, b .25.
  const named = blend("Thing");
  assert.deepEqual(named.map((m) => m.chunk.id), ["c", "a", "b"]);
  assert.ok(Math.abs(named[0]!.scores.fused! - (0.01 + 0.7)) < 1e-9);
});

Deno.test("searchIndex() runs the ranking stage only when asked", () => {
  const lexical = () => [{ index: 0, score: 5 }, { index: 1, score: 4 }, { index: 2, score: 1 }];
  const index = makeIndex(
    [chunk("t", "mux_test.go"), chunk("m", "mux.go"), chunk("o", "other.go")],
    [[1, 0], [1, 0], [1, 0]],
    lexical,
  );
  const ids = (ranking?: boolean) =>
    searchIndex(index, null, "route", { mode: "lexical", ranking }).matches.map((m) => m.chunk.id);
  assert.deepEqual(ids(), ["t", "m", "o"]);
  assert.deepEqual(ids(true)[0], "m", "the test file falls below the code it tests");
});

Deno.test("searchIndex() in lexical mode ranks by lexical() and ignores minScore", () => {
  const calls: [string, number][] = [];
  const lexical = (q: string, limit: number) => {
    calls.push([q, limit]);
    return [{ index: 0, score: 1 }, { index: 1, score: 3 }];
  };
  const index = makeIndex([chunk("a", "a.ts"), chunk("b", "b.ts")], [[1, 0], [0, 1]], lexical);
  const result = searchIndex(index, null, "token refresh", {
    mode: "lexical",
    limit: 5,
    minScore: 0.5,
  });
  assert.deepEqual(result.matches.map((m) => [m.chunk.id, m.similarity]), [["b", 3], ["a", 1]]);
  assert.deepEqual(calls, [["token refresh", 160]]);
  assert.deepEqual(result.notices, [
    "minScore applies to dense similarity and was ignored in lexical mode",
  ]);
});

Deno.test("searchIndex() rejects bad options and missing inputs", () => {
  const index = makeIndex([chunk("a", "a.ts")], [[1, 0]]);
  const usage = (e: unknown) => e instanceof WayfinderError && e.code === "usage";
  assert.throws(() => searchIndex(index, null, "q", {}), usage);
  assert.throws(() => searchIndex(index, EAST, "q", { mode: "lexical" }), usage);
  assert.throws(() => searchIndex(index, EAST, "q", { limit: 0 }), usage);
});

Deno.test("searchIndex() breaks equal fused scores by dense similarity", () => {
  // Row 0 is first lexically and second densely; row 1 the reverse: equal RRF scores.
  const chunks = [0, 1].map((i) => ({
    id: `c${i}`,
    sourcePath: `f${i}.ts`,
    lineStart: 1,
    lineEnd: 1,
    startOffset: 0,
    endOffset: 1,
    type: "function",
    language: "typescript",
    content: `c${i}`,
    metadata: {},
  }));
  const index = {
    chunks,
    vectors: new Float32Array([0.6, 0.8, 0.8, 0.6]),
    dimensions: 2,
    lexical: () => [{ index: 0, score: 2 }, { index: 1, score: 1 }],
  };
  const result = searchIndex(index, new Float32Array([1, 0]), "q", { mode: "hybrid", limit: 2 });
  assert.equal(result.matches[0]!.similarity, result.matches[1]!.similarity);
  assert.deepEqual(result.matches.map((m) => m.chunk.id), ["c1", "c0"]);
});
