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
 *   deno run -A bench/stdlib_bench.ts
 *     WAYFINDER_BENCH_MODEL (default .cache/models/minilm-f16.gguf), WAYFINDER_THREADS
 *     (default: wayfinder's own default), WAYFINDER_BENCH_STDLIB_FILES (a first N files only)
 *
 * Skips, saying why, when python3 or the model is missing.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { getLlama, LlamaLogLevel } from "node-llama-cpp";
import { defaultThreads, SETTINGS } from "../src/config/mod.ts";
import { chunkFile } from "../src/chunk/mod.ts";
import { LlamaEmbedder } from "../src/embed/mod.ts";
import { type IndexEvent, type IndexProgress, openCorpus } from "../src/mod.ts";
import { embeddingInput } from "../src/pipeline/mod.ts";
import { openIndex } from "../src/store/mod.ts";
import { openCodeChunker } from "../src/corpus/open_models.ts";
import { report } from "./_synthetic_index.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const model = Deno.env.get("WAYFINDER_BENCH_MODEL") ?? ".cache/models/minilm-f16.gguf";
const threads = Number(Deno.env.get("WAYFINDER_THREADS") ?? defaultThreads());
const limit = Number(Deno.env.get("WAYFINDER_BENCH_STDLIB_FILES") ?? Infinity);
const QUERY = "parse a date string into a datetime object";

/** The stdlib's top-level `*.py` files copied into a fresh folder; null when python3 is absent. */
async function stdlibTree(): Promise<string | null> {
  const out = await new Deno.Command("python3", {
    args: ["-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])"],
    stdout: "piped",
    stderr: "null",
  }).output().catch(() => null);
  if (!out?.success) return null;
  const stdlib = new TextDecoder().decode(out.stdout).trim();
  const names = [...Deno.readDirSync(stdlib)]
    .filter((e) => e.isFile && e.name.endsWith(".py"))
    .map((e) => e.name)
    .sort()
    .slice(0, limit);
  const root = await Deno.makeTempDir({ prefix: "wayfinder-stdlib-" });
  for (const name of names) await Deno.copyFile(join(stdlib, name), join(root, name));
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
  const llama = await getLlama({
    gpu: false,
    build: "never",
    logLevel: LlamaLogLevel.error,
    maxThreads: threads,
    progressLogs: false,
  });
  const loaded = await llama.loadModel({ modelPath: model, gpuLayers: 0 });
  const context = await loaded.createEmbeddingContext({
    threads,
    contextSize: maxTokens + 1,
    batchSize: maxTokens + 1,
  });
  try {
    let tokens = 0;
    for (const input of inputs) tokens += loaded.tokenize(input).length;
    await context.getEmbeddingFor(inputs[0]!);
    const started = performance.now();
    for (const input of inputs) await context.getEmbeddingFor(input);
    return tokens / ((performance.now() - started) / 1000);
  } finally {
    await context.dispose();
    await loaded.dispose();
    await llama.dispose();
  }
}

const root = await stdlibTree();
if (!root) {
  console.log("stdlib end to end: skipped (python3 not found)");
} else if (!existsSync(model)) {
  console.log(`stdlib end to end: skipped (no model at ${model}; run 'deno task demo' first)`);
} else {
  const dataDir = await Deno.makeTempDir({ prefix: "wayfinder-stdlib-data-" });
  const corpus = await openCorpus(root, { dataDir, embedder: { model, threads } });
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
      "time to first search",
      {
        label: "lexical answer after index started",
        amount: (lexical.finished - start) / 1000,
        unit: "s",
      },
      { label: "the whole index run", amount: (end - start) / 1000 },
      "target ≤ 10 s",
    );
  }
  report(
    "embedding throughput",
    { label: "index embed phase", amount: pipelineRate, unit: "tokens/s" },
    { label: `raw node-llama-cpp, ${sample.length} of the same inputs`, amount: rawRate },
    "about 1",
  );
  await Deno.remove(root, { recursive: true });
  await Deno.remove(dataDir, { recursive: true });
}
