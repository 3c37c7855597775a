import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { realModel, REPO, tinyModel, wayfinder } from "./_run.ts";
import { CORPUS, dataEnv } from "./_env.ts";

const EVAL = join(REPO, "fixtures", "eval");
const env = await dataEnv();
const data = env.WAYFINDER_DATA_DIR;

function gateArgs(model: string, extra: string[] = []): string[] {
  return [
    "compare-embeddings",
    "--corpus",
    CORPUS,
    "--queries",
    join(EVAL, "retrieval_queries.json"),
    "--qrels",
    join(EVAL, "span_qrels.json"),
    "--query-groups",
    join(EVAL, "retrieval_query_groups.json"),
    "--model",
    model,
    "--top",
    "10",
    ...extra,
  ];
}

Deno.test("compare-embeddings gate: the real model holds the committed baseline", async () => {
  const report = join(data, "report.json");
  const run = await wayfinder(
    gateArgs(realModel(), [
      "--baseline-metrics",
      join(EVAL, "baseline_metrics.json"),
      "--metrics-output",
      report,
    ]),
    env,
  );
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /Gate passed/);
  const written = JSON.parse(Deno.readTextFileSync(report));
  assert.equal(written.k, 10);
  assert.deepEqual(written.runs.map((r: { name: string }) => r.name), ["dense", "bm25", "hybrid"]);
  const dense = written.runs[0];
  assert.equal(dense.queryCount, 65);
  assert.ok(dense.metrics.recall > 0.9, `dense recall ${dense.metrics.recall}`);
  assert.ok(Object.keys(dense.queryGroups).length > 1, "per-group metrics");
  assert.ok("q001" in dense.queries, "per-query metrics");
});

Deno.test("compare-embeddings gate: a worse model fails with exit 1 and lists regressions", async () => {
  const run = await wayfinder(
    gateArgs(tinyModel(), [
      "--baseline-metrics",
      join(EVAL, "baseline_metrics.json"),
      "--embedders",
      "dense",
    ]),
    env,
  );
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stderr, /regression: dense overall recall/);
  assert.match(run.stderr, /regression: dense \S+ ndcg/, "group-level regressions are listed too");
  assert.match(run.stderr, /Gate failed/);
});

Deno.test("compare-embeddings rejects malformed inputs with exit 2", async () => {
  const dir = await Deno.makeTempDir();
  const write = (name: string, value: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));
    return path;
  };
  const queries = write("queries.tsv", "a\tencrypt data\nb\tlist users\n");
  const qrels = write("qrels.json", {
    a: [{ path: "services/data_encryption_service.dart", grade: 2 }],
  });
  const base = [
    "compare-embeddings",
    "--corpus",
    CORPUS,
    "--model",
    tinyModel(),
  ];

  const unjudged = await wayfinder([...base, "--queries", queries, "--qrels", qrels], env);
  assert.equal(unjudged.code, 2);
  assert.match(unjudged.stderr, /^wayfinder: .*\bb\b/, "names the query without judgments");

  const noRuns = await wayfinder([
    ...base,
    "--queries",
    queries,
    "--qrels",
    qrels,
    "--embedders",
    ",",
  ], env);
  assert.equal(noRuns.code, 2);
  assert.equal(noRuns.stderr, "wayfinder: --embedders names no run\n");

  const groups = write("groups.json", { a: "crypto" });
  const judged = write("qrels2.json", {
    a: [{ path: "services/data_encryption_service.dart", grade: 2 }],
    b: [{ path: "services/database_service.dart", grade: 1 }],
  });
  const ungrouped = await wayfinder([
    ...base,
    "--queries",
    queries,
    "--qrels",
    judged,
    "--query-groups",
    groups,
  ], env);
  assert.equal(ungrouped.code, 2);
  assert.match(ungrouped.stderr, /group/);

  const broken = await wayfinder([
    ...base,
    "--queries",
    write("bad.json", "{ nope"),
    "--qrels",
    judged,
  ], env);
  assert.equal(broken.code, 2);
  assert.match(broken.stderr, /bad\.json/);

  const missing = await wayfinder(
    ["compare-embeddings", "--queries", queries, "--qrels", judged],
    env,
  );
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /--corpus/);

  const fileUnit = await wayfinder(
    [
      ...base,
      "--queries",
      queries,
      "--qrels",
      judged,
      "--unit",
      "file",
      "--embedders",
      "bm25",
      "--output",
      "json",
    ],
    env,
  );
  assert.equal(fileUnit.code, 0, fileUnit.stderr);
  const report = JSON.parse(fileUnit.stdout);
  assert.equal(report.unit, "file");
  assert.equal(report.runs[0].queryCount, 2);
  assert.ok(report.runs[0].metrics.recall > 0, "whole-file judgments are found by file");
});

