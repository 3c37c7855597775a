/**
 * Target 3, memory: peak resident memory (VmHWM) of a fresh process that
 * searches a 100k-chunk index (dense, then hybrid, which also loads the
 * full-text index), and of one that builds it from chunks and vectors held
 * in memory, against the index's vector bytes plus passage text.
 *
 *   deno bench -A bench/memory_bench.ts      (WAYFINDER_BENCH_ROWS=100000 by default)
 */
import { join } from "node:path";
import { report } from "./_report.ts";
import { generationFiles, syntheticIndex } from "./_synthetic_index.ts";
import { child } from "./_spawn.ts";

const ROWS = Number(Deno.env.get("WAYFINDER_BENCH_ROWS") ?? 100_000);
const rows = ROWS.toLocaleString("en");

async function rawBytes(dir: string): Promise<number> {
  const files = await generationFiles(dir);
  return files["vectors.f32"]! + files["text.bin"]!;
}

const raw = await rawBytes(await syntheticIndex(ROWS, "none"));
const baseline = { label: "vector bytes + passage text", amount: raw / 2 ** 20 };
for (
  const [kind, args] of [["none", []], ["none", ["--hybrid"]], ["int8", ["--hybrid"]], ["binary", [
    "--hybrid",
  ]]] as const
) {
  const peak = (await child("search", await syntheticIndex(ROWS, kind), ...args)).peakRss!;
  const what = `${args.length ? "hybrid" : "dense"} search, ${kind}`;
  report(
    `peak memory, ${rows} chunks`,
    { label: what, amount: peak / 2 ** 20, unit: "MiB" },
    baseline,
    "target ≤ 2",
  );
}
const scratch = await Deno.makeTempDir();
try {
  const peak = (await child("build", String(ROWS), join(scratch, "index"))).peakRss!;
  report(
    `peak memory, ${rows} chunks`,
    { label: "build (writeGeneration)", amount: peak / 2 ** 20, unit: "MiB" },
    baseline,
    "target ≤ 3",
  );
} finally {
  await Deno.remove(scratch, { recursive: true });
}

Deno.bench("memory is measured in child processes above", { n: 1, warmup: 0 }, () => {});
