/**
 * The peer's knowledge protocols in knowledge mode, through the front door,
 * printed as a table to set beside the peer's figures (docs/evaluation.md).
 *
 *   deno run -A bench/knowledge_protocols.ts [--model PATH] [--split development|held_out|test]
 *
 * Model: --model, else $WAYFINDER_BENCH_MODEL, else .cache/models/minilm-f16.gguf.
 * VERBOSE=1 lists each miss with its top context.
 */
import { parseArgs } from "node:util";
import { type KnowledgeRun, runKnowledgeCases, runKnowledgeProtocol } from "./_knowledge_runs.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { model: { type: "string" }, split: { type: "string", multiple: true } },
});
const model = values.model ?? Deno.env.get("WAYFINDER_BENCH_MODEL") ??
  ".cache/models/minilm-f16.gguf";
const threads = Number(Deno.env.get("WAYFINDER_THREADS") ?? 1);
const work = await Deno.makeTempDir({ prefix: "wayfinder-knowledge-" });
const modes: ("dense" | "lexical" | "hybrid")[] = ["dense", "lexical", "hybrid"];
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function print(runs: KnowledgeRun[]): void {
  for (const run of runs) {
    const s = run.summary;
    const recall = Object.entries(s.recall).map(([k, v]) => `R@${k} ${pct(v)}`).join(", ");
    const first = `${s.firstCorrect}/${s.answerable}`;
    console.log(
      `| ${run.protocol} | ${run.split} | ${run.mode} | ${first} | ${recall} | ${
        s.mrr.toFixed(3)
      } |`,
    );
    if (!Deno.env.get("VERBOSE")) continue;
    for (const o of run.outcomes.filter((o) => o.firstRank !== 1)) {
      console.log(`  miss ${o.id} (${o.group}): first at ${o.firstRank} — ${o.top.join(" · ")}`);
    }
  }
}

console.log("| protocol | split | mode | first correct | recall | MRR |");
console.log("| --- | --- | --- | --- | --- | --- |");
print(await runKnowledgeCases({ model, threads, work, modes }));
const protocols = [
  ["okf_retrieval", values.split ?? ["held_out", "development"]],
  ["embedding_comparison", values.split ?? ["test", "development"]],
] as const;
for (const [protocol, splits] of protocols) {
  print(await runKnowledgeProtocol({ model, threads, work, protocol, splits: [...splits], modes }));
}
await Deno.remove(work, { recursive: true });
