import assert from "node:assert/strict";
import { WayfinderError } from "../error.ts";
import { type SearchableIndex, searchIndex } from "../search/mod.ts";
import type { Chunk, Hit } from "../types.ts";
import { runEvaluation } from "./run_evaluation.ts";

function chunk(id: string, sourcePath: string, lineStart = 1, lineEnd = 10): Chunk {
  return {
    id,
    sourcePath,
    lineStart,
    lineEnd,
    startOffset: 0,
    endOffset: 0,
    type: "function",
    language: sourcePath.endsWith(".md") ? "markdown" : "typescript",
    content: id,
    metadata: {},
  };
}

// Three chunks on the axes of a 3-d space; each query "points" at one axis.
const CHUNKS = [chunk("auth", "src/auth.ts"), chunk("db", "src/db.ts"), chunk("doc", "README.md")];
const INDEX: SearchableIndex = {
  chunks: CHUNKS,
  vectors: new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1]),
  dimensions: 3,
};
const AXES: Record<string, number[]> = {
  login: [1, 0.5, 0.2],
  storage: [0.5, 1, 0.1],
  readme: [0.2, 0.9, 1],
};

function denseRun(name: string) {
  return {
    name,
    search: (query: string, k: number): Promise<Hit[]> => {
      const v = AXES[query];
      const norm = Math.hypot(...v);
      const vector = new Float32Array(v.map((x) => x / norm));
      return Promise.resolve(searchIndex(INDEX, vector, query, { limit: k }).matches);
    },
  };
}

const QUERIES = { q1: "login", q2: "storage", q3: "readme" };
const QRELS = { q1: { auth: 3 }, q2: { db: 2, auth: 1 }, q3: { doc: 3 } };
const GROUPS = { q1: "typescript", q2: "typescript", q3: "markdown" };

Deno.test("runEvaluation() scores each run per query, overall and per group", async () => {
  const reversed = {
    name: "reversed",
    search: async (query: string, k: number) => (await denseRun("").search(query, k)).reverse(),
  };
  const report = await runEvaluation({
    queries: QUERIES,
    judgments: QRELS,
    runs: [denseRun("dense"), reversed],
    k: 2,
    groups: GROUPS,
  });
  assert.equal(report.k, 2);
  assert.deepEqual([report.match, report.unit], ["stable-id", "chunk"]);
  const dense = report.runs[0];
  assert.equal(dense.name, "dense");
  assert.equal(dense.queryCount, 3);
  assert.deepEqual(dense.queries.q1.retrieved, ["auth", "db"]);
  assert.deepEqual(dense.queries.q3.retrieved, ["doc", "db"]);
  assert.deepEqual(dense.metrics, { recall: 1, ndcg: 1, mrr: 1 });
  assert.deepEqual(Object.keys(dense.queryGroups).sort(), ["markdown", "typescript"]);
  assert.equal(dense.queryGroups.typescript.queryCount, 2);

  // Reversed swaps each top two: q1 → [db, auth], q2 → [auth, db], q3 → [db, doc].
  const rev = report.runs[1];
  const third = 1 / Math.log2(3);
  assert.deepEqual(rev.queries.q1.retrieved, ["db", "auth"]);
  assert.deepEqual([rev.queries.q1.recall, rev.queries.q1.mrr], [1, 0.5]);
  assert.ok(Math.abs(rev.queries.q1.ndcg - third) < 1e-12);
  assert.ok(Math.abs(rev.queries.q2.ndcg - (1 + 2 * third) / (2 + third)) < 1e-12);
  assert.equal(rev.queries.q2.mrr, 1);
  assert.equal(rev.queryGroups.markdown.metrics.mrr, 0.5);
  assert.equal(rev.queryGroups.typescript.metrics.mrr, 0.75);
  assert.ok(Math.abs(rev.metrics.mrr - 2 / 3) < 1e-12);
  assert.ok(Math.abs(rev.metrics.ndcg - (2 * third + (1 + 2 * third) / (2 + third)) / 3) < 1e-12);
});

Deno.test("runEvaluation() asks for more chunks in file unit and ranks files", async () => {
  const asked: number[] = [];
  const run = {
    name: "spans",
    search: (_query: string, k: number) => {
      asked.push(k);
      const hits = [
        chunk("a1", "src/a.ts", 1, 5),
        chunk("a2", "src/a.ts", 6, 9),
        chunk("b", "b.md"),
      ];
      return Promise.resolve(hits.map((c) => ({ chunk: c, score: 1, similarity: 1 })));
    },
  };
  const report = await runEvaluation({
    queries: { q1: "x" },
    judgments: { q1: [{ path: "b.md", grade: 2 }] },
    runs: [run],
    k: 3,
    match: "span-overlap",
    unit: "file",
  });
  assert.deepEqual(asked, [12]);
  assert.deepEqual(report.runs[0].queries.q1.retrieved, ["src/a.ts", "b.md"]);
  assert.equal(report.runs[0].metrics.mrr, 0.5);
  assert.deepEqual(report.runs[0].queryGroups, {});
});

Deno.test("runEvaluation() rejects mismatched input before searching", async () => {
  let searched = false;
  const run = {
    name: "r",
    search: () => {
      searched = true;
      return Promise.resolve([]);
    },
  };
  const rejects = (input: Parameters<typeof runEvaluation>[0], code: string, pattern: RegExp) =>
    assert.rejects(
      runEvaluation(input),
      (e) => e instanceof WayfinderError && e.code === code && pattern.test(e.message),
    );
  await rejects({ queries: QUERIES, judgments: { q1: QRELS.q1 }, runs: [run] }, "input", /q2, q3/);
  await rejects(
    { queries: QUERIES, judgments: QRELS, runs: [run], groups: { q1: "x" } },
    "input",
    /queries without a group: q2, q3/,
  );
  await rejects({ queries: QUERIES, judgments: QRELS, runs: [run, run] }, "usage", /'r' repeats/);
  await rejects({ queries: QUERIES, judgments: QRELS, runs: [run], k: 0 }, "usage", /k must be/);
  assert.equal(searched, false);
  await rejects(
    { queries: QUERIES, judgments: QRELS, runs: [run], match: "span-overlap" },
    "input",
    /span-overlap matching needs span qrels/,
  );
});
