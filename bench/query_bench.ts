/**
 * Target 1, query: dense search over 100k chunks against a raw Float32Array
 * dot-product scan in the same process, and the int8 and binary first
 * passes (with exact rescoring) against the exact scan, with their
 * Recall@10 against exact. On synthetic random unit vectors (the worst case
 * for sign bits) and, when `bench/_real_index.ts` has prepared it, on the
 * real model's vectors of a real corpus.
 *
 *   deno bench -A bench/query_bench.ts      (WAYFINDER_BENCH_ROWS=100000 by default)
 */
import { searchIndex } from "../src/search/mod.ts";
import { denseRanking } from "../src/search/dense_ranking.ts";
import { openIndex, type StoredIndex } from "../src/store/mod.ts";
import { median, report, skipped } from "./_report.ts";
import { queryVectors, syntheticIndex } from "./_synthetic_index.ts";
import { quantizedCopies, REAL_INDEX, realQueries } from "./_real_index.ts";

const ROWS = Number(Deno.env.get("WAYFINDER_BENCH_ROWS") ?? 100_000);
const KINDS = ["none", "int8", "binary"] as const;

/** The baseline: one plain loop of dot products over every row, as anyone would write it. */
function rawScan(vectors: Float32Array, dimensions: number, query: Float32Array): Float32Array {
  const rows = vectors.length / dimensions;
  const scores = new Float32Array(rows);
  for (let row = 0; row < rows; row++) {
    let dot = 0;
    for (let d = 0; d < dimensions; d++) dot += vectors[row * dimensions + d]! * query[d]!;
    scores[row] = dot;
  }
  return scores;
}

const search = (index: StoredIndex, query: Float32Array) =>
  searchIndex(index, query, "", { limit: 10, mode: "dense" }).matches.map((m) => m.chunk.id);

/** Median milliseconds of each variant, interleaved so load on the machine hits all alike. */
function timings(runs: Record<string, (q: Float32Array) => unknown>, queries: Float32Array[]) {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(runs).map((k) => [k, []]));
  for (let round = 0; round < 3; round++) {
    for (const query of queries) {
      for (const [name, run] of Object.entries(runs)) {
        const start = performance.now();
        run(query);
        times[name]!.push(performance.now() - start);
      }
    }
  }
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
}

/** Recall@10 of each quantized index's hits against the exact index's. */
function recalls(indexes: Record<string, StoredIndex>, queries: Float32Array[]) {
  const out: Record<string, number> = {};
  for (const kind of ["int8", "binary"]) {
    let found = 0;
    for (const query of queries) {
      const truth = new Set(search(indexes.none!, query));
      found += search(indexes[kind]!, query).filter((id) => truth.has(id)).length;
    }
    out[kind] = found / (10 * queries.length);
  }
  return out;
}

/**
 * Recall@10 of the first pass alone, asked for 10 rows: it hands on the same
 * share of the index as at 100k (binary: a twentieth), so a small real index
 * tests the codes as a large one would use them.
 */
function firstPassRecall(indexes: Record<string, StoredIndex>, queries: Float32Array[]) {
  const out: Record<string, number> = {};
  for (const kind of ["int8", "binary"]) {
    let found = 0;
    for (const query of queries) {
      const truth = new Set(denseRanking(indexes.none!, query, 10).top);
      found += denseRanking(indexes[kind]!, query, 10).top.filter((r) => truth.has(r)).length;
    }
    out[kind] = found / (10 * queries.length);
  }
  return out;
}

const count = (indexes: Record<string, StoredIndex>) => indexes.none!.chunks.length;

/**
 * Times and recalls of one set of indexes. The time targets are set for
 * 100k rows: at a small index's size the fixed costs dominate, so there its
 * times are reported without a target.
 */
