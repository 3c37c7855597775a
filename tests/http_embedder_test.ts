import assert from "node:assert/strict";
import { join } from "node:path";
import { FakeEmbedder } from "../src/embed/mod.ts";
import { REPO, wayfinder } from "./_run.ts";

/** A local server speaking Ollama's /api/embed, computing vectors with the deterministic fake embedder. */
function ollamaServer() {
  const embedder = new FakeEmbedder();
  let requests = 0;
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (request) => {
    requests++;
    const body = await request.json();
    if (new URL(request.url).pathname !== "/api/embed") {
      return new Response("not found", { status: 404 });
    }
    const vectors = await embedder.embedDocuments(body.input);
    return Response.json({ model: body.model, embeddings: vectors.map((v) => [...v]) });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, server, requests: () => requests };
}

Deno.test("index and search through an HTTP embedder; another remote model is a stale index", async () => {
  const remote = ollamaServer();
  try {
    const root = join(REPO, "fixtures", "samples");
    const data = await Deno.makeTempDir();
    const flags = [
      "--embedder",
      "ollama",
      "--embedder-url",
      remote.url,
      "--model",
      "fake-embed",
      "--batch-size",
      "16",
    ];
    const indexed = await wayfinder(["index", root, ...flags, "--output", "json"], {
      WAYFINDER_DATA_DIR: data,
    });
    assert.equal(indexed.code, 0, indexed.stderr);
    const summary = JSON.parse(indexed.stdout);
    assert.ok(summary.embeddedChunks > 16);
    assert.ok(remote.requests() >= Math.ceil(summary.embeddedChunks / 16), "batched requests");

    const found = await wayfinder([
      "search",
      root,
      "bank account deposit",
      ...flags,
      "--output",
      "json",
    ], {
      WAYFINDER_DATA_DIR: data,
    });
    assert.equal(found.code, 0, found.stderr);
    assert.ok(JSON.parse(found.stdout).matches.length > 0);

    const other = flags.map((flag) => (flag === "fake-embed" ? "other-embed" : flag));
    const stale = await wayfinder(["search", root, "deposit", ...other], {
      WAYFINDER_DATA_DIR: data,
    });
    assert.equal(stale.code, 2);
    assert.match(stale.stderr, /^wayfinder: Cannot use index .*--rebuild/);
  } finally {
    await remote.server.shutdown();
  }
});
