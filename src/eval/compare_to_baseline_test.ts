import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { WayfinderError } from "../error.ts";
import { type BaselineReport, compareToBaseline } from "./compare_to_baseline.ts";
import { loadReport } from "./load_report.ts";

/** The peer's judged queries and baseline, vendored (see fixtures/ATTRIBUTION.md). */
const PEER = fileURLToPath(new URL("../../fixtures/eval", import.meta.url));

function report(
  runs: Record<
    string,
    { recall: number; ndcg: number; mrr: number; groups?: Record<string, number> }
  >,
): BaselineReport {
  return {
    k: 10,
    runs: Object.entries(runs).map(([name, m]) => ({
      name,
      metrics: { recall: m.recall, ndcg: m.ndcg, mrr: m.mrr },
      queryGroups: Object.fromEntries(
        Object.entries(m.groups ?? {}).map(([g, recall]) => [g, {
          queryCount: 1,
          metrics: { recall, ndcg: m.ndcg, mrr: m.mrr },
        }]),
      ),
    })),
  };
}

Deno.test("compareToBaseline() passes drops within tolerance", () => {
  const baseline = report({ dense: { recall: 0.9, ndcg: 0.8, mrr: 0.9, groups: { dart: 0.9 } } });
  const current = report({ dense: { recall: 0.85, ndcg: 0.77, mrr: 0.5, groups: { dart: 0.86 } } });
  assert.deepEqual(compareToBaseline(current, baseline), []);
  const better = report({ dense: { recall: 1, ndcg: 1, mrr: 1, groups: { dart: 1 } } });
  assert.deepEqual(compareToBaseline(better, baseline), []);
});

Deno.test("compareToBaseline() finds a drop overall and per group", () => {
  const baseline = report({
    dense: { recall: 0.9, ndcg: 0.8, mrr: 0.9, groups: { dart: 0.9, md: 0.7 } },
  });
  const current = report({
    dense: { recall: 0.9, ndcg: 0.76, mrr: 0.9, groups: { dart: 0.8, md: 0.7 } },
  });
  const found = compareToBaseline(current, baseline);
  assert.equal(found.length, 4);
  const [ndcg, dartRecall] = found;
  assert.deepEqual(
    { ...ndcg, drop: Math.round(ndcg.drop * 1e6) / 1e6 },
    {
      run: "dense",
      group: "overall",
      metric: "ndcg",
      baseline: 0.8,
      current: 0.76,
      drop: 0.04,
      allowed: 0.03,
    },
  );
  assert.deepEqual([dartRecall.group, dartRecall.metric, dartRecall.allowed], [
    "dart",
    "recall",
    0.05,
  ]);
  assert.deepEqual(found.slice(2).map((r) => [r.group, r.metric]), [["dart", "ndcg"], [
    "md",
    "ndcg",
  ]]);
});

Deno.test("compareToBaseline() gates MRR only when asked, with custom tolerances", () => {
  const baseline = report({ dense: { recall: 0.9, ndcg: 0.8, mrr: 0.9 } });
  const current = report({ dense: { recall: 0.8, ndcg: 0.8, mrr: 0.7 } });
  assert.deepEqual(compareToBaseline(current, baseline, { maxRecallDrop: 0.2 }), []);
  const found = compareToBaseline(current, baseline, { maxRecallDrop: 0.2, maxMrrDrop: 0.1 });
  assert.deepEqual(found.map((r) => r.metric), ["mrr"]);
});

Deno.test("compareToBaseline() counts a missing run or group as a regression", () => {
  const baseline = report({
    dense: { recall: 0.9, ndcg: 0.8, mrr: 0.9, groups: { dart: 0.9 } },
    hybrid: { recall: 0.9, ndcg: 0.8, mrr: 0.9 },
  });
  const current = report({
    dense: { recall: 0.9, ndcg: 0.8, mrr: 0.9 },
    fresh: { recall: 0, ndcg: 0, mrr: 0 },
  });
  const found = compareToBaseline(current, baseline);
  assert.deepEqual(found.map((r) => [r.run, r.group, r.metric, r.current]), [
    ["dense", "dart", "recall", null],
    ["dense", "dart", "ndcg", null],
    ["hybrid", "overall", "recall", null],
    ["hybrid", "overall", "ndcg", null],
  ]);
  assert.equal(found[2].drop, 0.9);
});

Deno.test("compareToBaseline() refuses reports made at another k", () => {
  const baseline = report({ dense: { recall: 0.9, ndcg: 0.8, mrr: 0.9 } });
  assert.throws(
    () => compareToBaseline({ ...baseline, k: 5 }, baseline),
    (e) =>
      e instanceof WayfinderError && e.code === "input" && /k 10, this report 5/.test(e.message),
  );
});

Deno.test("loadReport() reads the peer's baseline and our own reports", async () => {
  const peer = await loadReport(`${PEER}/bm25_metrics_baseline.json`);
  assert.equal(peer.k, 10);
  assert.equal(peer.runs[0].name, "bm25");
  assert.ok(Math.abs(peer.runs[0].metrics.recall - 0.9423076923076923) < 1e-12);
  assert.deepEqual(Object.keys(peer.runs[0].queryGroups!), ["dart", "typescript", "markdown"]);
  assert.deepEqual(compareToBaseline(peer, peer), []);

  const dir = await Deno.makeTempDir();
  const ours = report({ dense: { recall: 0.5, ndcg: 0.5, mrr: 0.5, groups: { dart: 0.5 } } });
  await Deno.writeTextFile(join(dir, "r.json"), JSON.stringify(ours));
  const back = await loadReport(join(dir, "r.json"));
  assert.deepEqual(back.runs[0].queryGroups, ours.runs[0].queryGroups);
  await Deno.writeTextFile(join(dir, "bad.json"), JSON.stringify({ runs: [{ name: "x" }] }));
  await assert.rejects(
    loadReport(join(dir, "bad.json")),
    (e) => e instanceof WayfinderError && /run 'x' has no metrics/.test(e.message),
  );
});