function measure(label: string, indexes: Record<string, StoredIndex>, queries: Float32Array[]) {
  const { vectors, dimensions } = indexes.none!;
  // One file's chunks: a filter so narrow that the widened window starves and only kept rows rank.
  const oneFile = { paths: [indexes.none!.chunks[Math.floor(count(indexes) / 2)]!.sourcePath] };
  const ms = timings({
    raw: (q) => rawScan(vectors, dimensions, q),
    none: (q) => search(indexes.none!, q),
    int8: (q) => search(indexes.int8!, q),
    binary: (q) => search(indexes.binary!, q),
    filtered: (q) => searchIndex(indexes.none!, q, "", { limit: 10, filter: oneFile }),
  }, queries);
  const recall = recalls(indexes, queries);
  const first = firstPassRecall(indexes, queries);
  const rows = count(indexes).toLocaleString("en");
  const timeGoal = (goal: string) =>
    count(indexes) >= 100_000 ? goal : `set for 100k rows: ${goal}`;
  const exact = { label: "raw scan", amount: ms.raw! };
  report(
    `query p50, ${label} ${rows}`,
    { label: "dense exact", amount: ms.none!, unit: "ms" },
    exact,
    timeGoal("target ≤ 1.2"),
  );
  report(
    `query p50, ${label} ${rows}`,
    { label: "dense exact, one file's path filter", amount: ms.filtered!, unit: "ms" },
    { label: "dense exact", amount: ms.none! },
    "no target: the filter starves the window, so the kept rows are ranked again",
  );
  const truth = { label: "exact search", amount: 1 };
  for (const kind of ["int8", "binary"]) {
    report(
      `query p50, ${label} ${rows}`,
      { label: `${kind} first pass + rescoring`, amount: ms[kind]!, unit: "ms" },
      { label: "dense exact", amount: ms.none! },
      timeGoal("target ≤ 0.2, i.e. ≥ 5× faster"),
    );
    report(
      `Recall@10 against exact, ${label} ${rows}`,
      { label: `${kind} first pass + rescoring`, amount: recall[kind]!, unit: "" },
      truth,
      "target ≥ 0.99",
    );
    report(
      `Recall@10 against exact, ${label} ${rows}`,
      { label: `${kind} first pass alone`, amount: first[kind]!, unit: "" },
      truth,
      kind === "int8" ? "20 candidates" : "a twentieth of the rows, as at 100k",
    );
  }
}

const synthetic: Record<string, StoredIndex> = {};
for (const kind of KINDS) synthetic[kind] = (await openIndex(await syntheticIndex(ROWS, kind)))!;
const queries = queryVectors(50);
measure("synthetic random unit vectors,", synthetic, queries);

// Joint vectors (a static model beside the GGUF, src/embed/joint.ts) are 384 + 256 wide.
const JOINT = 640;
const joint = (await openIndex(await syntheticIndex(ROWS, "none", JOINT)))!;
const jointQueries = queryVectors(50, JOINT);
const widths = timings({
  // The plain index takes the query's first 384 values: the time does not depend on them.
  plain: (q) => search(synthetic.none!, q.subarray(0, synthetic.none!.dimensions)),
  joint: (q) => search(joint, q),
}, jointQueries);
report(
  `query p50, synthetic ${ROWS.toLocaleString("en")}`,
  { label: `dense exact, joint vectors (${JOINT} wide)`, amount: widths.joint!, unit: "ms" },
  { label: `dense exact, ${synthetic.none!.dimensions} wide`, amount: widths.plain! },
  "no target: the cost of joint vectors' width",
);

const real = await quantizedCopies().catch(() => null);
if (real) measure("real MiniLM vectors,", real, await realQueries());
else {
  skipped(
    "query p50, real MiniLM vectors",
    `no real index at ${REAL_INDEX}: run 'deno run -A bench/_real_index.ts' to add one`,
  );
}

const [query] = queries;
const { vectors, dimensions } = synthetic.none!;
Deno.bench("raw Float32Array scan", { group: "query", baseline: true }, () => {
  rawScan(vectors, dimensions, query!);
});
for (const kind of KINDS) {
  Deno.bench(`searchIndex dense, ${kind}`, { group: "query" }, () => {
    search(synthetic[kind]!, query!);
  });
}
