/**
 * The three ways to build a dense index, measured on the peer corpus
 * (fixtures/corpus, its 65 judged queries, span judgments, k = 10):
 *
 * - static only: the static model distilled from the transformer;
 * - tiered: the transformer's vectors filling in behind the static tier, at
 *   each coverage the run passes (0, ¼, ½, ¾ and all of its passages);
 * - transformer only, at the same coverages (the rows not embedded yet are
 *   invisible to dense search, as without a tier).
 *
 * Each point is an index run stopped after that share of its passages, then
 * nDCG@10, Recall@10 and MRR of dense and hybrid search in both states, and
 * the wall time the run took to get there. One process, one transformer run
 * (each stop resumes where the last one ended).
 *
 *   deno run -A bench/static_tier_bench.ts [--model GGUF] [--static FILE] [--threads N]
 *
 * `--static` defaults to the GGUF's `.static` beside it (`model prepare --static`).
 */
import { copyFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { openConfiguredCorpus } from "../src/cli/mod.ts";
import { loadJudgments, loadQueries, runEvaluation } from "../src/eval/mod.ts";
import { manifestPathFor, staticModelPathFor } from "../src/model/mod.ts";
import { requireModel } from "./_model.ts";
import { report, skipSuite } from "./_report.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const CORPUS = join(REPO, "fixtures", "corpus");
const EVAL = join(REPO, "fixtures", "eval");
const SHARES = [0, 0.25, 0.5, 0.75, 1];

const { values } = parseArgs({
  args: Deno.args,
  options: {
    model: { type: "string" },
    static: { type: "string" },
    threads: { type: "string", default: "2" },
  },
});

const gguf = values.model ?? requireModel();
const staticModel = values.static ?? staticModelPathFor(gguf);
if (!existsSync(staticModel)) {
  skipSuite(`no static model at ${staticModel}; run 'wayfinder model distill --from ${gguf}'`);
}
const threads = Number(values.threads);

// The tier looks for the static model beside the GGUF: put both, with their manifests, in a folder.
const models = await Deno.makeTempDir({ prefix: "wayfinder-tier-models-" });
const modelPath = join(models, "embedding.gguf");
const staticPath = join(models, "embedding.static");
copyFileSync(gguf, modelPath);
copyFileSync(manifestPathFor(gguf), manifestPathFor(modelPath));
copyFileSync(staticModel, staticPath);
copyFileSync(manifestPathFor(staticModel), manifestPathFor(staticPath));

const queries = await loadQueries(join(EVAL, "retrieval_queries.json"));
const { judgments, match } = await loadJudgments(join(EVAL, "span_qrels.json"));
const dataDir = await Deno.makeTempDir({ prefix: "wayfinder-tier-data-" });
const embedder = { model: modelPath, threads };
const tiered = await openConfiguredCorpus(CORPUS, { dataDir, embedder });
const plain = await openConfiguredCorpus(CORPUS, { dataDir, embedder, staticTier: false });
const staticOnly = await openConfiguredCorpus(CORPUS, {
  dataDir: await Deno.makeTempDir({ prefix: "wayfinder-static-data-" }),
  embedder: { provider: "static", model: staticPath },
});

type Scores = { ndcg: number; recall: number; mrr: number };
async function score(corpus: typeof tiered, mode: "dense" | "hybrid"): Promise<Scores> {
  const searcher = await corpus.searcher({ mode });
  const report = await runEvaluation({
    queries,
    judgments,
    match,
    runs: [{
      name: mode,
      search: async (q, k) => (await searcher.search({ query: q, limit: k })).matches,
    }],
  });
  return report.runs[0]!.metrics;
}

interface Point {
  label: string;
  seconds: number;
  dense: Scores;
  hybrid: Scores;
}
const points: Point[] = [];
async function measure(label: string, seconds: number, corpus: typeof tiered): Promise<Point> {
  const point = {
    label,
    seconds,
    dense: await score(corpus, "dense"),
    hybrid: await score(corpus, "hybrid"),
  };
  points.push(point);
  return point;
}

const started = performance.now();
const staticRun = await staticOnly.index();
await measure(
  `static only, ${staticRun.embeddedChunks} passages`,
  (performance.now() - started) / 1000,
  staticOnly,
);

/** Runs the tiered corpus's index until `share` of its passages are embedded (0: its first publish). */
async function indexUntil(share: number): Promise<void> {
  const stop = new AbortController();
  await tiered.index({
    signal: stop.signal,
    partial: { minInputs: 1 },
    onEvent: (event) => {
      if (share === 0 && event.event === "partial") stop.abort();
      if (share > 0 && share < 1 && event.event === "batch" && event.done >= share * event.total) {
        stop.abort();
      }
    },
  }).catch((error) => {
    if (!stop.signal.aborted) throw error;
  });
}

const clock = performance.now();
const byShare = new Map<number, { tiered: Point; plain: Point }>();
for (const share of SHARES) {
  await indexUntil(share);
  const seconds = (performance.now() - clock) / 1000;
  const { dense } = await tiered.status();
  const covered = dense ? `${dense.covered} of ${dense.total}` : "all";
  byShare.set(share, {
    tiered: await measure(`tiered, transformer vectors for ${covered}`, seconds, tiered),
    plain: await measure(`transformer only, ${covered}`, seconds, plain),
  });
}
await Promise.all([tiered.close(), plain.close(), staticOnly.close()]);

console.log(
  `\nDense indexes, peer corpus (${
    Object.keys(queries).length
  } queries, k = 10), ${threads} threads:\n`,
);
console.log("| index | s | dense nDCG@10 | dense R@10 | hybrid nDCG@10 | hybrid R@10 |");
console.log("| --- | --- | --- | --- | --- | --- |");
const f = (n: number) => n.toFixed(4);
for (const p of points) {
  console.log(
    `| ${p.label} | ${p.seconds.toFixed(1)} | ${f(p.dense.ndcg)} | ${f(p.dense.recall)} | ${
      f(p.hybrid.ndcg)
    } | ${f(p.hybrid.recall)} |`,
  );
}
console.log("");
const half = byShare.get(0.5)!;
report(
  `static tier: dense nDCG@10 while the transformer fills in (${half.plain.label})`,
  { label: "tiered", amount: half.tiered.dense.ndcg, unit: "" },
  { label: "transformer only", amount: half.plain.dense.ndcg },
  "target ≥ 1: the files not embedded yet are found",
);
const all = byShare.get(1)!;
report(
  "static tier: dense nDCG@10 once every vector is in",
  { label: "tiered", amount: all.tiered.dense.ndcg, unit: "" },
  { label: "transformer only", amount: all.plain.dense.ndcg },
  "target ≥ 1: a complete index is searched as without a tier",
);
report(
  "static tier: time to a dense answer over every passage",
  { label: "static tier", amount: points[0]!.seconds, unit: "s" },
  { label: "transformer", amount: all.tiered.seconds },
  "smaller is sooner",
);
await Deno.remove(dataDir, { recursive: true });
await Deno.remove(models, { recursive: true });
