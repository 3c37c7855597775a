/**
 * Regression test for issue 11: `deno task bench` aborted with "malloc():
 * unsorted double linked list corrupted". The bench modules left llama.cpp
 * models and contexts open; `deno bench` tears each module's isolate down
 * while the process goes on, node-llama-cpp's exit hook then disposed them,
 * and its native unload work ran on objects the teardown had freed.
 *
 * This runs the benches' pattern in a `deno bench` subprocess, so a native
 * abort fails the test rather than the runner: embedders, a reranker and a
 * raw node-llama-cpp context, opened together and apart, used, and closed
 * through bench/_fixture.ts, then a second module that churns the heap.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { writeTinyReranker } from "../src/model/tiny_reranker.ts";
import { REPO, tinyModel } from "./_run.ts";

const url = (path: string) => pathToFileURL(join(REPO, path)).href;

/** Loads, uses and disposes models as bench/*_bench.ts do. */
const LLAMA_MODULE = `
import { getLlama, LlamaLogLevel } from "node-llama-cpp";
import { benchWithFixture } from "${url("bench/_fixture.ts")}";
import { LlamaEmbedder, LlamaReranker } from "${url("src/embed/mod.ts")}";

const modelPath = Deno.env.get("TINY_EMBEDDER")!;
const rerankerPath = Deno.env.get("TINY_RERANKER")!;
const texts = ["hello world", "the search index reads files", "quick brown fox"];
const RUNS = { n: 3, warmup: 1 };

// Set-up at the top of a module, as embed_throughput_bench's probe.
const probe = await LlamaEmbedder.create({ modelPath, threads: 1 });
const reranker = await LlamaReranker.create({ modelPath: rerankerPath, threads: 1 });
await Promise.all([probe.embedDocuments(texts), reranker.rank("index", texts)]);
await probe.close();
await reranker.close();

benchWithFixture("embedder", RUNS, {
  open: () => LlamaEmbedder.create({ modelPath, threads: 1, batchSize: 2 }),
  run: async (embedder) => void await embedder.embedDocuments(texts),
  close: (embedder) => embedder.close(),
});
benchWithFixture("embedder and reranker together", RUNS, {
  open: async () => [
    await LlamaEmbedder.create({ modelPath, threads: 1 }),
    await LlamaReranker.create({ modelPath: rerankerPath, threads: 1 }),
  ] as const,
  run: async ([embedder, reranker]) => {
    await Promise.all([embedder.embedQuery("index"), reranker.rank("index", texts)]);
  },
  // Closed at once, the reranker while the embedder still holds the shared Llama.
  close: async (both) => void await Promise.all(both.map((part) => part.close())),
});
benchWithFixture("raw node-llama-cpp", RUNS, {
  open: async () => {
    const llama = await getLlama({
      gpu: false,
      build: "never",
      logLevel: LlamaLogLevel.error,
      maxThreads: 1,
      progressLogs: false,
    });
    const model = await llama.loadModel({ modelPath, gpuLayers: 0 });
    const context = await model.createEmbeddingContext({ threads: 1, contextSize: 128 });
    return { llama, model, context };
  },
  run: async ({ context }) => void await context.getEmbeddingFor(texts[0]),
  close: async ({ llama, model, context }) => {
    await context.dispose();
    await model.dispose();
    await llama.dispose();
  },
});
`;

/** Runs after the llama module's teardown; a corrupted heap fails here. */
const AFTER_MODULE = `
Deno.bench("after the llama module", { n: 20, warmup: 1 }, () => {
  const rows = Array.from({ length: 5_000 }, (_, i) => ({ i, text: "x".repeat(i % 97) }));
  JSON.parse(JSON.stringify(rows));
});
`;

Deno.test("deno bench loads, uses and frees llama.cpp models across modules without crashing", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wayfinder-bench-teardown-" });
  try {
    const rerankerPath = join(dir, "reranker.gguf");
    await writeTinyReranker(rerankerPath);
    await Deno.writeTextFile(join(dir, "a_llama_bench.ts"), LLAMA_MODULE);
    await Deno.writeTextFile(join(dir, "b_after_bench.ts"), AFTER_MODULE);
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["bench", "-A", "--no-check", "--config", join(REPO, "deno.json"), dir],
      cwd: REPO,
      env: { NO_COLOR: "1", TINY_EMBEDDER: tinyModel(), TINY_RERANKER: rerankerPath },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(output.stdout);
    const stderr = new TextDecoder().decode(output.stderr);
    const report = `signal ${output.signal}, code ${output.code}\n${stdout}\n${stderr}`;
    assert.equal(output.signal, null, report);
    assert.equal(output.code, 0, report);
    for (const name of ["embedder", "embedder and reranker together", "raw node-llama-cpp"]) {
      assert.match(stdout, new RegExp(`\\| ${name} `), report);
    }
    assert.match(stdout, /after the llama module/, report);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
