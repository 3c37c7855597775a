import assert from "node:assert/strict";
import { scoreLabel } from "./render.ts";

Deno.test("scoreLabel() names the score a hit was ranked by, and none for an unranked passage", () => {
  const cases: [Parameters<typeof scoreLabel>[0], string][] = [
    [{ similarity: 0.69312, scores: { dense: 0.69312 } }, "cos 0.693"],
    [{ similarity: 8.2713, scores: { dense: 0.5, lexical: 8.2713 } }, "bm25 8.27"],
    [
      { similarity: 1 / 61 + 1 / 62, scores: { dense: 0.5, lexical: 3, fused: 1 / 61 + 1 / 62 } },
      "rrf 0.0325",
    ],
    [{ similarity: 0.91, scores: { dense: 0.4, fused: 0.03, rerank: 0.91 } }, "rerank 0.910"],
    // Past the reranked top, a hit keeps the score it was ranked by before.
    [{ similarity: 0.03, scores: { dense: 0.4, lexical: 2, fused: 0.03 } }, "rrf 0.0300"],
    // A governing source that no ranking scored.
    [{ similarity: 0, scores: {} }, ""],
  ];
  for (const [hit, label] of cases) assert.equal(scoreLabel(hit), label, JSON.stringify(hit));
});
