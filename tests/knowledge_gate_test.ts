/**
 * The retrieval gate for knowledge search: the peer's okf_retrieval
 * held-out questions and embedding_comparison test questions, with the real
 * model, in knowledge mode with each protocol's policy. Fails when a figure
 * falls below the committed baseline.
 */
import assert from "node:assert/strict";
import { type KnowledgeRunOptions, runKnowledgeProtocol } from "../bench/_knowledge_runs.ts";
import { realModel, REPO } from "./_run.ts";

const BASELINE = JSON.parse(
  await Deno.readTextFile(`${REPO}/fixtures/eval/knowledge_baseline.json`),
) as Record<string, { answerable: number; firstCorrect: number; recallAt3: number; mrr?: number }>;

/** Runs one protocol's split densely and checks it against its baseline entry. */
async function holdsBaseline(protocol: KnowledgeRunOptions["protocol"], split: string) {
  const work = await Deno.makeTempDir({ prefix: "wayfinder-knowledge-gate-" });
  try {
    const [{ summary }] = await runKnowledgeProtocol({
      model: realModel(),
      threads: 1,
      work,
      protocol,
      splits: [split],
      modes: ["dense"],
    });
    const expected = BASELINE[`${protocol}/${split}/dense`];
    assert.equal(summary.answerable, expected.answerable);
    assert.ok(
      summary.firstCorrect >= expected.firstCorrect,
      `first correct ${summary.firstCorrect}`,
    );
    assert.ok(summary.recall[3] >= expected.recallAt3 - 1e-9, `recall@3 ${summary.recall[3]}`);
    if (expected.mrr !== undefined) {
      assert.ok(summary.mrr >= expected.mrr - 1e-9, `MRR ${summary.mrr}`);
    }
  } finally {
    await Deno.remove(work, { recursive: true });
  }
}

Deno.test("okf_retrieval held-out in knowledge mode holds its baseline", async () => {
  await holdsBaseline("okf_retrieval", "held_out");
});

Deno.test("embedding_comparison test in knowledge mode holds its baseline", async () => {
  await holdsBaseline("embedding_comparison", "test");
});
