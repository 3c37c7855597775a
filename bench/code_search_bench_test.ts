import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { Chunk, Hit } from "../src/types.ts";
import { benchRepos, formatTable, publishedRuns, scoreRepo } from "./_code_search.ts";

/** A benchmark folder in the public benchmark's layout, written for these tests. */
const FOLDER = fileURLToPath(new URL("../fixtures/benchmark", import.meta.url));

function hit(sourcePath: string, lineStart: number, lineEnd: number): Hit {
  const chunk: Chunk = {
    id: `${sourcePath}:${lineStart}`,
    sourcePath,
    lineStart,
    lineEnd,
    startOffset: 0,
    endOffset: 0,
    type: "function",
    language: "python",
    content: "",
    metadata: {},
  };
  return { chunk, score: 0, similarity: 0 };
}

const close = (actual: number, expected: number) =>
  assert.ok(Math.abs(actual - expected) < 1e-4, `${actual} ≠ ${expected}`);

Deno.test("the code-search bench scores a repository per category and prints it beside the published run", async () => {
  const { repos, missing } = await benchRepos(FOLDER, "all");
  assert.deepEqual(missing, []);
  assert.equal(repos.length, 1);
  assert.match(repos[0]!.root, /repos\/mini\/src$/, "indexes the benchmark_root");
  // Every query finds its first target at chunk rank 2 behind an unjudged chunk.
  const score = await scoreRepo(
    repos[0]!,
    () => Promise.resolve([hit("other.py", 1, 5), hit("router.py", 1, 19), hit("retry.py", 1, 13)]),
    { chunks: 13, indexMs: 5 },
  );
  // q1 Router: rank 2 → 1/log2 3 = .63093. q2 (router + handlers): rank 2 only →
  // .63093 / (1 + .63093) = .38685. q3 (params.py 11-18): nothing → 0. q4 (retry + missing):
  // rank 3 → .5 / 1.63093 = .30657.
  close(score.perQuery["Router"]!, 0.63093);
  close(score.byCategory.symbol!, 0.63093);
  close(score.byCategory.architecture!, 0.38685);
  close(score.byCategory.semantic!, 0.30657 / 2);
  close(score.ndcg10, (0.63093 + 0.38685 + 0 + 0.30657) / 4);
  assert.equal(score.queries, 4);

  const published = publishedRuns(FOLDER);
  assert.equal(published.get("semble-hybrid")?.get("mini")?.ndcg10, 0.75);
  const table = formatTable(new Map([["lexical", [score]]]), published, ["semble-hybrid"]);
  assert.match(table, /^mini +python +4 +13 +0\.331 +0\.750 +5 /m);
  assert.match(table, /^ {2}architecture +0\.387 +0\.500$/m);
});

Deno.test("the code-search bench says it is skipping without a folder", async () => {
  const run = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", fileURLToPath(new URL("./code_search_bench.ts", import.meta.url))],
    env: { WAYFINDER_CODE_SEARCH_BENCH: "/nonexistent/benchmark" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(run.code, 0);
  assert.match(
    new TextDecoder().decode(run.stdout),
    /skipping, no benchmark folder at \/nonexistent/,
  );
});
