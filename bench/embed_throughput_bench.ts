/**
 * Embedding throughput of LlamaEmbedder by thread count and batch size, with
 * raw node-llama-cpp `getEmbeddingFor` calls on the same token inputs as the
 * baseline of each group, so the wrapper's overhead shows as a ratio.
 *
 *   WAYFINDER_BENCH_MODEL=models/embedding.gguf deno bench -A bench/embed_throughput_bench.ts
 *
 * A last group repeats threads 1 and 2 while another process keeps one core
 * busy: the measurement behind the default thread count (see
 * `defaultThreads` in src/config/default_threads.ts).
 *
 * Without the model file the generated tiny test model is used (its numbers
 * only measure plumbing). Each iteration loads the model, embeds one
 * passage to warm it, then times embedding every passage once, and frees
 * the model (see _fixture.ts for why); divide the passages and tokens in
 * the bench name by the time per iteration for chunks/s and tokens/s.
 */
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { LlamaEmbeddingContext } from "node-llama-cpp";
import { LlamaEmbedder } from "../src/embed/mod.ts";
import { writeTinyModel } from "../src/model/tiny_model.ts";
import { benchWithFixture } from "./_fixture.ts";
import { openRawEmbedding } from "./_raw_llama.ts";

/** Each iteration takes seconds on a real model; a few suffice. */
const RUNS = { n: 3, warmup: 1 };
const CORPUS = new URL("../fixtures/corpus", import.meta.url).pathname;
const FALLBACK_CORPUS = new URL("../src", import.meta.url).pathname;

async function modelPath(): Promise<string> {
  const wanted = Deno.env.get("WAYFINDER_BENCH_MODEL") ?? "models/embedding.gguf";
  if (existsSync(wanted)) return wanted;
  const path = join(await Deno.makeTempDir({ prefix: "wayfinder-bench-" }), "tiny.gguf");
  await writeTinyModel(path);
  console.error(`${wanted} not found; benchmarking the tiny test model`);
  return path;
}

/** Passages of about 600 characters cut at blank lines, like paragraph chunks. */
async function passages(): Promise<string[]> {
  const root = existsSync(CORPUS) ? CORPUS : FALLBACK_CORPUS;
  const files = (await readdir(root, { recursive: true }))
    .filter((name) => /\.(dart|ts|md)$/.test(name))
    .sort();
  const out: string[] = [];
  for (const file of files) {
    let current = "";
    for (const block of (await readFile(join(root, file), "utf8")).split(/\n\s*\n/)) {
      current = current ? `${current}\n\n${block}` : block;
      if (current.length >= 600) {
        out.push(current);
        current = "";
      }
    }
    if (current.trim()) out.push(current);
    if (out.length >= 64) break;
  }
  return out.slice(0, 64);
}

const path = await modelPath();
const probe = await LlamaEmbedder.create({ modelPath: path, threads: 1, longInput: "truncate" });
const max = probe.identity.maxTokens;
// Keep every passage within the budget so both sides embed the same inputs.
const texts: string[] = [];
let tokens = 0;
for (const text of await passages()) {
  const count = await probe.countTokens(text, "document");
  if (count <= max) {
    texts.push(text);
    tokens += count;
  }
}
await probe.close();
const label = `${texts.length} chunks, ${tokens} tokens`;

/** node-llama-cpp without wayfinder, as the baseline, warmed by one passage. */
async function openRaw(threads: number) {
  const raw = await openRawEmbedding(path, threads, max);
  await raw.context.getEmbeddingFor(texts[0]!);
  return raw;
}

async function openEmbedder(threads: number, batchSize: number) {
  const embedder = await LlamaEmbedder.create({ modelPath: path, threads, batchSize });
  await embedder.embedDocuments(texts.slice(0, 1));
  return embedder;
}

async function embedEach(context: LlamaEmbeddingContext) {
  for (const text of texts) await context.getEmbeddingFor(text);
}

for (const threads of [1, 2]) {
  const group = `threads=${threads}`;
  benchWithFixture(`raw getEmbeddingFor, threads=${threads} (${label})`, {
    ...RUNS,
    group,
    baseline: true,
  }, {
    open: () => openRaw(threads),
    run: (raw) => embedEach(raw.context),
    close: (raw) => raw.close(),
  });
  for (const batchSize of [8, 32]) {
    benchWithFixture(`LlamaEmbedder threads=${threads} batch=${batchSize} (${label})`, {
      ...RUNS,
      group,
    }, {
      open: () => openEmbedder(threads, batchSize),
      run: async (embedder) => {
        await embedder.embedDocuments(texts);
      },
      close: (embedder) => embedder.close(),
    });
  }
}

/** Another process spinning on one core, as other work on the machine would. */
function busyCore(): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["eval", "for (;;) {}"],
    stdout: "null",
    stderr: "null",
  }).spawn();
}

for (const threads of [1, 2]) {
  benchWithFixture(`LlamaEmbedder threads=${threads} batch=32, one core busy (${label})`, {
    ...RUNS,
    group: "one core busy",
    baseline: threads === 1,
  }, {
    open: async () => ({ embedder: await openEmbedder(threads, 32), hog: busyCore() }),
    run: async ({ embedder }) => {
      await embedder.embedDocuments(texts);
    },
    close: async ({ embedder, hog }) => {
      hog.kill();
      await hog.status;
      await embedder.close();
    },
  });
}
