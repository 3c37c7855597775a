import assert from "node:assert/strict";
import { WayfinderError } from "../error.ts";
import { HttpEmbedder, type HttpProtocol } from "./http.ts";
import { serve } from "./testdata/serve_json.ts";

/** A vector derived from the text, so order and content can be checked. */
function vectorOf(text: string): number[] {
  return [text.length, 3, 4];
}

function reply(protocol: HttpProtocol, texts: string[]): Response {
  const vectors = texts.map(vectorOf);
  if (protocol === "ollama") return Response.json({ model: "m", embeddings: vectors });
  if (protocol === "tei") return Response.json(vectors);
  // Out of order on purpose: clients must sort by index.
  return Response.json({
    data: vectors.map((embedding, index) => ({ object: "embedding", embedding, index })).reverse(),
  });
}

function textsOf(protocol: HttpProtocol, body: Record<string, unknown>): string[] {
  return (protocol === "tei" ? body.inputs : body.input) as string[];
}

function assertUnit(vector: Float32Array) {
  const norm = Math.hypot(...vector);
  assert.ok(Math.abs(norm - 1) < 1e-6, `norm ${norm}`);
}

const protocols: [HttpProtocol, string][] = [
  ["ollama", "/api/embed"],
  ["openai", "/v1/embeddings"],
  ["tei", "/embed"],
];

for (const [protocol, path] of protocols) {
  Deno.test(`HttpEmbedder.embedDocuments() batches requests to ${protocol}`, async () => {
    await using server = serve((body) => reply(protocol, textsOf(protocol, body)));
    const embedder = await HttpEmbedder.create({
      protocol,
      url: server.url,
      model: "mini",
      dimensions: 3,
      batchSize: 2,
    });
    const texts = ["a", "bb", "ccc", "dddd", "eeeee"];
    const vectors = await embedder.embedDocuments(texts);
    assert.equal(server.bodies.length, 3);
    assert.deepEqual(server.paths, [path, path, path]);
    assert.deepEqual(server.bodies.map((body) => textsOf(protocol, body)), [
      ["a", "bb"],
      ["ccc", "dddd"],
      ["eeeee"],
    ]);
    if (protocol !== "tei") assert.equal(server.bodies[0].model, "mini");
    assert.equal(vectors.length, 5);
    for (const [i, vector] of vectors.entries()) {
      assertUnit(vector);
      const [x, y, z] = vectorOf(texts[i]);
      const norm = Math.hypot(x, y, z);
      assert.ok(Math.abs(vector[0] - x / norm) < 1e-6, `vector ${i} out of order`);
      assert.ok(Math.abs(vector[2] - z / norm) < 1e-6);
    }
    await embedder.close();
  });
}

Deno.test("HttpEmbedder.create() learns dimensions from a probe request", async () => {
  await using server = serve((body) => reply("ollama", textsOf("ollama", body)));
  const embedder = await HttpEmbedder.create({ protocol: "ollama", url: server.url, model: "m" });
  assert.equal(server.bodies.length, 1);
  assert.equal(embedder.identity.dimensions, 3);
  assert.deepEqual(
    { provider: embedder.identity.provider, sha256: embedder.identity.sha256 },
    { provider: "ollama", sha256: "ollama:m" },
  );
});

Deno.test("HttpEmbedder.embedQuery() adds the query prefix and sends the API key", async () => {
  await using server = serve((body) => reply("openai", textsOf("openai", body)));
  const embedder = await HttpEmbedder.create({
    protocol: "openai",
    url: server.url + "/v1/",
    model: "m",
    dimensions: 3,
    apiKey: "sk-test",
    queryPrefix: "query: ",
  });
  const vector = await embedder.embedQuery("find");
  assert.deepEqual(server.bodies[0].input, ["query: find"]);
  assert.equal(server.paths[0], "/v1/embeddings");
  assert.equal(server.headers[0].get("authorization"), "Bearer sk-test");
  assertUnit(vector);
  assert.equal(await embedder.countTokens("find", "query"), Math.ceil("query: find".length / 4));
  assert.equal(await embedder.countTokens("find", "document"), 1);
});

Deno.test("HttpEmbedder.embedQuery() is its own request, answered while a batch is in flight", async () => {
  // The server holds batch requests until the query has been answered.
  let release!: () => void;
  const released = new Promise<void>((resolve) => release = resolve);
  await using server = serve(async (body) => {
    const texts = textsOf("ollama", body);
    if (texts.length > 1) await released;
    return reply("ollama", texts);
  });
  const embedder = await HttpEmbedder.create({
    protocol: "ollama",
    url: server.url,
    model: "m",
    dimensions: 3,
    // Were the query queued behind the batch, the batch would time out instead.
    timeoutMs: 5000,
    retries: 0,
  });
  const batch = embedder.embedDocuments(["first passage", "second passage"]);
  assertUnit(await embedder.embedQuery("find"));
  release();
  assert.equal((await batch).length, 2);
  assert.deepEqual(server.bodies.map((body) => body.input), [
    ["first passage", "second passage"],
    ["find"],
  ]);
});

