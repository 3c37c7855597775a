import assert from "node:assert/strict";
import { join } from "node:path";
import { WayfinderError } from "../error.ts";
import { writeTinyModel } from "../model/tiny_model.ts";
import { writeTinyReranker } from "../model/tiny_reranker.ts";
import { LlamaReranker } from "./llama_reranker.ts";

const DOCUMENTS = [
  "the search index reads files",
  "hello world",
  "quick brown fox jumps over the lazy dog",
  "hello world",
];

Deno.test("LlamaReranker.rank() scores pairs with the tiny reranker: finite, deterministic, distinct", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const modelPath = join(dir, "reranker.gguf");
    await writeTinyReranker(modelPath);
    const reranker = await LlamaReranker.create({ modelPath, threads: 1 });
    try {
      const query = "how does the search index work";
      const scores = await reranker.rank(query, DOCUMENTS);
      assert.equal(scores.length, DOCUMENTS.length);
      assert.ok(scores.every((s) => Number.isFinite(s) && s > 0 && s < 1), `${scores}`);
      assert.equal(new Set(scores.slice(0, 3)).size, 3, "different passages score differently");
      assert.equal(scores[1], scores[3], "the same passage scores the same");
      assert.deepEqual(await reranker.rank(query, DOCUMENTS), scores, "deterministic");
      const [alone] = await reranker.rank(query, [DOCUMENTS[2]]);
      assert.equal(alone, scores[2], "a score does not depend on the other passages");
      assert.notEqual((await reranker.rank("hello", [DOCUMENTS[0]]))[0], scores[0]);
      assert.deepEqual(await reranker.rank(query, []), []);
    } finally {
      await reranker.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("LlamaReranker.rank() cuts a passage over the token budget instead of failing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const modelPath = join(dir, "reranker.gguf");
    await writeTinyReranker(modelPath);
    const reranker = await LlamaReranker.create({ modelPath, threads: 1, contextSize: 16 });
    try {
      const long = "the search index reads files ".repeat(20);
      const scores = await reranker.rank("search index", [long, "hello world"]);
      assert.ok(scores.every(Number.isFinite));
      assert.equal(reranker.stats.truncated, 1);
      // Only the leading tokens count: a passage that differs past the cut scores the same.
      const [other] = await reranker.rank("search index", [long + " quick brown fox"]);
      assert.equal(other, scores[0]);
    } finally {
      await reranker.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("LlamaReranker.create() refuses an embedding model and a missing file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const modelPath = join(dir, "tiny.gguf");
    await writeTinyModel(modelPath);
    await assert.rejects(
      LlamaReranker.create({ modelPath, threads: 1 }),
      (error: unknown) =>
        error instanceof WayfinderError && error.code === "model" &&
        /no classification head/.test(error.message),
    );
    await assert.rejects(
      LlamaReranker.create({ modelPath: join(dir, "missing.gguf"), threads: 1 }),
      (error: unknown) => error instanceof WayfinderError && error.code === "no_model",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
