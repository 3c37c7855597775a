import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { readFile } from "node:fs/promises";
import type { Chunk, Hit } from "../types.ts";
import type { SpanJudgment } from "./load_span_qrels.ts";
import { scoreQuery } from "./score_query.ts";

/** The peer's judged queries and baseline, vendored (see fixtures/ATTRIBUTION.md). */
const PEER = fileURLToPath(new URL("../../fixtures/eval", import.meta.url));

function hit(id: string, sourcePath = `${id}.ts`, lineStart = 1, lineEnd = 1): Hit {
  const chunk: Chunk = {
    id,
    sourcePath,
    lineStart,
    lineEnd,
    startOffset: 0,
    endOffset: 0,
    type: "function",
    language: "typescript",
    content: "",
    metadata: {},
  };
  return { chunk, score: 0, similarity: 0 };
}

function close(actual: number, expected: number) {
  assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} ≠ ${expected}`);
}

const GRADED = { a: 3, b: 2, c: 1, z: 0 };

Deno.test("scoreQuery() computes nDCG with linear gain, recall and MRR at k", () => {
  const hits = ["b", "x", "a", "c"].map((id) => hit(id));
  // DCG = 2/log2(2) + 3/log2(4) + 1/log2(5); IDCG = 3 + 2/log2(3) + 1/log2(4).
  const all = scoreQuery(hits, GRADED, { k: 10, match: "stable-id", unit: "chunk" });
  close(all.ndcg, 3.930676558073393 / 4.7618595071429155);
  close(all.ndcg, 0.8254499218587348);
  assert.equal(all.recall, 1);
  assert.equal(all.mrr, 1);
  assert.deepEqual(all.retrieved, ["b", "x", "a", "c"]);
  const at3 = scoreQuery(hits, GRADED, { k: 3, match: "stable-id", unit: "chunk" });
  close(at3.ndcg, 0.7350069851388743);
  close(at3.recall, 2 / 3);
  assert.deepEqual(at3.retrieved, ["b", "x", "a"]);
});

Deno.test("scoreQuery() takes MRR from the first hit with a grade above 0", () => {
  const hits = ["z", "x", "c"].map((id) => hit(id));
  const score = scoreQuery(hits, GRADED, { k: 10, match: "stable-id", unit: "chunk" });
  close(score.mrr, 1 / 3);
  const none = scoreQuery(hits, GRADED, { k: 2, match: "stable-id", unit: "chunk" });
  assert.deepEqual([none.recall, none.ndcg, none.mrr], [0, 0, 0]);
});

Deno.test("scoreQuery() counts a repeated chunk id once", () => {
  const score = scoreQuery([hit("a"), hit("a"), hit("b")], GRADED, {
    k: 2,
    match: "stable-id",
    unit: "chunk",
  });
  assert.deepEqual(score.retrieved, ["a", "b"]);
  close(score.recall, 2 / 3);
});

const SPANS: SpanJudgment[] = [
  { path: "a.ts", lineStart: 10, lineEnd: 20, grade: 3 },
  { path: "a.ts", lineStart: 30, lineEnd: 40, grade: 2 },
  { path: "b.ts", grade: 1 },
];

Deno.test("scoreQuery() credits each span once, to the first chunk overlapping it", () => {
  const hits = [
    hit("class", "a.ts", 1, 50), // covers both spans of a.ts: gain 3, credits both
    hit("method", "a.ts", 10, 20), // its span is already credited: gain 0
    hit("gap", "a.ts", 21, 29), // between the spans: gain 0
    hit("far", "b.ts", 100, 120), // the whole-file judgment: gain 1
  ];
  const score = scoreQuery(hits, SPANS, { k: 10, match: "span-overlap", unit: "chunk" });
  assert.equal(score.recall, 1);
  // DCG = 3 + 1/log2(5); IDCG = 3 + 2/log2(3) + 1/log2(4).
  close(score.ndcg, 0.7204489239817528);
  assert.equal(score.mrr, 1);
  assert.deepEqual(score.retrieved, ["class", "method", "gap", "far"]);
});

Deno.test("scoreQuery() matches spans by path and inclusive line overlap", () => {
  const hits = [
    hit("other", "c.ts", 10, 20),
    hit("edge", "./a.ts", 20, 25), // touches line 20 of the first span
    hit("tail", "a.ts", 40, 44),
  ];
  const score = scoreQuery(hits, SPANS, { k: 10, match: "span-overlap", unit: "chunk" });
  close(score.recall, 2 / 3);
  close(score.mrr, 1 / 2);
  close(score.ndcg, (3 / Math.log2(3) + 2 / Math.log2(4)) / 4.7618595071429155);
});

Deno.test("scoreQuery() in file unit ranks files by their best chunk", () => {
  const hits = [
    hit("c1", "c.ts", 1, 5),
    hit("a1", "a.ts", 60, 70), // no span overlaps, but the file is judged
    hit("a2", "a.ts", 10, 20),
    hit("b1", "b.ts", 1, 2),
  ];
  const score = scoreQuery(hits, SPANS, { k: 10, match: "span-overlap", unit: "file" });
  assert.deepEqual(score.retrieved, ["c.ts", "a.ts", "b.ts"]);
  // Files a.ts (grade 3) and b.ts (1): DCG = 3/log2(3) + 1/log2(4); IDCG = 3 + 1/log2(3).
  close(score.ndcg, 0.6590018048024133);
  assert.equal(score.recall, 1);
  assert.equal(score.mrr, 0.5);
});

Deno.test("scoreQuery() in file unit resolves judged chunk ids to paths", () => {
  const paths: Record<string, string> = { a: "src/x.ts", b: "src/x.ts", c: "src/y.ts" };
  const options = {
    k: 10,
    match: "stable-id",
    unit: "file",
    pathOf: (id: string) => paths[id],
  } as const;
  const score = scoreQuery([hit("other", "src/y.ts"), hit("q", "src/x.ts")], GRADED, options);
  assert.deepEqual(score.retrieved, ["src/y.ts", "src/x.ts"]);
  close(score.ndcg, (1 + 3 / Math.log2(3)) / (3 + 1 / Math.log2(3)));
  assert.equal(score.mrr, 1);
  assert.throws(
    () => scoreQuery([], GRADED, { k: 10, match: "stable-id", unit: "file" }),
    /needs the paths of judged chunks/,
  );
});

Deno.test("scoreQuery() reproduces the peer's per-query BM25 metrics from its rankings", async () => {
  const qrels = JSON.parse(await readFile(`${PEER}/retrieval_qrels.json`, "utf8"));
  const baseline = JSON.parse(await readFile(`${PEER}/bm25_metrics_baseline.json`, "utf8"));
  const queries = baseline.runs[0].queries as {
    queryId: string;
    metrics: { recall: number; ndcg: number; mrr: number };
    rankedChunkIds: string[];
    retrievedRelevantChunkIds: string[];
  }[];
  // The baseline predates a change to one judged chunk (q045's relevant id is
  // no longer in the qrels), so check the queries whose relevant ids agree.
  const consistent = queries.filter((q) =>
    q.retrievedRelevantChunkIds.every((id) => Object.hasOwn(qrels[q.queryId], id))
  );
  assert.equal(consistent.length, 64);
  for (const q of consistent) {
    const hits = q.rankedChunkIds.map((id) => hit(id));
    const score = scoreQuery(hits, qrels[q.queryId], {
      k: baseline.k,
      match: "stable-id",
      unit: "chunk",
    });
    close(score.recall, q.metrics.recall);
    close(score.ndcg, q.metrics.ndcg);
    close(score.mrr, q.metrics.mrr);
  }
});
