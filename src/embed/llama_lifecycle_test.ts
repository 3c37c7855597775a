/**
 * How LlamaEmbedder and LlamaReranker hold and free llama.cpp: one shared
 * Llama, calls refused after close, close once and after calls in flight.
 * The teardown of a whole bench module is tested in a subprocess by
 * tests/bench_teardown_test.ts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { WayfinderError } from "../error.ts";
import { writeTinyModel } from "../model/tiny_model.ts";
import { writeTinyReranker } from "../model/tiny_reranker.ts";
import { LlamaEmbedder } from "./llama.ts";
import { LlamaReranker } from "./llama_reranker.ts";
import { liveLlamaLeases } from "./llama_runtime.ts";

/** The generated tiny embedder and reranker in a temp dir. */
async function tinyModels() {
  const dir = await Deno.makeTempDir({ prefix: "wayfinder-lifecycle-" });
  const embedder = join(dir, "tiny.gguf");
  const reranker = join(dir, "reranker.gguf");
  await writeTinyModel(embedder);
  await writeTinyReranker(reranker);
  return {
    dir,
    embedder,
    reranker,
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

function assertClosed(error: unknown): boolean {
  assert.ok(error instanceof WayfinderError, String(error));
  assert.equal(error.code, "internal");
  assert.match(error.message, /it is closed/);
  return true;
}

Deno.test("an embedder and a reranker share one Llama, freed by the last close", async () => {
  await using models = await tinyModels();
  const embedder = await LlamaEmbedder.create({ modelPath: models.embedder, threads: 1 });
  const reranker = await LlamaReranker.create({ modelPath: models.reranker, threads: 1 });
  assert.equal(liveLlamaLeases(), 2);
  await embedder.embedDocuments(["hello world"]);
  await embedder.close();
  assert.equal(liveLlamaLeases(), 1);
  const scores = await reranker.rank("hello", ["hello world", "quick brown fox"]);
  assert.equal(scores.length, 2);
  await reranker.close();
  assert.equal(liveLlamaLeases(), 0);
  // A new Llama comes up after the last one was disposed.
  const again = await LlamaEmbedder.create({ modelPath: models.embedder, threads: 1 });
  assert.equal((await again.embedQuery("hello")).length, again.identity.dimensions);
  await again.close();
  assert.equal(liveLlamaLeases(), 0);
});

Deno.test("close() waits for calls in flight and runs once however often it is called", async () => {
  await using models = await tinyModels();
  const embedder = await LlamaEmbedder.create({ modelPath: models.embedder, threads: 1 });
  const texts = Array.from({ length: 40 }, (_, i) => `passage number ${i} about the index`);
  const embedding = embedder.embedDocuments(texts);
  const closes = [embedder.close(), embedder.close()];
  assert.equal((await embedding).length, texts.length);
  await Promise.all([...closes, embedder.close()]);
  assert.equal(liveLlamaLeases(), 0);
});

Deno.test("calls after close() fail with a WayfinderError instead of reaching llama.cpp", async () => {
  await using models = await tinyModels();
  const embedder = await LlamaEmbedder.create({ modelPath: models.embedder, threads: 1 });
  const reranker = await LlamaReranker.create({ modelPath: models.reranker, threads: 1 });
  await Promise.all([embedder.close(), reranker.close()]);
  await assert.rejects(embedder.embedDocuments(["hello"]), assertClosed);
  await assert.rejects(embedder.embedQuery("hello"), assertClosed);
  await assert.rejects(embedder.countTokens("hello", "query"), assertClosed);
  await assert.rejects(reranker.rank("hello", ["world"]), assertClosed);
});

Deno.test("a model that fails to load gives its hold on the Llama back", async () => {
  await using models = await tinyModels();
  await assert.rejects(
    LlamaReranker.create({ modelPath: models.embedder, threads: 1 }),
    (error) => error instanceof WayfinderError && error.code === "model",
  );
  assert.equal(liveLlamaLeases(), 0);
  const garbage = join(models.dir, "garbage.gguf");
  await Deno.writeTextFile(garbage, "not a gguf");
  await assert.rejects(
    LlamaEmbedder.create({ modelPath: garbage, threads: 1 }),
    (error) => error instanceof WayfinderError && error.code === "model",
  );
  assert.equal(liveLlamaLeases(), 0);
});
