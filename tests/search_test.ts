import assert from "node:assert/strict";
import { join } from "node:path";
import { copyTree, wayfinder } from "./_run.ts";
import { CORPUS, tinyEnv } from "./_env.ts";

const root = await copyTree(CORPUS);
const env = await tinyEnv();

interface JsonMatch {
  chunk: {
    id: string;
    sourcePath: string;
    lineStart: number;
    lineEnd: number;
    type: string;
    language: string;
  };
  score: number;
  similarity: number;
  scores: { dense?: number; lexical?: number; fused?: number };
}

async function search(
  args: string[],
): Promise<{ query: string; matches: JsonMatch[]; notices: string[] }> {
  const run = await wayfinder(["search", root, ...args, "--output", "json"], env);
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout);
}

Deno.test("search before index exits 2 and names 'wayfinder index <root>'", async () => {
  const run = await wayfinder(["search", root, "token"], env);
  assert.equal(run.code, 2);
  assert.match(run.stderr, new RegExp(`^wayfinder: .*'wayfinder index ${root}'`));
});

Deno.test("search prints JSON, JSONL and text results", async () => {
  const indexed = await wayfinder(["index", root], env);
  assert.equal(indexed.code, 0, indexed.stderr);

  const json = await search(["refresh auth token", "--limit", "5"]);
  assert.equal(json.query, "refresh auth token");
  assert.equal(json.matches.length, 5);
  assert.deepEqual(Object.keys(json.matches[0]!.chunk).sort(), [
    "content",
    "endOffset",
    "id",
    "language",
    "lineEnd",
    "lineStart",
    "metadata",
    "sourcePath",
    "startOffset",
    "symbol",
    "type",
  ]);
  const scores = json.matches.map((m) => m.similarity);
  assert.deepEqual(scores, [...scores].sort((a, b) => b - a));
  assert.ok(Array.isArray(json.notices));

  const jsonl = await wayfinder([
    "search",
    root,
    "refresh auth token",
    "--limit",
    "4",
    "--output",
    "jsonl",
  ], env);
  const lines = jsonl.stdout.trim().split("\n");
  assert.equal(lines.length, 4);
  assert.deepEqual(JSON.parse(lines[0]!), json.matches[0]);

  const text = await wayfinder(["search", root, "refresh auth token", "--limit", "3"], env);
  assert.equal(text.code, 0);
  const heads = text.stdout.split("\n").filter((line) =>
    /^\S+:\d+-\d+ {2}\d\.\d{3} {2}\S/.test(line)
  );
  assert.equal(heads.length, 3, text.stdout);
});

