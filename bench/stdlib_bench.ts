/**
 * End to end on a real tree: the Python standard library's top-level
 * modules (about 170 files, 4.9 MB) indexed through the front door with the
 * real model, as a user would run it.
 *
 * - Time to first search: as soon as the run publishes its first (lexical)
 *   generation, `wayfinder search` runs in another process, lexical and
 *   hybrid, while embedding goes on; measured from the start of `index`.
 * - The run's wall time split into walk, chunk + fit, embed and store
 *   (chunking alone is timed again on the same files, to split it from fit).
 * - Embedded tokens per second, against raw node-llama-cpp embedding a
 *   sample of the same inputs with the same threads, in the same process.
 *
 *   deno bench -A bench/stdlib_bench.ts      (about 20 minutes with MiniLM f16 on 2 cores)
 *     WAYFINDER_THREADS (default: wayfinder's own), WAYFINDER_BENCH_STDLIB_FILES (the first N files)
 *
 * Skips, saying why, when python3 or the model is missing.
 */
import { join } from "node:path";
import { defaultThreads, SETTINGS } from "../src/config/mod.ts";
import { chunkFile } from "../src/chunk/mod.ts";
import { LlamaEmbedder } from "../src/embed/mod.ts";
import { type IndexEvent, type IndexProgress, openConfiguredCorpus } from "../src/cli/mod.ts";
import { embeddingInput } from "../src/pipeline/mod.ts";
import { openIndex } from "../src/store/mod.ts";
import { openCodeChunker } from "../src/corpus/open_models.ts";
import { report, skipSuite } from "./_report.ts";
import { requireModel } from "./_model.ts";
import { pythonStdlib, topLevelModules } from "./_python_stdlib.ts";
import { openRawEmbedding } from "./_raw_llama.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const model = requireModel();
const threads = Number(Deno.env.get("WAYFINDER_THREADS") ?? await defaultThreads());
const limit = Number(Deno.env.get("WAYFINDER_BENCH_STDLIB_FILES") ?? Infinity);
const QUERY = "parse a date string into a datetime object";

/** The stdlib's top-level modules copied into a fresh folder, the first `limit` of them. */
async function stdlibTree(): Promise<string> {
  const stdlib = await pythonStdlib();
  if ("skip" in stdlib) skipSuite(stdlib.skip);
  const root = await Deno.makeTempDir({ prefix: "wayfinder-stdlib-" });
  for (const file of (await topLevelModules(stdlib.root)).slice(0, limit)) {
    await Deno.writeTextFile(join(root, file.path), file.content);
  }
  return root;
}

/** `wayfinder search` in its own process; resolves with its wall time and answer. */
async function searchProcess(root: string, dataDir: string, mode: string) {
  const started = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      MAIN,
      "search",
      root,
      QUERY,
      "--mode",
      mode,
      "--limit",
      "3",
      "--output",
      "json",
    ],
    env: { WAYFINDER_DATA_DIR: dataDir, WAYFINDER_EMBEDDING_MODEL: model, WAYFINDER_THREADS: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const answer = out.success ? JSON.parse(new TextDecoder().decode(out.stdout)) : null;
  return {
    finished: performance.now(),
    ms: performance.now() - started,
    hits: answer?.matches?.length ?? 0,
    top: answer?.matches?.[0]?.chunk?.sourcePath ?? "-",
    notices: (answer?.notices ?? []) as string[],
    error: out.success ? "" : new TextDecoder().decode(out.stderr).trim(),
  };
}

/** Seconds each phase of the run took, from the first progress report of each. */
function phases(marks: Map<IndexProgress["phase"], number>, start: number, end: number) {
  const order: IndexProgress["phase"][] = ["walk", "chunk", "embed", "write"];
  const times = order.map((phase) => marks.get(phase));
  return Object.fromEntries(order.map((phase, i) => {
    const from = times[i] ?? start;
    const to = times.slice(i + 1).find((t) => t !== undefined) ?? end;
    return [phase, (to - from) / 1000];
  }));
}

/** Raw node-llama-cpp over `inputs`, same threads and context: tokens per second. */
async function rawTokensPerSecond(inputs: string[], maxTokens: number): Promise<number> {
  const raw = await openRawEmbedding(model, threads, maxTokens);
  try {
    let tokens = 0;
    for (const input of inputs) tokens += raw.model.tokenize(input).length;
    await raw.context.getEmbeddingFor(inputs[0]!);
    const started = performance.now();
    for (const input of inputs) await raw.context.getEmbeddingFor(input);
    return tokens / ((performance.now() - started) / 1000);
  } finally {
    await raw.close();
  }
}

