/**
 * The static embedder against the transformer it was distilled from
 * (MiniLM), in one run on this machine:
 *
 * - distill time: `wayfinder model distill` on the GGUF, against the
 *   10-minute target (run once; the model is kept under .cache/models and
 *   the time beside it, so later runs reuse both: delete them to measure again);
 * - model size: the static file against the GGUF;
 * - throughput: tokens/s embedding the stdlib's chunk inputs, against the
 *   transformer on a sample of the same inputs;
 * - query latency: median time to embed a query, against the transformer's;
 * - coverage: `wayfinder index` of the stdlib's top level as a whole
 *   process with the static model (every chunk dense), against the time the
 *   transformer needs for the same tokens at its measured rate;
 * - quality: `compare-embeddings` on the bundled corpus's judged queries,
 *   nDCG@10 for dense and hybrid runs, per query group, static against MiniLM.
 *
 *   deno bench -A bench/static_embedder_bench.ts
 *     WAYFINDER_BENCH_STATIC_MODEL (a static model to use instead of distilling one)
 *
 * Skips, saying why, when python3 or the model is missing.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { stat } from "node:fs/promises";
import { cpuUsage } from "node:process";
import { join } from "node:path";
import { LlamaEmbedder, StaticEmbedder } from "../src/embed/mod.ts";
import { readStaticModel } from "../src/model/mod.ts";
import { embeddingInput } from "../src/pipeline/mod.ts";
import { openIndex } from "../src/store/mod.ts";
import { median, report, skipSuite } from "./_report.ts";
import { requireModel } from "./_model.ts";
import { pythonStdlib, topLevelModules } from "./_python_stdlib.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const MAIN = join(ROOT, "main.ts");
const gguf = requireModel();
const threads = Number(Deno.env.get("WAYFINDER_THREADS") ?? 1);
const QUERIES = [
  "parse a date string into a datetime object",
  "read a csv file row by row",
  "copy a directory tree recursively",
  "encode bytes as base64",
  "compute the sha256 digest of a file",
];

/**
 * `wayfinder <args>` as its own process: its output, wall seconds and CPU
 * seconds (user + system, from bash's `time`): on a machine shared with other
 * work the CPU time is what the run itself cost.
 */
