import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeTinyReranker } from "../src/model/mod.ts";
import { tinyModel, wayfinder } from "./_run.ts";

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
