import assert from "node:assert/strict";
import { scoreLabel } from "./render.ts";

Deno.test("scoreLabel() names the score a hit was ranked by, and none for an unranked passage", () => {
  const cases: [Parameters<typeof scoreLabel>[0], string][] = [
    [{ score: 0.69312, scores: { dense: 0.69312 } }, "cos 0.693"],
    [{ score: 8.2713, scores: { dense: 0.5, lexical: 8.2713 } }, "bm25 8.27"],
    [
      { score: 1 / 61 + 1 / 62, scores: { dense: 0.5, lexical: 3, fused: 1 / 61 + 1 / 62 } },
      "rrf 0.0325",
    ],
    [{ score: 0.91, scores: { dense: 0.4, fused: 0.03, rerank: 0.91 } }, "rerank 0.910"],
    // Past the reranked top, a hit keeps the score it was ranked by before.
    [{ score: 0.03, scores: { dense: 0.4, lexical: 2, fused: 0.03 } }, "rrf 0.0300"],
    [{ score: 1.35, scores: { lexical: 8.3, ranked: 1.35 } }, "ranked 1.350"],
    // A governing source that no ranking scored.
    [{ score: 0, scores: {} }, ""],
  ];
  for (const [hit, label] of cases) assert.equal(scoreLabel(hit), label, JSON.stringify(hit));
});
