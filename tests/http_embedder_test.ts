import assert from "node:assert/strict";
import { join } from "node:path";
import { openCorpus } from "../src/mod.ts";
import { ollamaServer } from "./_ollama_server.ts";
import { REPO, wayfinder } from "./_run.ts";

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

Deno.test("a corpus whose HTTP embedder failed to open opens it again on the next run", async () => {
  const remote = ollamaServer();
  const corpus = await openCorpus(join(REPO, "fixtures", "samples"), {
    dataDir: await Deno.makeTempDir(),
    embedder: { provider: "ollama", url: remote.url, model: "fake-embed" },
  });
  try {
    remote.failing(true);
    await assert.rejects(corpus.index(), /HTTP 400/);
    remote.failing(false);
    assert.ok(
      (await corpus.index()).embeddedChunks > 0,
      "the server is back, and so is the embedder",
    );
  } finally {
    await corpus.close();
    await remote.server.shutdown();
  }
});
