/**
 * The peer's knowledge protocols in knowledge mode, beside the peer's figures.
 *
 *   deno run -A bench/knowledge_protocols.ts [--model PATH] [--split development|held_out|test]
 *
 * Model: --model, else $WAYFINDER_BENCH_MODEL, else .cache/models/minilm-f16.gguf.
 */
import { parseArgs } from "node:util";
import { runKnowledgeProtocol } from "./_knowledge_runs.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { model: { type: "string" }, split: { type: "string", multiple: true } },
});
const model = values.model ?? Deno.env.get("WAYFINDER_BENCH_MODEL") ??
  ".cache/models/minilm-f16.gguf";
const threads = Number(Deno.env.get("WAYFINDER_THREADS") ?? 1);
const work = await Deno.makeTempDir({ prefix: "wayfinder-knowledge-" });
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
console.log("| protocol | split | mode | first correct | recall | MRR |");
console.log("| --- | --- | --- | --- | --- | --- |");
for (
  const [protocol, splits] of [
    ["okf_retrieval", values.split ?? ["held_out", "development"]],
    ["embedding_comparison", values.split ?? ["test", "development"]],
  ] as const
) {
  const runs = await runKnowledgeProtocol({
    model,
    threads,
    work,
    protocol,
    splits: [...splits],
    modes: ["dense", "lexical", "hybrid"],
  });
  for (const run of runs) {
    const s = run.summary;
    const recall = Object.entries(s.recall).map(([k, v]) => `R@${k} ${pct(v)}`).join(", ");
    console.log(
      `| ${protocol} | ${run.split} | ${run.mode} | ${s.firstCorrect}/${s.answerable} | ${recall} | ${
        s.mrr.toFixed(3)
      } |`,
    );
    if (Deno.env.get("VERBOSE")) {
      for (const o of run.outcomes.filter((o) => o.firstRank !== 1)) {
        console.log(`  miss ${o.id} (${o.group}): first at ${o.firstRank} — ${o.top.join(" · ")}`);
      }
    }
  }
}
await Deno.remove(work, { recursive: true });