Deno.test("search filters by path glob, type and language", async () => {
  const byPath = await search(["user", "--limit", "8", "--path", "services/**"]);
  assert.ok(byPath.matches.length > 0);
  assert.ok(byPath.matches.every((m) => m.chunk.sourcePath.startsWith("services/")));

  const byType = await search(["user", "--limit", "5", "--type", "method"]);
  assert.ok(byType.matches.every((m) => m.chunk.type === "method"));

  const byLang = await search(["user", "--limit", "5", "--lang", "markdown"]);
  assert.ok(byLang.matches.length > 0);
  assert.ok(byLang.matches.every((m) => m.chunk.language === "markdown"));

  // Fewer chunks than asked pass the filters: every one of them comes back, without a notice.
  const rare = await search(["user", "--limit", "3", "--path", "frontend/*.ts", "--type", "class"]);
  assert.ok(rare.matches.length > 0 && rare.matches.length < 3);
  assert.deepEqual(rare.notices, []);
  const none = await search(["user", "--path", "nowhere/**"]);
  assert.deepEqual(none.matches, []);
  assert.deepEqual(none.notices, ["the filters match no chunk in this index"]);
  const noneInText = await wayfinder(
    ["search", root, "user", "--path", "nowhere/**", "--context-chars", "500"],
    env,
  );
  assert.equal(noneInText.stdout, "");
  assert.match(noneInText.stderr, /No matches\.\n$/, "a budget does not hide an empty answer");

  // A file extension names its language; a filter of none says which the index holds.
  const byAlias = await search(["user", "--limit", "5", "--lang", "ts"]);
  assert.ok(byAlias.matches.length > 0);
  assert.ok(byAlias.matches.every((m) => m.chunk.language === "typescript"));
  const noLang = await search(["user", "--lang", "py"]);
  assert.deepEqual(noLang.matches, []);
  assert.match(
    noLang.notices[0]!,
    /^the filters match no chunk in this index \(it holds languages: .*\bdart\b.*\btypescript\b/,
  );

  const floor = await search(["user", "--limit", "50", "--min-score", "0.5", "--mode", "dense"]);
  assert.ok(floor.matches.every((m) => m.similarity >= 0.5));
  // Hybrid ranks by the fused score, yet the floor is on cosine, and a notice says so.
  const fused = await search(["user", "--limit", "50", "--min-score", "0.3", "--mode", "hybrid"]);
  assert.ok(fused.matches.length > 0);
  // (`score` is rounded in JSON output; the scores are not.)
  const isFused = (m: JsonMatch) => Math.abs(m.score - m.scores.fused!) < 1e-4;
  assert.ok(fused.matches.every((m) => m.scores.dense! >= 0.3 && isFused(m)));
  assert.ok(fused.matches.some((m) => m.score !== m.scores.dense));
  assert.deepEqual(fused.notices, [
    "minScore 0.3 kept hits by dense similarity (scores.dense), not by the fused score they are ranked by",
  ]);
});

Deno.test("search of a source tree is hybrid by default: BM25 with the code ranking leads, dense fills in", async () => {
  const query = "refresh auth token";
  const byDefault = await search([query, "--limit", "5"]);
  const hybrid = await search([query, "--limit", "5", "--mode", "hybrid"]);
  const ids = (r: typeof hybrid) => r.matches.map((m) => m.chunk.id);
  assert.deepEqual(ids(byDefault), ids(hybrid));
  assert.notDeepEqual(
    ids(byDefault),
    ids(await search([query, "--limit", "5", "--mode", "dense"])),
  );
  // Ranked by the fused score, with both halves' scores beside it.
  assert.ok(byDefault.matches.every((m) => Math.abs(m.score - m.scores.fused!) < 1e-4));
  assert.ok(byDefault.matches.some((m) => m.scores.lexical! > 0 && m.scores.dense !== undefined));
  // The setting still chooses: a config file's mode is the default it names.
  const lexical = await search([query, "--limit", "5", "--mode", "lexical"]);
  assert.ok(lexical.matches.every((m) => m.scores.fused === undefined));
});

Deno.test("search rejects bad usage with one line and exit 2", async () => {
  for (const args of [["--colour"], ["--limit", "many"], ["--mode", "psychic"]]) {
    const run = await wayfinder(["search", root, "token", ...args], env);
    assert.equal(run.code, 2, args.join(" "));
    assert.match(run.stderr, /^wayfinder: /);
    assert.equal(run.stderr.trim().split("\n").length, 1);
  }
  const missing = await wayfinder(
    ["search", root, "token", "--model", "/nonexistent/model.gguf"],
    env,
  );
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /\/nonexistent\/model\.gguf/);
  const help = await wayfinder(["search", "--help"], env);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /--limit/);
  assert.match(
    help.stdout,
    /--min-score X +Drop hits whose dense cosine similarity \(scores\.dense\)/,
  );
  for (
    const [args, message] of [
      [
        ["--limit", "-1"],
        /^wayfinder: Invalid value "-1" for --limit: expected a whole number ≥ 1$/,
      ],
      [["-n", "-3"], /^wayfinder: Invalid value "-3" for --limit: expected a whole number ≥ 1$/],
      [
        ["--threads", "0x10"],
        /^wayfinder: Invalid value "0x10" for --threads: expected a whole number ≥ 1$/,
      ],
      [
        ["--threads", "99999"],
        /^wayfinder: Invalid value "99999" for --threads: expected at most 256$/,
      ],
      [["--lambda", "0.3"], /^wayfinder: --lambda applies only with --diverse$/],
      [["--fetch-k", "40"], /^wayfinder: --fetch-k applies only with --diverse$/],
      [
        ["--reranker-timeout-ms", "100"],
        /^wayfinder: --reranker-timeout-ms applies only with --reranker-url$/,
      ],
      [
        ["--context-chars", "0"],
        /^wayfinder: Invalid value "0" for --context-chars: expected a whole number ≥ 1$/,
      ],
    ] as const
  ) {
    const run = await wayfinder(["search", root, "token", ...args], env);
    assert.equal(run.code, 2, args.join(" "));
    assert.match(run.stderr.trim(), message);
  }
});

Deno.test("search says when --context-chars holds no passage", async () => {
  const run = await wayfinder(
    ["search", root, "token", "--context-chars", "20", "-o", "json"],
    env,
  );
  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  assert.equal(result.contextText, "");
  assert.deepEqual(result.notices, ["no passage fits a context of 20 characters; allow more"]);
});

Deno.test("search --expand names the hits folded into a context, and indents passages as the file does", async () => {
  const args = ["refresh auth token", "--limit", "3", "--expand", "--mode", "dense"];
  const json = JSON.parse((await wayfinder(["search", root, ...args, "-o", "json"], env)).stdout);
  const text = (await wayfinder(["search", root, ...args], env)).stdout;
  const blocks = text.trimEnd().split("\n\n");
  interface Folded {
    symbol?: string;
    type: string;
    lineStart: number;
    lineEnd: number;
  }
  const folding = json.matches.filter((m: { parent?: { matched?: Folded[] } }) =>
    m.parent?.matched?.length
  );
  assert.ok(folding.length > 0, "a class with several hits among the top ones");
  for (const match of folding) {
    const { chunk, parent } = match;
    const others = parent.matched.map((m: Folded) =>
      `${m.symbol ?? m.type} (${m.lineStart}-${m.lineEnd})`
    );
    const line =
      `  matched ${[chunk.symbol, ...others].join(", ")} in ${parent.type} ${parent.symbol} ` +
      `(${chunk.sourcePath}:${parent.lineStart}-${parent.lineEnd})`;
    const block = blocks.find((b) => b.startsWith(`${chunk.sourcePath}:${chunk.lineStart}-`))!;
    assert.equal(block.split("\n")[1], line, block);
    // The first line keeps its indent: a member's passage starts as its line does in the file.
    const source = await Deno.readTextFile(join(root, chunk.sourcePath));
    const firstLine = source.split("\n")[chunk.lineStart - 1]!;
    assert.match(firstLine, /^\s+\S/, "a member, indented in its class");
    assert.equal(block.split("\n")[2], `    ${firstLine}`);
  }
});
