/**
 * The retrieval gate for knowledge search: the peer's okf_retrieval
 * held-out questions, with the real model, in knowledge mode with the
 * protocol's policy. Fails when a figure falls below the committed baseline.
 */
import assert from "node:assert/strict";
import { runKnowledgeProtocol } from "../bench/_knowledge_runs.ts";
import { realModel, REPO } from "./_run.ts";

const BASELINE = JSON.parse(
  await Deno.readTextFile(`${REPO}/fixtures/eval/knowledge_baseline.json`),
) as Record<string, { firstCorrect: number; recallAt3: number; mrr: number }>;

Deno.test("okf_retrieval held-out in knowledge mode holds its baseline", async () => {
  const work = await Deno.makeTempDir({ prefix: "wayfinder-knowledge-gate-" });
  try {
    const runs = await runKnowledgeProtocol({
      model: realModel(),
      threads: 1,
      work,
      protocol: "okf_retrieval",
      splits: ["held_out"],
      modes: ["dense"],
    });
    const { summary } = runs[0];
    const expected = BASELINE["okf_retrieval/held_out/dense"];
    assert.equal(summary.answerable, 16);
    assert.ok(
      summary.firstCorrect >= expected.firstCorrect,
      `first correct ${summary.firstCorrect}`,
    );
    assert.ok(summary.recall[3] >= expected.recallAt3, `recall@3 ${summary.recall[3]}`);
    assert.ok(summary.mrr >= expected.mrr - 1e-9, `MRR ${summary.mrr}`);
  } finally {
    await Deno.remove(work, { recursive: true });
  }
});