Deno.test("compare-embeddings gate: one file as report and baseline, bm25 matching lexical, early checks", async () => {
  const dir = await Deno.makeTempDir();
  const queries = join(dir, "queries.json");
  // A byte-order mark, as some editors write one, is no reason to refuse the file.
  writeFileSync(queries, "\uFEFF" + JSON.stringify({ a: "encrypt data", b: "list users" }));
  const good = join(dir, "good.json");
  writeFileSync(
    good,
    JSON.stringify({
      a: [{ path: "services/data_encryption_service.dart", grade: 2 }],
      b: [{ path: "services/database_service.dart", grade: 1 }],
    }),
  );
  const bad = join(dir, "bad.json");
  writeFileSync(
    bad,
    JSON.stringify({
      a: [{ path: "nowhere.dart", grade: 2 }],
      b: [{ path: "none.dart", grade: 1 }],
    }),
  );
  const args = (qrels: string, extra: string[]) => [
    "compare-embeddings",
    "--corpus",
    CORPUS,
    "--queries",
    queries,
    "--qrels",
    qrels,
    "--model",
    tinyModel(),
    ...extra,
  ];
  const baseline = join(dir, "baseline.json");
  const made = await wayfinder(
    args(good, ["--embedders", "bm25", "--metrics-output", baseline]),
    env,
  );
  assert.equal(made.code, 0, made.stderr);
  const report = join(dir, "report.json");
  await Deno.copyFile(baseline, report);
  // The same file as baseline and output: the baseline is read before the new report lands.
  const same = await wayfinder(
    args(bad, ["--embedders", "bm25", "--baseline-metrics", report, "--metrics-output", report]),
    env,
  );
  assert.equal(same.code, 1, same.stderr);
  assert.match(same.stderr, /Gate failed/);
  // `lexical` is the run the baseline calls `bm25`.
  const renamed = await wayfinder(
    args(good, ["--embedders", "lexical", "--baseline-metrics", baseline]),
    env,
  );
  assert.equal(renamed.code, 0, renamed.stderr);
  for (
    const [extra, message] of [
      [["--top", "0"], /--top: expected a whole number ≥ 1/],
      [["--max-recall-drop", "-1"], /--max-recall-drop: expected at least 0/],
      [["--max-recall-drop", "0x10"], /--max-recall-drop: expected a number/],
      [["--baseline-metrics", join(dir, "absent.json")], /Cannot read .*absent\.json/],
    ] as const
  ) {
    const output = join(dir, "never.json");
    const run = await wayfinder(args(good, [...extra, "--metrics-output", output]), env);
    assert.equal(run.code, 2, extra.join(" "));
    assert.match(run.stderr, message);
    assert.ok(!(await Deno.stat(output).catch(() => null)), "nothing written before the checks");
  }
});

/** A corpus that keeps its judged queries inside it, as the CI recipes of docs/ do. */
async function corpusWithEval(config?: unknown): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "wayfinder-eval-corpus-" });
  Deno.mkdirSync(join(root, "src"));
  Deno.mkdirSync(join(root, "eval"));
  writeFileSync(
    join(root, "src", "auth.ts"),
    "/** Refreshes the session token. */\nexport function refresh(t: string) {\n  return t;\n}\n",
  );
  writeFileSync(
    join(root, "src", "users.ts"),
    "/** Lists every user. */\nexport function listUsers() {\n  return [];\n}\n",
  );
  writeFileSync(
    join(root, "eval", "queries.json"),
    JSON.stringify({ a: "refresh the session token", b: "list every user" }),
  );
  writeFileSync(
    join(root, "eval", "qrels.json"),
    JSON.stringify({
      a: [{ path: "src/auth.ts", grade: 2 }],
      b: [{ path: "src/users.ts", grade: 2 }, { path: "src/renamed.ts", grade: 1 }],
    }),
  );
  if (config) writeFileSync(join(root, "wayfinder.json"), JSON.stringify(config));
  return root;
}

function evalArgs(root: string, extra: string[] = [], runs = "dense,bm25"): string[] {
  return [
    "compare-embeddings",
    "--corpus",
    root,
    "--queries",
    join(root, "eval", "queries.json"),
    "--qrels",
    join(root, "eval", "qrels.json"),
    "--model",
    tinyModel(),
    "--embedders",
    runs,
    "--unit",
    "file",
    "--output",
    "json",
    ...extra,
  ];
}

/** Every file any run ranked, over every query. */
function rankedFiles(stdout: string): Set<string> {
  const report = JSON.parse(stdout);
  return new Set(
    report.runs.flatMap((run: { queries: Record<string, { retrieved: string[] }> }) =>
      Object.values(run.queries).flatMap((q) => q.retrieved)
    ),
  );
}

Deno.test("compare-embeddings indexes what index would: the corpus's wayfinder.json and --exclude", async () => {
  // Run from the repository, not the corpus: the corpus's own wayfinder.json still applies.
  const configured = await corpusWithEval({ index: { exclude: ["eval/**"] } });
  const byFile = await wayfinder(evalArgs(configured), env);
  assert.equal(byFile.code, 0, byFile.stderr);
  assert.deepEqual([...rankedFiles(byFile.stdout)].sort(), ["src/auth.ts", "src/users.ts"]);

  const plain = await corpusWithEval();
  const unfiltered = await wayfinder(evalArgs(plain), env);
  assert.equal(unfiltered.code, 0, unfiltered.stderr);
  assert.ok(rankedFiles(unfiltered.stdout).has("eval/queries.json"), "without a glob eval/ is in");
  const byFlag = await wayfinder(evalArgs(plain, ["--exclude", "eval/**"]), env);
  assert.equal(byFlag.code, 0, byFlag.stderr);
  assert.deepEqual([...rankedFiles(byFlag.stdout)].sort(), ["src/auth.ts", "src/users.ts"]);
});

