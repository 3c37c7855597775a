import assert from "node:assert/strict";
import { meetsGoal } from "./_report.ts";
import { benchTable, parseBenchJson, type SuiteOutcome, suiteRows } from "./run_table.ts";

Deno.test("meetsGoal() checks a leading target against the ratio, and only that", () => {
  assert.equal(meetsGoal("target ≤ 1.2", 1.19), true);
  assert.equal(meetsGoal("target ≤ 1.2", 1.21), false);
  assert.equal(meetsGoal("target ≥ 0.8, on one core", 0.79), false);
  assert.equal(meetsGoal("target ≥ 0.8", 0.8), true);
  assert.equal(meetsGoal("the cost of verifying", 9), undefined);
});

Deno.test("suiteRows() lists reported rows, a skip, a crash and bench groups", () => {
  const reported: SuiteOutcome = {
    suite: "bench/a_bench.ts",
    rows: [
      {
        target: "query p50",
        value: { label: "dense", amount: 33.84, unit: "ms" },
        baseline: { label: "raw scan", amount: 32.8 },
        ratio: 33.84 / 32.8,
        goal: "target ≤ 1.2",
        met: true,
      },
      { target: "real vectors", skipped: "no real index" },
    ],
    // Deno.bench results of a suite that reports are its own repeats: left out.
    benches: [{ name: "raw", group: "q", baseline: true, avgNs: 1 }],
    failure: "signal SIGABRT",
  };
  assert.deepEqual(suiteRows(reported), [
    [
      "bench/a_bench.ts",
      "query p50",
      "dense 33.8 ms",
      "raw scan 32.8 ms",
      "1.03",
      "target ≤ 1.2",
      "yes",
    ],
    ["bench/a_bench.ts", "real vectors", "skipped: no real index", "", "", "", ""],
    ["bench/a_bench.ts", "", "crashed: signal SIGABRT", "", "", "", ""],
  ]);
  const skipped: SuiteOutcome = {
    suite: "bench/b_bench.ts",
    rows: [{ target: "(suite)", skipped: "no model", suite: true }],
    benches: [],
    failure: "exit code 1",
  };
  assert.deepEqual(suiteRows(skipped), [[
    "bench/b_bench.ts",
    "",
    "skipped: no model",
    "",
    "",
    "",
    "",
  ]]);
});

Deno.test("suiteRows() sets each Deno.bench result against its group's baseline", () => {
  const json = JSON.stringify({
    version: 1,
    benches: [
      { name: "raw", group: "embed", baseline: true, results: [{ ok: { avg: 2e9 } }] },
      { name: "wrapped", group: "embed", baseline: false, results: [{ ok: { avg: 2.5e9 } }] },
      { name: "alone", group: null, baseline: false, results: [{ ok: { avg: 1500 } }] },
      { name: "broken", group: null, baseline: false, results: [{ failed: "x" }] },
    ],
  });
  const outcome = { suite: "s", rows: [], benches: parseBenchJson(json) };
  assert.deepEqual(suiteRows(outcome), [
    ["s", "embed: wrapped", "2.50 s", "raw 2.00 s", "1.25", "", ""],
    ["s", "alone", "1.50 µs", "", "", "", ""],
    ["s", "broken", "failed", "", "", "", ""],
  ]);
});

Deno.test("benchTable() is one Markdown table with pipes in cells escaped", () => {
  const table = benchTable([{
    suite: "s",
    rows: [{ target: "a|b", skipped: "why" }],
    benches: [],
  }]);
  assert.deepEqual(table.split("\n"), [
    "| suite | target | measured | baseline | ratio | goal | met? |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    "| s | a\\|b | skipped: why |  |  |  |  |",
  ]);
});
