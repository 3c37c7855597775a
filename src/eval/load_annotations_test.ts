import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { WayfinderError } from "../error.ts";
import type { Chunk, Hit } from "../types.ts";
import { inferCategory, loadAnnotations, parseAnnotations } from "./load_annotations.ts";
import { runEvaluation } from "./run_evaluation.ts";

/** A tiny benchmark in the public code-search benchmark's format (see fixtures/benchmark). */
const MINI = fileURLToPath(
  new URL("../../fixtures/benchmark/annotations/mini.json", import.meta.url),
);

/** A chunk of the corpus `src/` of the fixture repository: paths are relative to it. */
function hit(where: string): Hit {
  const [sourcePath, lines] = where.split(":");
  const [lineStart, lineEnd] = lines!.split("-").map(Number);
  const chunk: Chunk = {
    id: where,
    sourcePath: sourcePath!,
    lineStart: lineStart!,
    lineEnd: lineEnd!,
    startOffset: 0,
    endOffset: 0,
    type: "function",
    language: "python",
    content: "",
    metadata: {},
  };
  return { chunk, score: 0, similarity: 0 };
}

/** A fixed ranking per query, as a retriever over `src/` might return it. */
const RANKINGS: Record<string, string[]> = {
  "Router": ["handlers.py:1-11", "router.py:1-19"],
  "how requests are dispatched to handlers": [
    "router.py:1-10",
    "router.py:11-19",
    "handlers.py:1-11",
  ],
  "parse query string parameters": ["params.py:1-9", "params.py:11-18"],
  "retry a failed call with exponential backoff": ["retry.py:1-13"],
};

const close = (actual: number, expected: number) =>
  assert.ok(Math.abs(actual - expected) < 1e-4, `${actual} ≠ ${expected}`);

Deno.test("parseAnnotations() reads queries, targets and categories as the benchmark does", async () => {
  const annotations = (await loadAnnotations(MINI))!;
  assert.deepEqual(Object.keys(annotations.queries), ["q1", "q2", "q3", "q4"]);
  assert.deepEqual(annotations.groups, {
    q1: "symbol",
    q2: "architecture",
    q3: "semantic",
    q4: "semantic", // unlabelled: inferred from the text
  });
  assert.deepEqual(annotations.judgments.q2.map((j) => [j.path, j.grade]), [
    ["src/router.py", 1],
    ["src/handlers.py", 1], // secondary gains 1 as well
  ]);
  assert.deepEqual(annotations.judgments.q3[0], {
    path: "src/params.py",
    grade: 1,
    suffixMatch: true,
    lineStart: 11,
    lineEnd: 18,
  });
});

Deno.test("the benchmark's nDCG@10 on the fixture, computed by hand", async () => {
  const annotations = (await loadAnnotations(MINI))!;
  const report = await runEvaluation({
    ...annotations,
    match: "span-overlap",
    runs: [{
      name: "fixed",
      search: (query, k) => Promise.resolve(RANKINGS[query]!.slice(0, k).map(hit)),
    }],
  });
  const run = report.runs[0]!;
  const ndcg = (q: string) => run.queries[q]!.ndcg;
  // q1: the target file at chunk rank 2: (1/log2 3) / 1.
  close(ndcg("q1"), 0.63093);
  // q2: router.py at rank 1 and again at 2 (no second credit, but it takes the rank),
  // handlers.py at 3: (1 + 1/log2 4) / (1 + 1/log2 3) = 1.5 / 1.63093.
  close(ndcg("q2"), 0.91972);
  // q3: a span target: lines 1-9 miss lines 11-18, the chunk at rank 2 overlaps.
  close(ndcg("q3"), 0.63093);
  // q4: one of two targets (the second is in no file) at rank 1: 1 / (1 + 1/log2 3).
  close(ndcg("q4"), 0.61315);
  close(run.metrics.ndcg, (0.63093 + 0.91972 + 0.63093 + 0.61315) / 4);
  close(run.queryGroups.symbol!.metrics.ndcg, 0.63093);
  close(run.queryGroups.architecture!.metrics.ndcg, 0.91972);
  close(run.queryGroups.semantic!.metrics.ndcg, (0.63093 + 0.61315) / 2);
});

Deno.test("annotation paths match chunk paths by suffix either way, and a lone line bound is ignored", () => {
  const { judgments } = parseAnnotations([
    { query: "x", relevant: [{ path: "pkg/src/a.py", start_line: 5 }], secondary: [] },
  ], "a.json");
  assert.deepEqual(judgments.q1, [{ path: "pkg/src/a.py", grade: 1, suffixMatch: true }]);
});

Deno.test("inferCategory() follows the benchmark's rule", () => {
  assert.equal(inferCategory("Mux"), "symbol");
  assert.equal(inferCategory("How does routing work"), "architecture");
  assert.equal(inferCategory("parse a header"), "semantic");
});

Deno.test("loadAnnotations() returns null for other query files and rejects a bad target", async () => {
  const path = await Deno.makeTempFile({ suffix: ".json" });
  await Deno.writeTextFile(path, JSON.stringify([{ id: "a", text: "find x" }]));
  assert.equal(await loadAnnotations(path), null);
  await Deno.writeTextFile(path, JSON.stringify([{ query: "x", relevant: [3] }]));
  await assert.rejects(
    loadAnnotations(path),
    (e) => e instanceof WayfinderError && e.code === "input" && /target 1/.test(e.message),
  );
});
