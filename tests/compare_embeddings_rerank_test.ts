import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeTinyReranker } from "../src/model/mod.ts";
import { tinyModel, wayfinder } from "./_run.ts";

/** A four-file corpus, two judged queries and the tiny reranker, in one temp dir. */
async function setUp() {
  const dir = await Deno.makeTempDir({ prefix: "wayfinder-rerank-" });
  const corpus = join(dir, "corpus");
  Deno.mkdirSync(corpus);
  const files: Record<string, string> = {
    "index.ts": "export function buildIndex(files: string[]) {\n  return files.map((f) => f);\n}\n",
    "search.ts": "export function search(query: string) {\n  return query.split(' ');\n}\n",
    "cache.ts": "export class Cache {\n  get(key: string) {\n    return key;\n  }\n}\n",
    "README.md": "# Notes\n\nHow the search index works, and where the cache lives.\n",
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(corpus, name), text);
  const write = (name: string, value: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(value));
    return path;
  };
  const queries = write("queries.json", { q1: "build the search index", q2: "cache a key" });
  const qrels = write("qrels.json", {
    q1: [{ path: "index.ts", grade: 2 }],
    q2: [{ path: "cache.ts", grade: 2 }],
  });
  const reranker = join(dir, "reranker.gguf");
  await writeTinyReranker(reranker);
  const args = [
    "compare-embeddings",
    "--corpus",
    corpus,
    "--queries",
    queries,
    "--qrels",
    qrels,
    "--model",
    tinyModel(),
    "--top",
    "3",
    "--output",
    "json",
  ]; // prettier-ignore
  const env = { WAYFINDER_DATA_DIR: join(dir, "data") };
  return { dir, args, env, reranker };
}

Deno.test("compare-embeddings rerank:dense without a reranker exits 2 with one line", async () => {
  const { dir, args, env } = await setUp();
  try {
    const run = await wayfinder([...args, "--embedders", "dense,rerank:dense"], env);
    assert.equal(run.code, 2);
    assert.equal(
      run.stderr,
      "wayfinder: rerank:dense needs a cross-encoder: pass --reranker PATH (a GGUF reranker) or --reranker-url URL (a TEI server)\n",
    );
    assert.equal(run.stdout, "");
    const unknown = await wayfinder([...args, "--embedders", "rerank:nope"], env);
    assert.equal(unknown.code, 2);
    assert.match(
      unknown.stderr,
      /^wayfinder: Unknown run 'rerank:nope'.*prefixed by rerank:, diverse:, expand:, each at most once\n$/,
    );
    const twice = await wayfinder([...args, "--embedders", "expand:expand:dense"], env);
    assert.equal(twice.code, 2);
    assert.match(twice.stderr, /^wayfinder: Unknown run 'expand:expand:dense'/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("compare-embeddings with the tiny reranker reports dense, bm25, hybrid and rerank:dense runs", async () => {
  const { dir, args, env, reranker } = await setUp();
  try {
    const run = await wayfinder([
      ...args,
      "--embedders",
      "dense,bm25,hybrid,rerank:dense,rerank:hybrid",
      "--reranker",
      reranker,
    ], env);
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout);
    const names = report.runs.map((r: { name: string }) => r.name);
    assert.deepEqual(names, ["dense", "bm25", "hybrid", "rerank:dense", "rerank:hybrid"]);
    const reranked = report.runs[3];
    assert.equal(reranked.queryCount, 2);
    for (const metric of ["recall", "ndcg", "mrr"]) {
      const value = reranked.metrics[metric];
      assert.ok(value >= 0 && value <= 1, `${metric} ${value}`);
    }
    assert.deepEqual(Object.keys(reranked.queries).sort(), ["q1", "q2"]);
    // Every chunk is among the top 50 candidates of both dense and hybrid, so
    // the cross-encoder alone orders them: both rerank runs score alike.
    assert.deepEqual(report.runs[4].queries, reranked.queries);

    // The same through the environment variable, as a text table.
    const text = await wayfinder(
      [...args.filter((a) => a !== "json" && a !== "--output"), "--embedders", "rerank:bm25"],
      { ...env, WAYFINDER_RERANKER_MODEL: reranker },
    );
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^rerank:bm25 +2 /m);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
