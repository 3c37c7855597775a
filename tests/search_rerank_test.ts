import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { serve } from "../src/embed/testdata/serve_json.ts";
import { writeTinyReranker } from "../src/model/mod.ts";
import { openCorpus } from "../src/mod.ts";
import { REPO, tinyModel, wayfinder } from "./_run.ts";

interface JsonMatch {
  chunk: { sourcePath: string };
  similarity: number;
}

Deno.test("search --rerank reorders the top hits by the reranker, and needs --reranker", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wayfinder-rerank-" });
  try {
    const root = join(dir, "corpus");
    Deno.mkdirSync(root);
    writeFileSync(
      join(root, "index.ts"),
      "export function buildIndex(files: string[]) {\n  return files;\n}\n",
    );
    writeFileSync(
      join(root, "search.ts"),
      "export function search(query: string) {\n  return query;\n}\n",
    );
    writeFileSync(
      join(root, "cache.ts"),
      "export class Cache {\n  get(key: string) {\n    return key;\n  }\n}\n",
    );
    writeFileSync(join(root, "README.md"), "# Notes\n\nHow the search index works.\n");
    const reranker = join(dir, "reranker.gguf");
    await writeTinyReranker(reranker);
    const env = { WAYFINDER_DATA_DIR: join(dir, "data"), WAYFINDER_EMBEDDING_MODEL: tinyModel() };
    assert.equal((await wayfinder(["index", root], env)).code, 0);

    const search = async (extra: string[]) => {
      const run = await wayfinder(
        ["search", root, "search index", "--output", "json", ...extra],
        env,
      );
      assert.equal(run.code, 0, run.stderr);
      return (JSON.parse(run.stdout).matches as JsonMatch[]);
    };
    const plain = await search(["--limit", "10"]);
    const reranked = await search(["--limit", "2", "--rerank", "10", "--reranker", reranker]);
    assert.equal(reranked.length, 2, "--limit still cuts after reranking");
    assert.ok(
      reranked.every((m) => m.similarity > 0 && m.similarity < 1),
      "reranker scores are 0..1",
    );
    assert.ok(reranked[0].similarity >= reranked[1].similarity);
    // The reranker's best is among the dense candidates, and its score is not the dense one.
    const dense = new Map(plain.map((m) => [m.chunk.sourcePath, m.similarity]));
    assert.ok(dense.has(reranked[0].chunk.sourcePath));
    assert.notEqual(reranked[0].similarity, dense.get(reranked[0].chunk.sourcePath));

    const missing = await wayfinder(["search", root, "search index", "--rerank", "5"], env);
    assert.equal(missing.code, 2);
    assert.equal(
      missing.stderr,
      "wayfinder: --rerank needs a cross-encoder: pass --reranker PATH (a GGUF reranker) or --reranker-url URL (a TEI server)\n",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("search --reranker alone reranks, both cross-encoder flags are refused, and the TEI timeout is a setting", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wayfinder-rerank-" });
  try {
    const root = join(dir, "corpus");
    Deno.mkdirSync(root);
    writeFileSync(
      join(root, "a.ts"),
      "export function search(query: string) {\n  return query;\n}\n",
    );
    const reranker = join(dir, "reranker.gguf");
    await writeTinyReranker(reranker);
    const env = { WAYFINDER_DATA_DIR: join(dir, "data"), WAYFINDER_EMBEDDING_MODEL: tinyModel() };
    assert.equal((await wayfinder(["index", root], env)).code, 0);

    const alone = await wayfinder(
      ["search", root, "search", "--reranker", reranker, "--output", "json"],
      env,
    );
    assert.equal(alone.code, 0, alone.stderr);
    assert.equal(typeof JSON.parse(alone.stdout).matches[0].scores.rerank, "number");

    const both = await wayfinder(
      ["search", root, "search", "--reranker", reranker, "--reranker-url", "http://127.0.0.1:9"],
      env,
    );
    assert.equal(both.code, 2);
    assert.equal(
      both.stderr,
      "wayfinder: --reranker and --reranker-url are alternatives; pass one\n",
    );

    // A server that accepts the request and never answers.
    const stalled = Promise.withResolvers<void>();
    await using server = Deno.serve(
      { port: 0, hostname: "127.0.0.1", onListen() {} },
      async () => {
        await stalled.promise;
        return new Response("late");
      },
    );
    const url = `http://127.0.0.1:${server.addr.port}`;
    const started = performance.now();
    const slow = await wayfinder(
      ["search", root, "search", "--reranker-url", url, "--reranker-timeout-ms", "200"],
      env,
    );
    stalled.resolve();
    assert.equal(slow.code, 2);
    assert.match(slow.stderr, /timed out after 200 ms/);
    assert.ok(performance.now() - started < 20_000, "the timeout bounds the wait");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("search --rerank N scores exactly the top N candidates once, with --expand and --diverse too", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wayfinder-rerank-" });
  // TEI's /rerank: the longer text first, every passage it was sent recorded.
  await using server = serve((body) => {
    const texts = body.texts as string[];
    return Response.json(texts.map((text, index) => ({ index, score: text.length / 1000 })));
  });
  try {
    const root = join(dir, "corpus");
    Deno.mkdirSync(root);
    // Twelve files of six matching functions: expansion collapses each file's six into one
    // context, so a limit of 10 contexts needs more than the 40 hits it asks for at first.
    for (let i = 0; i < 12; i++) {
      const functions = Array.from(
        { length: 6 },
        (_, j) =>
          `export function encryptData${i}x${j}(data: string) {\n  return "encrypt data";\n}\n`,
      );
      writeFileSync(join(root, `vault${i}.ts`), functions.join("\n"));
    }
    const env = { WAYFINDER_DATA_DIR: join(dir, "data"), WAYFINDER_EMBEDDING_MODEL: tinyModel() };
    assert.equal((await wayfinder(["index", root], env)).code, 0);
    const search = async (extra: string[]) => {
      const sent = server.bodies.length;
      const run = await wayfinder(
        ["search", root, "encrypt data", "--mode", "lexical", "--output", "json", ...extra],
        { ...env, WAYFINDER_RERANKER_URL: server.url },
      );
      assert.equal(run.code, 0, run.stderr);
      const passages = server.bodies.slice(sent).flatMap((b) => b.texts as string[]);
      const matches = JSON.parse(run.stdout).matches as { scores: { rerank?: number } }[];
      return { passages, matches };
    };
    for (
      const extra of [[], ["--expand"], ["--expand", "--diverse"], ["--diverse", "--fetch-k", "20"]]
    ) {
      const { passages, matches } = await search(["--rerank", "5", "--limit", "10", ...extra]);
      assert.equal(passages.length, 5, `${extra}: ${passages.length} passages scored`);
      assert.equal(new Set(passages).size, 5, `${extra}: a passage scored twice`);
      assert.equal(matches.length, 10, `${extra}: --limit hits`);
      const reranked = matches.map((m) => m.scores.rerank !== undefined);
      // Diversity may pass over some of the reranked 5, never reorder them after the rest.
      const lead = extra.includes("--diverse") ? reranked.indexOf(false) : 5;
      assert.deepEqual(
        reranked,
        [...Array(lead).fill(true), ...Array(10 - lead).fill(false)],
        `${extra}: the reranked hits lead, the rest follow in retrieval order`,
      );
    }
    const floored = await wayfinder(
      ["search", root, "encrypt data", "--min-score", "0", "--rerank", "5", "--output", "json"],
      { ...env, WAYFINDER_RERANKER_URL: server.url },
    );
    assert.equal(floored.code, 0, floored.stderr);
    assert.ok(
      JSON.parse(floored.stdout).notices.includes(
        "minScore 0 kept hits by dense similarity (scores.dense) before reranking, not by the rerank score",
      ),
      floored.stdout,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a corpus whose reranker failed to open opens it again on the next search", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wayfinder-rerank-" });
  const reranker = join(dir, "reranker.gguf");
  const corpus = await openCorpus(join(REPO, "fixtures", "samples"), {
    dataDir: join(dir, "data"),
    embedder: { model: tinyModel(), threads: 1 },
    reranker: { model: reranker, threads: 1 },
  });
  try {
    await corpus.index();
    await assert.rejects(corpus.search("deposit", { limit: 5, rerank: 5 }));
    // The model arrives while the corpus stays open (a long-lived MCP server, say).
    await writeTinyReranker(reranker);
    const reranked = await corpus.search("deposit", { limit: 5, rerank: 5 });
    assert.ok(reranked.matches.length > 0);
    assert.ok(reranked.matches.every((hit) => hit.scores.rerank !== undefined));
  } finally {
    await corpus.close();
  }
});