const root = await stdlibTree();
const dataDir = await Deno.makeTempDir({ prefix: "wayfinder-stdlib-data-" });
const corpus = await openConfiguredCorpus(root, { dataDir, embedder: { model, threads } });
const marks = new Map<IndexProgress["phase"], number>();
const searches: ReturnType<typeof searchProcess>[] = [];
let partials = 0;
const start = performance.now();
const summary = await corpus.index({
  onProgress: (p) => {
    if (!marks.has(p.phase)) marks.set(p.phase, performance.now());
  },
  onEvent: (event: IndexEvent) => {
    if (event.event !== "partial") return;
    if (partials++ === 0) {
      searches.push(searchProcess(root, dataDir, "lexical"));
      searches.push(searchProcess(root, dataDir, "hybrid"));
    }
  },
});
const end = performance.now();
await corpus.close();
const [lexical, hybrid] = await Promise.all(searches);
const split = phases(marks, start, end);

// Chunking alone on the same files, to take it out of the chunk + fit phase.
const chunker = await openCodeChunker();
const chunkStart = performance.now();
let chunked = 0;
const maxChars = SETTINGS.maxChunkChars.default as number;
for (const entry of Deno.readDirSync(root)) {
  const absolutePath = join(root, entry.name);
  const content = await Deno.readTextFile(absolutePath);
  const file = { path: entry.name, absolutePath, content, bytes: content.length };
  chunked += chunkFile(file, "python", chunker, { maxChars }).length;
}
const chunkOnly = (performance.now() - chunkStart) / 1000;
console.error(`chunked ${chunked} chunks again in ${chunkOnly.toFixed(2)} s`);

const index = (await openIndex(corpus.indexDir))!;
const inputs = index.chunks.map((chunk) => embeddingInput(chunk));
const embedder = await LlamaEmbedder.create({ modelPath: model, threads: 1 });
let tokens = 0;
for (const input of inputs) tokens += await embedder.countTokens(input, "document");
const maxTokens = embedder.identity.maxTokens;
await embedder.close();
const pipelineRate = tokens / split.embed!;
const sample = inputs.filter((_, i) => i % Math.ceil(inputs.length / 256) === 0);
const rawRate = await rawTokensPerSecond(sample, maxTokens);

const s = (x: number) => `${x.toFixed(1)} s`;
console.log(
  `stdlib end to end: ${summary.files.seen} files, ${index.chunks.length} chunks, ` +
    `${summary.embeddedChunks} embedded (${summary.reusedChunks} identical inputs reused), ` +
    `${tokens} tokens, threads ${threads}, ${partials} partial publishes`,
);
console.log(
  `  wall ${s((end - start) / 1000)}: walk ${s(split.walk!)}, chunk ${s(chunkOnly)}, ` +
    `fit ${s(split.chunk! - chunkOnly)}, embed ${s(split.embed!)}, store ${s(split.write!)}`,
);
for (const [mode, run] of [["lexical", lexical], ["hybrid", hybrid]] as const) {
  if (!run) continue;
  console.log(
    `  ${mode} search during the run: answered ${s((run.finished - start) / 1000)} after index ` +
      `started (${s(run.ms / 1000)} whole process), ${run.hits} hits, top ${run.top}` +
      (run.notices.length ? `; notice: ${run.notices.join(" | ")}` : "") +
      (run.error ? `; error: ${run.error}` : ""),
  );
}
if (lexical) {
  report(
    "time to first search, stdlib top level",
    {
      label: `lexical answer after index started (whole run ${s((end - start) / 1000)})`,
      amount: (lexical.finished - start) / 1000,
      unit: "s",
    },
    { label: "10 s", amount: 10 },
    "target ≤ 1",
  );
}
report(
  "embedding throughput, stdlib top level",
  { label: "index embed phase", amount: pipelineRate, unit: "tokens/s" },
  { label: `raw node-llama-cpp, ${sample.length} of the same inputs`, amount: rawRate },
  "target ≥ 0.9",
);
await Deno.remove(root, { recursive: true });
await Deno.remove(dataDir, { recursive: true });
