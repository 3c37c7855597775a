import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { WayfinderError } from "../error.ts";
import { writeTinyModel } from "../model/tiny_model.ts";
import { LlamaEmbedder, type LlamaEmbedderOptions } from "./llama.ts";
import { LongInputError } from "./long_input_error.ts";

/** The generated tiny BERT in a temp dir, with an embedder over it. */
async function tiny(options: Partial<LlamaEmbedderOptions> = {}) {
  const dir = await Deno.makeTempDir({ prefix: "wayfinder-embed-" });
  const modelPath = join(dir, "tiny.gguf");
  const { sha256 } = await writeTinyModel(modelPath);
  const embedder = await LlamaEmbedder.create({ modelPath, threads: 1, ...options });
  return {
    embedder,
    sha256,
    modelPath,
    async [Symbol.asyncDispose]() {
      await embedder.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

function norm(vector: Float32Array): number {
  return Math.hypot(...vector);
}

Deno.test("LlamaEmbedder.create() reads identity from the manifest and hashes the file", async () => {
  await using t = await tiny();
  const bytes = await Deno.readFile(t.modelPath);
  assert.equal(t.embedder.identity.sha256, createHash("sha256").update(bytes).digest("hex"));
  assert.equal(t.embedder.identity.sha256, t.sha256);
  assert.deepEqual({ ...t.embedder.identity, sha256: "" }, {
    name: "wayfinder-tiny-test",
    provider: "llama",
    sha256: "",
    dimensions: 32,
    queryPrefix: "query: ",
    pooling: "mean",
    normalize: true,
    maxTokens: 512,
    longInput: "reject",
    inputFormat: 1,
  });
});

Deno.test("LlamaEmbedder.embedDocuments() returns unit vectors, the same on every call", async () => {
  await using t = await tiny();
  const texts = ["hello world", "search the index for a query", "hello world"];
  const first = await t.embedder.embedDocuments(texts);
  const second = await t.embedder.embedDocuments(texts);
  assert.equal(first.length, 3);
  for (const vector of first) {
    assert.ok(vector instanceof Float32Array);
    assert.equal(vector.length, 32);
    assert.ok(Math.abs(norm(vector) - 1) < 1e-5);
  }
  assert.deepEqual(first, second);
  assert.deepEqual(first[0], first[2]);
  assert.notDeepEqual(first[0], first[1]);
});

Deno.test("LlamaEmbedder.embedQuery() embeds the query prefix, documents are embedded as they are", async () => {
  await using t = await tiny();
  const query = await t.embedder.embedQuery("hello world");
  const [asDocument, withPrefix] = await t.embedder.embedDocuments([
    "hello world",
    "query: hello world",
  ]);
  assert.notDeepEqual(query, asDocument);
  assert.deepEqual(query, withPrefix);
});

Deno.test("LlamaEmbedder.embedDocuments() gives the same vectors in batches as one by one", async () => {
  await using t = await tiny({ batchSize: 2 });
  const texts = ["the quick brown fox", "jumps over", "the lazy dog", "", "async function main"];
  const batched = await t.embedder.embedDocuments(texts);
  for (const [i, text] of texts.entries()) {
    const [single] = await t.embedder.embedDocuments([text]);
    for (let d = 0; d < single.length; d++) {
      assert.ok(Math.abs(single[d] - batched[i][d]) < 1e-6, `text ${i} dimension ${d}`);
    }
  }
});

Deno.test("LlamaEmbedder.embedQuery() goes ahead of the passages of a batch in progress", async () => {
  await using t = await tiny();
  // An index run's batch: 32 long passages, all handed over before the query.
  const passages = Array.from(
    { length: 32 },
    (_, i) => `passage ${i} ` + "search the index for a query ".repeat(40),
  );
  let batchDone = false;
  const batch = t.embedder.embedDocuments(passages).then((vectors) => {
    batchDone = true;
    return vectors;
  });
  const query = await t.embedder.embedQuery("hello world");
  assert.equal(batchDone, false, "the query waited for the whole batch");
  // Taking turns leaves every vector as it is when embedded alone.
  const vectors = await batch;
  assert.deepEqual(query, await t.embedder.embedQuery("hello world"));
  for (const i of [0, 1, 31]) {
    assert.deepEqual(vectors[i], (await t.embedder.embedDocuments([passages[i]!]))[0]);
  }
});

Deno.test("LlamaEmbedder.countTokens() counts CLS and SEP, and the query prefix for queries", async () => {
  await using t = await tiny();
  // "hello" and "world" are whole words in the tiny vocabulary.
  assert.equal(await t.embedder.countTokens("hello world", "document"), 4);
  assert.equal(await t.embedder.countTokens("", "document"), 2);
  // "query: " adds "query" and ":".
  assert.equal(await t.embedder.countTokens("hello world", "query"), 6);
});

Deno.test("LlamaEmbedder rejects long inputs, listing index and token count", async () => {
  await using t = await tiny({ contextSize: 8 });
  assert.equal(t.embedder.identity.maxTokens, 8);
  const texts = [
    "hello world",
    "the of and to in is it that for",
    "one two",
    "a b c d e f g h i j",
  ];
  await assert.rejects(t.embedder.embedDocuments(texts), (error: unknown) => {
    assert.ok(error instanceof LongInputError);
    assert.ok(error instanceof WayfinderError);
    assert.equal(error.code, "long_input");
    assert.deepEqual(error.offenders, [{ index: 1, tokens: 11 }, { index: 3, tokens: 12 }]);
    assert.equal(
      error.message,
      "Cannot embed 2 inputs longer than 8 tokens: #1 (11 tokens), #3 (12 tokens)",
    );
    return true;
  });
  // An input of exactly the budget is embedded.
  const [vector] = await t.embedder.embedDocuments(["the of and to in is"]);
  assert.equal(vector.length, 32);
});

Deno.test("LlamaEmbedder truncates long inputs to a token prefix and counts them", async () => {
  await using t = await tiny({ contextSize: 8, longInput: "truncate" });
  const [truncated, prefix, short] = await t.embedder.embedDocuments([
    "the of and to in is it that for on",
    "the of and to in is",
    "hello world",
  ]);
  assert.equal(t.embedder.stats.truncated, 1);
  assert.deepEqual(truncated, prefix);
  assert.ok(Math.abs(norm(short) - 1) < 1e-5);
  await t.embedder.embedQuery("the of and to in is it that");
  assert.equal(t.embedder.stats.truncated, 2);
});

Deno.test("LlamaEmbedder.create() reports a missing model", async () => {
  await assert.rejects(
    LlamaEmbedder.create({ modelPath: "/nonexistent/model.gguf", threads: 1 }),
    (error: unknown) => error instanceof WayfinderError && error.code === "no_model",
  );
});