async function wayfinder(args: string[], env: Record<string, string> = {}) {
  const started = performance.now();
  const quoted = [Deno.execPath(), "run", "-A", "--quiet", MAIN, ...args]
    .map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  const out = await new Deno.Command("bash", {
    args: ["-c", `TIMEFORMAT='cpu %U %S'; time ${quoted}`],
    env: { WAYFINDER_THREADS: String(threads), ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const seconds = (performance.now() - started) / 1000;
  const decoder = new TextDecoder();
  const stdout = decoder.decode(out.stdout);
  const stderr = decoder.decode(out.stderr);
  if (!out.success) throw new Error(`wayfinder ${args.join(" ")}: ${stderr}`);
  const [, user, system] = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(stderr) ?? [, "0", "0"];
  return { stdout, seconds, cpuSeconds: Number(user) + Number(system) };
}

/** Wall and CPU seconds of `work` in this process. */
async function timed(work: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const cpu = cpuUsage();
  const started = performance.now();
  await work();
  const used = cpuUsage(cpu);
  return { wall: (performance.now() - started) / 1000, cpu: (used.user + used.system) / 1e6 };
}

/** The static model: given, cached beside the GGUF's cache copy, or distilled now (timed). */
async function staticModel(): Promise<{ path: string; distillSeconds: number | null }> {
  const given = Deno.env.get("WAYFINDER_BENCH_STATIC_MODEL");
  if (given) return { path: given, distillSeconds: null };
  const path = gguf.replace(/\.gguf$/i, "") + ".static";
  const timing = `${path}.timing.json`;
  // A model from before all-but-the-top records no `droppedComponents`: distil it again.
  const current = await readStaticModel(path).catch(() => null);
  if (current?.model.header.method.droppedComponents !== undefined && existsSync(timing)) {
    return { path, distillSeconds: JSON.parse(readFileSync(timing, "utf8")).seconds };
  }
  const run = await wayfinder(["model", "distill", "--from", gguf, "--to", path]);
  writeFileSync(timing, JSON.stringify({ seconds: run.seconds, threads }) + "\n");
  return { path, distillSeconds: run.seconds };
}

const stdlib = await pythonStdlib();
if ("skip" in stdlib) skipSuite(stdlib.skip);
const { path: staticPath, distillSeconds } = await staticModel();

if (distillSeconds !== null) {
  report(
    "static model: distill time (MiniLM)",
    { label: `model distill, ${threads} thread(s)`, amount: distillSeconds / 60, unit: "min" },
    { label: "10 min", amount: 10 },
    "target ≤ 1",
  );
}
const staticBytes = (await stat(staticPath)).size;
report(
  "static model: size on disk",
  { label: "static model", amount: staticBytes / 1e6, unit: "MB" },
  { label: "the GGUF it came from", amount: (await stat(gguf)).size / 1e6 },
  `target ≤ ${(20e6 / (await stat(gguf)).size).toFixed(2)} (20 MB)`,
);

// The stdlib's top level, copied, indexed with the static model as a whole process.
const tree = await Deno.makeTempDir({ prefix: "wayfinder-stdlib-" });
for (const file of await topLevelModules(stdlib.root)) {
  await Deno.writeTextFile(join(tree, file.path), file.content);
}
const dataDir = await Deno.makeTempDir({ prefix: "wayfinder-static-data-" });
const indexed = await wayfinder(
  ["index", tree, "--embedder", "static", "--model", staticPath, "--output", "json"],
  { WAYFINDER_DATA_DIR: dataDir },
);
const summary = JSON.parse(indexed.stdout);
const index = (await openIndex(summary.index))!;
const inputs = index.chunks.map((chunk) => embeddingInput(chunk));

// Throughput: every input through the static embedder, a sample through the transformer.
const embedder = await StaticEmbedder.open({ modelPath: staticPath });
let staticTokens = 0;
for (const input of inputs) staticTokens += await embedder.countTokens(input, "document");
await embedder.embedDocuments(inputs.slice(0, 64)); // warm
const runs: { wall: number; cpu: number }[] = [];
for (let i = 0; i < 3; i++) {
  // Count then embed, as `index` does.
  runs.push(
    await timed(async () => {
      for (const input of inputs) await embedder.countTokens(input, "document");
      await embedder.embedDocuments(inputs);
    }),
  );
}
const staticRate = staticTokens / median(runs.map((r) => r.wall));
const staticCpuRate = staticTokens / median(runs.map((r) => r.cpu));
const transformer = await LlamaEmbedder.create({ modelPath: gguf, threads, longInput: "truncate" });
const sample = inputs.filter((_, i) => i % Math.ceil(inputs.length / 64) === 0);
let sampleTokens = 0;
for (const input of sample) {
  sampleTokens += Math.min(
    await transformer.countTokens(input, "document"),
    transformer.identity.maxTokens,
  );
}
await transformer.embedDocuments(sample.slice(0, 1));
const sampleTime = await timed(() => transformer.embedDocuments(sample));
const transformerRate = sampleTokens / sampleTime.wall;
const transformerCpuRate = sampleTokens / sampleTime.cpu;
report(
  "static embedder: throughput, stdlib inputs (wall)",
  {
    label: `${inputs.length} inputs, ${staticTokens} tokens`,
    amount: staticRate,
    unit: "tokens/s",
  },
  { label: `MiniLM on ${sample.length} of the same inputs`, amount: transformerRate },
  `target ≥ ${Math.ceil(1e6 / transformerRate)} (1,000,000 tokens/s)`,
);
report(
  "static embedder: throughput, stdlib inputs (per CPU second)",
  { label: `${inputs.length} inputs`, amount: staticCpuRate, unit: "tokens/CPU-s" },
  { label: `MiniLM, ${threads} thread(s)`, amount: transformerCpuRate },
  `target ≥ ${Math.ceil(1e6 / transformerCpuRate)} (1,000,000 tokens/s)`,
);

// Query latency: the median of many queries, each embedded alone.
const latency = async (embed: (q: string) => Promise<unknown>, rounds: number) => {
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const q of QUERIES) {
      const started = performance.now();
      await embed(q);
      times.push(performance.now() - started);
    }
  }
  return median(times);
};
await latency((q) => embedder.embedQuery(q), 20); // warm
const staticQueryMs = await latency((q) => embedder.embedQuery(q), 200);
const transformerQueryMs = await latency((q) => transformer.embedQuery(q), 4);
await transformer.close();
await embedder.close();
report(
  "static embedder: query embed latency",
  { label: "median static", amount: staticQueryMs, unit: "ms" },
  { label: "median MiniLM", amount: transformerQueryMs },
  `target ≤ ${(1 / transformerQueryMs).toFixed(3)} (1 ms)`,
);

// Coverage: the whole `index` process against the transformer's time for the same tokens.
report(
  "static embedder: stdlib top level densely covered, whole index process",
  {
    label: `${summary.files.seen} files, ${index.chunks.length} chunks, all dense`,
    amount: indexed.seconds,
    unit: "s",
  },
  {
    label: `MiniLM embedding the same ${staticTokens} tokens at its measured rate`,
    amount: staticTokens / transformerRate,
  },
  `target ≤ ${(5 / (staticTokens / transformerRate)).toFixed(4)} (5 s)`,
);
report(
  "static embedder: stdlib top level densely covered, whole index process (CPU)",
  {
    label: `${index.chunks.length} chunks, user + system`,
    amount: indexed.cpuSeconds,
    unit: "CPU-s",
  },
  { label: "MiniLM's CPU time for the same tokens", amount: staticTokens / transformerCpuRate },
  `target ≤ ${(5 / (staticTokens / transformerCpuRate)).toFixed(4)} (5 s)`,
);
await Deno.remove(tree, { recursive: true });
await Deno.remove(dataDir, { recursive: true });

// Quality: the retrieval gate's corpus and judged queries, nDCG@10 per group.
const EVAL = join(ROOT, "fixtures", "eval");
async function evaluate(model: string[]): Promise<Record<string, Record<string, number>>> {
  const data = await Deno.makeTempDir({ prefix: "wayfinder-static-eval-" });
  const metrics = join(data, "metrics.json");
  await wayfinder([
    "compare-embeddings",
    "--corpus",
    join(ROOT, "fixtures", "corpus"),
    "--queries",
    join(EVAL, "retrieval_queries.json"),
    "--qrels",
    join(EVAL, "span_qrels.json"),
    "--query-groups",
    join(EVAL, "retrieval_query_groups.json"),
    "--top",
    "10",
    "--embedders",
    "dense,hybrid",
    "--metrics-output",
    metrics,
    ...model,
  ], { WAYFINDER_DATA_DIR: data });
  const written = JSON.parse(readFileSync(metrics, "utf8"));
  await Deno.remove(data, { recursive: true });
  const out: Record<string, Record<string, number>> = {};
  for (const run of written.runs) {
    out[run.name] = { all: run.metrics.ndcg };
    for (const [group, m] of Object.entries(run.queryGroups ?? {})) {
      out[run.name][group] = (m as { metrics: { ndcg: number } }).metrics.ndcg;
    }
  }
  return out;
}
const minilm = await evaluate(["--model", gguf]);
const distilled = await evaluate(["--embedder", "static", "--model", staticPath]);
for (const [run, allowed] of [["dense", 0.05], ["hybrid", 0.02]] as const) {
  for (const [group, base] of Object.entries(minilm[run] ?? {})) {
    const value = distilled[run]?.[group] ?? 0;
    report(
      `static embedder: ${run} nDCG@10, ${group}`,
      { label: "static", amount: value, unit: "" },
      { label: "MiniLM", amount: base },
      `target ≥ ${((base - allowed) / base).toFixed(3)} (within ${allowed} of MiniLM)`,
    );
  }
}