Deno.test("compare-embeddings names judgments that match nothing in the corpus", async () => {
  const root = await corpusWithEval({ index: { exclude: ["eval/**"] } });
  const run = await wayfinder(evalArgs(root), env);
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout).unmatchedJudgments, [
    { query: "b", judgment: "src/renamed.ts" },
  ]);
  const warnings = run.stderr.split("\n").filter((line) => /warning/.test(line));
  assert.equal(warnings.length, 1, run.stderr);
  assert.match(
    warnings[0]!,
    /1 relevant judgment matches nothing in the corpus.*: b src\/renamed\.ts$/,
  );
});

Deno.test("compare-embeddings refuses a query longer than the model takes, by its id, as search does", async () => {
  const root = await corpusWithEval({ index: { exclude: ["eval/**"] } });
  const queries = join(root, "eval", "queries.json");
  writeFileSync(queries, JSON.stringify({ a: "refresh", b: "list every user ".repeat(300) }));
  const dense = await wayfinder(evalArgs(root), env);
  assert.equal(dense.code, 2, dense.stderr);
  assert.match(
    dense.stderr,
    /^wayfinder: Cannot evaluate: query 'b' is \d+ tokens, more than the 512 that model '[^']+' takes/,
  );
  // Lexical runs embed no query: search --mode lexical takes it too.
  const lexical = await wayfinder(evalArgs(root, [], "bm25"), env);
  assert.equal(lexical.code, 0, lexical.stderr);
});

Deno.test("compare-embeddings with --long-input truncate names the queries it cut", async () => {
  const root = await corpusWithEval({ index: { exclude: ["eval/**"] } });
  const queries = join(root, "eval", "queries.json");
  writeFileSync(queries, JSON.stringify({ a: "refresh", b: "list every user ".repeat(300) }));
  const truncate = ["--long-input", "truncate"];
  const json = await wayfinder(evalArgs(root, truncate), env);
  assert.equal(json.code, 0, json.stderr);
  const [cut] = JSON.parse(json.stdout).truncatedQueries;
  assert.equal(cut.query, "b");
  assert.equal(cut.maxTokens, 512);
  assert.ok(cut.tokens > 512, `${cut.tokens} tokens`);
  const warnings = (stderr: string) =>
    stderr.split("\n").filter((line) => /^wayfinder: warning: .* cut /.test(line));
  assert.deepEqual(warnings(json.stderr), [
    `wayfinder: warning: 1 query is longer than the 512 tokens the model takes and was cut to ` +
    `them for embedding: b (${cut.tokens} tokens)`,
  ]);
  // In text mode the same line follows the table.
  const text = await wayfinder(evalArgs(root, [...truncate, "--output", "text"]), env);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^k=\d+ /);
  assert.deepEqual(warnings(text.stderr), warnings(json.stderr));
  // Lexical runs embed no query, so none is cut.
  const lexical = await wayfinder(evalArgs(root, truncate, "bm25"), env);
  assert.equal(lexical.code, 0, lexical.stderr);
  assert.deepEqual(JSON.parse(lexical.stdout).truncatedQueries, []);
  assert.deepEqual(warnings(lexical.stderr), []);
});

Deno.test("compare-embeddings reads the code-search benchmark's annotations and reports per category", async () => {
  const bench = join(REPO, "fixtures", "benchmark");
  const args = [
    "compare-embeddings",
    "--corpus",
    join(bench, "repos", "mini", "src"),
    "--queries",
    join(bench, "annotations", "mini.json"),
    "--model",
    tinyModel(),
    "--embedders",
    "bm25",
  ];
  const run = await wayfinder([...args, "--output", "json"], env);
  assert.equal(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout);
  assert.equal(report.match, "span-overlap");
  const bm25 = report.runs[0];
  assert.equal(bm25.queryCount, 4);
  assert.deepEqual(Object.keys(bm25.queryGroups).sort(), ["architecture", "semantic", "symbol"]);
  // Paths are relative to the repository, the corpus is its src/: they still match.
  assert.equal(bm25.queries.q1.ndcg, 1, "`Router` finds router.py first");
  // The secondary target of q4 is in no file: the one warning names it.
  assert.deepEqual(report.unmatchedJudgments, [{ query: "q4", judgment: "src/missing.py" }]);

  const text = await wayfinder(args, env);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^ {2}symbol +1 +1\.0000 +1\.0000 +1\.0000$/m);

  const both = await wayfinder(
    [...args, "--qrels", join(EVAL, "span_qrels.json")],
    env,
  );
  assert.equal(both.code, 2);
  assert.match(both.stderr, /^wayfinder: --qrels is not taken with .*mini\.json/);
});
