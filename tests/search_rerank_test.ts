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