Deno.test("HttpEmbedder retries a 500 and then succeeds", async () => {
  await using server = serve((body, _request, count) =>
    count === 1 ? new Response("overloaded", { status: 500 }) : reply("tei", textsOf("tei", body))
  );
  const embedder = await HttpEmbedder.create({
    protocol: "tei",
    url: server.url,
    model: "m",
    dimensions: 3,
    retryDelayMs: 5,
  });
  const vectors = await embedder.embedDocuments(["x"]);
  assert.equal(server.bodies.length, 2);
  assertUnit(vectors[0]);
});

Deno.test("HttpEmbedder gives up after the retries on 429", async () => {
  await using server = serve(() => new Response("slow down", { status: 429 }));
  const embedder = await HttpEmbedder.create({
    protocol: "ollama",
    url: server.url,
    model: "m",
    dimensions: 3,
    retries: 2,
    retryDelayMs: 5,
  });
  await assert.rejects(embedder.embedDocuments(["x"]), (error: unknown) => {
    assert.ok(error instanceof WayfinderError);
    assert.equal(error.code, "embedder");
    assert.equal(
      error.message,
      `Cannot embed with ollama at ${server.url}: HTTP 429 slow down (3 attempts)`,
    );
    return true;
  });
  assert.equal(server.bodies.length, 3);
});

Deno.test("HttpEmbedder does not retry a 400", async () => {
  await using server = serve(() =>
    Response.json({ error: "model 'm' not found" }, { status: 400 })
  );
  await assert.rejects(
    HttpEmbedder.create({ protocol: "ollama", url: server.url, model: "m", retryDelayMs: 5 }),
    (error: unknown) => {
      assert.ok(error instanceof WayfinderError);
      assert.equal(error.code, "embedder");
      assert.match(
        error.message,
        /^Cannot embed with ollama at http:\/\/127\.0\.0\.1:\d+: HTTP 400 /,
      );
      assert.match(error.message, /model 'm' not found/);
      return true;
    },
  );
  assert.equal(server.bodies.length, 1);
});

Deno.test("HttpEmbedder times out a slow server and retries once", async () => {
  await using server = serve(async (body) => {
    await new Promise((resolve) => setTimeout(resolve, 400));
    return reply("tei", textsOf("tei", body));
  });
  const embedder = await HttpEmbedder.create({
    protocol: "tei",
    url: server.url,
    model: "m",
    dimensions: 3,
    timeoutMs: 50,
    retries: 1,
    retryDelayMs: 5,
  });
  await assert.rejects(
    embedder.embedDocuments(["x"]),
    /^WayfinderError: Cannot embed with tei at .*: timed out after 50 ms \(2 attempts\)$/,
  );
  assert.equal(server.bodies.length, 2);
});

Deno.test("HttpEmbedder rejects malformed responses without retrying", async () => {
  const cases: [HttpProtocol, unknown, RegExp][] = [
    ["ollama", { vectors: [[1, 2, 3]] }, /malformed response: expected \{"embeddings"/],
    ["openai", { data: [{ embedding: [1, "x", 3], index: 0 }] }, /finite numbers/],
    ["tei", [[1, 2, 3], [4, 5, 6]], /expected 1 vectors, got 2/],
    ["tei", [[0, 0, 0]], /all zeros/],
    ["ollama", { embeddings: [[1, 2]] }, /expected 3 dimensions, got 2/],
  ];
  for (const [protocol, payload, message] of cases) {
    await using server = serve(() => Response.json(payload));
    const embedder = await HttpEmbedder.create({
      protocol,
      url: server.url,
      model: "m",
      dimensions: 3,
      retryDelayMs: 5,
    });
    await assert.rejects(embedder.embedDocuments(["x"]), message);
    assert.equal(server.bodies.length, 1);
  }
  await using server = serve(() => new Response("<html>", { status: 200 }));
  const embedder = await HttpEmbedder.create({
    protocol: "tei",
    url: server.url,
    model: "m",
    dimensions: 3,
  });
  await assert.rejects(embedder.embedDocuments(["x"]), /malformed response: not JSON/);
});

Deno.test("HttpEmbedder reports an unreachable server", async () => {
  const server = serve(() => Response.json([]));
  const url = server.url;
  await server[Symbol.asyncDispose]();
  await assert.rejects(
    HttpEmbedder.create({ protocol: "tei", url, model: "m", retries: 1, retryDelayMs: 5 }),
    (error: unknown) => {
      assert.ok(error instanceof WayfinderError);
      assert.ok(error.message.startsWith(`Cannot embed with tei at ${url}: `), error.message);
      assert.match(error.message, /\(2 attempts\)$/);
      return true;
    },
  );
});

Deno.test("HttpEmbedder.embedDocuments() sends nothing for no texts", async () => {
  await using server = serve(() => Response.json([]));
  const embedder = await HttpEmbedder.create({
    protocol: "tei",
    url: server.url,
    model: "m",
    dimensions: 3,
  });
  assert.deepEqual(await embedder.embedDocuments([]), []);
  assert.equal(server.bodies.length, 0);
});
