import assert from "node:assert/strict";
import { unmatchedJudgments } from "./unmatched_judgments.ts";

const chunks = [
  { id: "c1", sourcePath: "src/a.ts", lineStart: 1, lineEnd: 20 },
  { id: "c2", sourcePath: "src/b.ts", lineStart: 5, lineEnd: 9 },
];

Deno.test("unmatchedJudgments: chunk ids the corpus lacks, relevant ones only", () => {
  assert.deepEqual(
    unmatchedJudgments(
      { q1: { c1: 2, gone: 1, irrelevant: 0 }, q2: { c2: 1 } },
      "stable-id",
      chunks,
    ),
    [{ query: "q1", judgment: "gone" }],
  );
});

Deno.test("unmatchedJudgments: spans over files the corpus lacks or past their chunks", () => {
  const spans = {
    q1: [
      { path: "src/a.ts", grade: 2 },
      { path: "src/b.ts", lineStart: 8, lineEnd: 30, grade: 1 },
      { path: "src/renamed.ts", grade: 1 },
    ],
    q2: [
      { path: "src/b.ts", lineStart: 12, grade: 1 },
      { path: "src/b.ts", lineStart: 40, lineEnd: 50, grade: 0 },
    ],
  };
  assert.deepEqual(unmatchedJudgments(spans, "span-overlap", chunks), [
    { query: "q1", judgment: "src/renamed.ts" },
    { query: "q2", judgment: "src/b.ts:12-end" },
  ]);
});
