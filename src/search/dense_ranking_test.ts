import { deepEqual, equal, ok } from "node:assert/strict";
import { openIndex, writeGeneration } from "../store/mod.ts";
import { syntheticGeneration } from "../store/testdata/synthetic.ts";
import type { Quantization } from "../types.ts";
import { denseRanking } from "./dense_ranking.ts";
import { denseScores } from "./dense_scores.ts";
import { int8Kernel } from "./int8_kernel.ts";
import { topK } from "./top_k.ts";

const ROWS = 20_000;
const DIMENSIONS = 384;

/** Random unit vectors: the worst case for sign bits, which no structure helps. */
function unitRows(count: number, seed: number): Float32Array[] {
  let state = seed;
  const random = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  return Array.from({ length: count }, () => {
    const v = Float32Array.from({ length: DIMENSIONS }, () => random() * 2 - 1);
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  });
}

async function indexWith(quantization: Quantization, vectors: Float32Array[]) {
  const dir = await Deno.makeTempDir();
  const data = syntheticGeneration(ROWS, DIMENSIONS);
  await writeGeneration(dir, { ...data, manifest: { ...data.manifest, quantization }, vectors });
  const index = (await openIndex(dir))!;
  await Deno.remove(dir, { recursive: true });
  return index;
}

for (const kind of ["int8", "binary"] as const) {
  Deno.test(`a ${kind} first pass keeps Recall@10 ≥ 0.99 against exact, with exact scores`, async () => {
    const index = await indexWith(kind, unitRows(ROWS, 11));
    equal(index.quantized?.kind, kind);
    let found = 0;
    const queries = unitRows(20, 99);
    for (const query of queries) {
      const exact = denseScores(index.vectors, DIMENSIONS, query);
      const truth = new Set(topK(exact, 10));
      const ranking = denseRanking(index, query, 10);
      found += ranking.top.filter((row) => truth.has(row)).length;
      for (const row of ranking.top) equal(ranking.score(row), exact[row]);
      deepEqual(ranking.top, ranking.top.slice().sort((a, b) => exact[b]! - exact[a]! || a - b));
    }
    const recall = found / (10 * queries.length);
    ok(recall >= 0.99, `Recall@10 ${recall}`);
  });
}

Deno.test("the int8 wasm kernel computes the same dot products as plain arithmetic", () => {
  const rows = 37;
  const dims = 48;
  const codes = Int8Array.from({ length: rows * dims }, (_, i) => ((i * 7919) % 255) - 127);
  const query = Int16Array.from({ length: dims }, (_, d) => ((d * 104729) % 255) - 127);
  const kernel = int8Kernel(codes, rows, dims);
  ok(kernel, "this runtime has wasm SIMD");
  const dots = kernel.dots(query);
  for (let r = 0; r < rows; r++) {
    let dot = 0;
    for (let d = 0; d < dims; d++) dot += codes[r * dims + d]! * query[d]!;
    equal(dots[r], dot);
  }
  equal(int8Kernel(codes, rows * 3, 16 + 1), null); // widths not a multiple of 16 fall back
});

Deno.test("rows without a vector yet are never ranked, by the exact scan or a first pass", async () => {
  // Every embedded row points away from the query, so the zero rows would outrank them all.
  const vectors = unitRows(ROWS, 5).map((v) => {
    v[0] = v[0]! - 4;
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  });
  const pending: [number, number][] = [[0, 5000], [12_000, 20_000]];
  for (const [start, end] of pending) vectors.fill(new Float32Array(DIMENSIONS), start, end);
  const query = new Float32Array(DIMENSIONS);
  query[0] = 1;
  for (const kind of ["none", "int8", "binary"] as const) {
    const index = { ...await indexWith(kind, vectors), pending };
    const { top } = denseRanking(index, query, 10);
    equal(top.length, 10);
    ok(top.every((row) => row >= 5000 && row < 12_000), `${kind}: ${top}`);
  }
});

Deno.test("rows outside `only` are never ranked, and the kept rows rank as exactly", async () => {
  const vectors = unitRows(ROWS, 7);
  const query = unitRows(1, 3)[0]!;
  const only = new Uint8Array(ROWS);
  for (let row = 0; row < ROWS; row += 97) only[row] = 1;
  const indexes = [];
  for (const kind of ["none", "int8", "binary"] as const) {
    indexes.push(await indexWith(kind, vectors));
  }
  const exact = denseScores(indexes[0]!.vectors, DIMENSIONS, query);
  const kept = [...only.keys()].filter((row) => only[row] === 1);
  const truth = kept.sort((a, b) => exact[b]! - exact[a]! || a - b).slice(0, 10);
  for (const index of indexes) {
    const kind = index.quantized?.kind ?? "none";
    const { top } = denseRanking(index, query, 10, only);
    ok(top.every((row) => only[row] === 1), `${kind}: ${top}`);
    deepEqual(top, truth, kind);
  }
});
