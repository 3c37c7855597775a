/**
 * The library front door and the CLI on top of it: one query path, settings
 * recorded in the index, expansion, diversity and context building on a
 * real index built with the tiny model.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openCorpus, WayfinderError } from "../src/mod.ts";
import { openConfiguredCorpus } from "../src/cli/mod.ts";
import { liveIndex } from "../src/corpus/mod.ts";
import { copyTree, REPO, tinyModel, wayfinder } from "./_run.ts";
import { CORPUS, dataEnv, tinyCorpusOptions, tinyEnv } from "./_env.ts";

Deno.test("openCorpus() indexes a folder and searches it with expansion, diversity and context", async () => {
  const root = await copyTree(CORPUS);
  const corpus = await openCorpus(root, await tinyCorpusOptions());
  try {
    const summary = await corpus.index();
    assert.ok(summary.embeddedChunks > 100);
    assert.equal((await corpus.index()).current, true, "a second run changes nothing");

    const plain = await corpus.search("login password token", { limit: 8, mode: "hybrid" });
    assert.equal(plain.matches.length, 8);
    assert.equal(plain.contextText, undefined);

    const expanded = await corpus.search("login password token", {
      limit: 8,
      mode: "hybrid",
      expand: true,
    });
    // Each hit in its context, or alone where its context would overlap one shown.
    const shown = expanded.matches.map((m) => ({
      path: m.chunk.sourcePath,
      ...(m.parent ?? m.chunk),
    }));
    for (const [i, a] of shown.entries()) {
      for (const b of shown.slice(i + 1)) {
        const apart = a.path !== b.path || a.endOffset <= b.startOffset ||
          b.endOffset <= a.startOffset;
        assert.ok(apart, `contexts overlap in ${a.path}`);
      }
    }
    const method = expanded.matches.find((m) => m.chunk.type === "method")!;
    assert.equal(method.parent!.reason, "declaration");
    assert.equal(method.parent!.symbol, method.chunk.parent);
    const text = await Deno.readTextFile(join(root, method.chunk.sourcePath));
    assert.equal(
      text.slice(method.parent!.startOffset, method.parent!.endOffset),
      method.parent!.content,
    );

    const diverse = await corpus.search("login password token", { limit: 5, diverse: true });
    const scores = diverse.matches.map((m) => m.similarity);
    assert.deepEqual(scores, [...scores].sort((a, b) => b - a), "most relevant first");

    // A pool of 12 for 3 picks, under expansion that over-fetches 4 × what it is asked for.
    const picks = async (diverse?: { lambda: number; fetchK: number }) =>
      (await corpus.search("log an error", { limit: 3, expand: true, diverse })).matches;
    const expandedOnly = await picks();
    const spread = await picks({ lambda: 0, fetchK: 12 });
    const where = (hits: typeof spread) => hits.map((m) => `${m.chunk.sourcePath}:${m.chunk.id}`);
    assert.notDeepEqual(where(spread), where(expandedOnly), "--diverse changes the picks");
    assert.equal(spread.length, 3);
    const spreadScores = spread.map((m) => m.similarity);
    assert.deepEqual(spreadScores, [...spreadScores].sort((a, b) => b - a));

    const packed = await corpus.search("login password token", {
      limit: 10,
      expand: true,
      diverse: true,
      contextChars: 3000,
    });
    assert.ok(packed.contextText!.length <= 3000);
    assert.match(packed.contextText!, /^## \S+:\d+-\d+/);

    // The library checks what the CLI's flags check, and knows the same alias.
    const ids = async (mode: "bm25" | "lexical") =>
      (await corpus.search("login", { mode })).matches.map((m) => m.chunk.id);
    assert.deepEqual(await ids("bm25"), await ids("lexical"));
    for (
      const [options, reason] of [
        [{ contextChars: NaN }, /contextChars must be a positive integer, got NaN/],
        [{ contextChars: -10 }, /contextChars must be a positive integer/],
        [{ rerank: 0 }, /rerank must be a positive integer/],
        [{ diverse: { fetchK: 0 } }, /fetchK must be a positive integer/],
      ] as const
    ) {
      await assert.rejects(corpus.search("login", options), reason);
    }
  } finally {
    await corpus.close();
  }
});

Deno.test("corpus.chunk() returns a hit's stored passage by its id, without loading the model", async () => {
  const root = await copyTree(join(CORPUS, "services"));
  const dataDir = await Deno.makeTempDir();
  const built = await openCorpus(root, { dataDir, embedder: { model: tinyModel(), threads: 1 } });
  let hit;
  try {
    await built.index();
    hit = (await built.search("verify the jwt token", { limit: 1, mode: "lexical" })).matches[0]!;
  } finally {
    await built.close();
  }
  // A model that cannot load: fetching by id must not need it.
  const corpus = await openConfiguredCorpus(root, {
    dataDir,
    embedder: { model: "/nonexistent/model.gguf", threads: 1 },
  });
  try {
    const chunk = await corpus.chunk(hit.chunk.id);
    assert.deepEqual(chunk, { ...hit.chunk });
    assert.ok(Object.getOwnPropertyDescriptor(chunk, "content")!.value, "content is read");
    const text = await Deno.readTextFile(join(root, chunk!.sourcePath));
    assert.equal(text.slice(chunk!.startOffset, chunk!.endOffset), chunk!.content);
    assert.equal(await corpus.chunk("0".repeat(40)), undefined);
    assert.equal(await corpus.chunk(""), undefined);
    await assert.rejects(corpus.search("verify the jwt token"), /nonexistent\/model\.gguf/);
  } finally {
    await corpus.close();
  }
  const empty = await openConfiguredCorpus(await Deno.makeTempDir(), { dataDir });
  await assert.rejects(
    empty.chunk(hit.chunk.id),
    (error) => error instanceof WayfinderError && error.code === "no_index",
  );
});

Deno.test("search reads the long-input policy and model the index was built with", async () => {
  const root = await copyTree(join(CORPUS, "services"));
  const env = await dataEnv();
  const built = await wayfinder([
    "index",
    root,
    "--model",
    tinyModel(),
    "--long-input",
    "truncate",
    "--output",
    "jsonl",
  ], env);
  assert.equal(built.code, 0, built.stderr);
  assert.equal(built.stdout.trim().split("\n").length, 1, "jsonl is one compact line");
  JSON.parse(built.stdout);

  // Neither the model nor the policy repeated: both come from the index.
  const found = await wayfinder(["search", root, "refresh token", "--output", "json"], env);
  assert.equal(found.code, 0, found.stderr);
  const json = JSON.parse(found.stdout);
  assert.ok(json.matches.length > 0);
  assert.equal(json.matches[0].score, json.matches[0].similarity);

  const again = await wayfinder(["index", root, "--output", "json"], env);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(JSON.parse(again.stdout).current, true);

  // An explicit, different choice still meets the stale-index check.
  const other = await wayfinder(["search", root, "token", "--long-input", "reject"], env);
  assert.equal(other.code, 2);
  assert.match(other.stderr, /longInput "truncate" → "reject".*--rebuild/);
});

Deno.test("search --expand and --context-chars carry parent, offsets and contextText in JSON", async () => {
  const root = await copyTree(CORPUS);
  const env = await tinyEnv();
  assert.equal((await wayfinder(["index", root], env)).code, 0);
  const run = await wayfinder([
    "search",
    root,
    "verify the jwt token",
    "--mode",
    "bm25",
    "--expand",
    "--context-chars",
    "2000",
    "--output",
    "json",
  ], env);
  assert.equal(run.code, 0, run.stderr);
  const json = JSON.parse(run.stdout);
  assert.ok(json.matches.length > 0);
  for (const match of json.matches) {
    assert.equal(typeof match.chunk.startOffset, "number");
    assert.equal(typeof match.chunk.endOffset, "number");
    assert.ok(["declaration", "enclosing", "file"].includes(match.parent.reason));
  }
  assert.ok(json.contextText.length <= 2000);
  assert.match(json.contextText, /^## \S+:\d+-\d+/);

  const text = await wayfinder(
    ["search", root, "verify the jwt token", "--context-chars", "500"],
    env,
  );
  assert.equal(text.code, 0, text.stderr);
  assert.ok(text.stdout.length <= 500);
});

Deno.test("search --reranker-url reranks with a Text Embeddings Inference server", async () => {
  const root = await copyTree(join(CORPUS, "services"));
  const env = await tinyEnv();
  assert.equal((await wayfinder(["index", root], env)).code, 0);
  const received: number[] = [];
  // TEI's /rerank: the score is how often "password" occurs in the text.
  await using server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    async (request) => {
      const body = await request.json();
      received.push(body.texts.length);
      const scores = body.texts.map((text: string, index: number) => ({
        index,
        score: text.split("password").length - 1,
      }));
      return Response.json(scores);
    },
  );
  const url = `http://127.0.0.1:${server.addr.port}`;
  const run = await wayfinder(
    ["search", root, "user account", "--reranker-url", url, "--limit", "3", "--output", "json"],
    env,
  );
  assert.equal(run.code, 0, run.stderr);
  const json = JSON.parse(run.stdout);
  const reranked = json.matches.map((m: { scores: { rerank: number } }) => m.scores.rerank);
  assert.deepEqual(reranked, [...reranked].sort((a, b) => b - a));
  assert.ok(reranked[0] > 0);
  assert.equal(received.reduce((a, b) => a + b, 0), 50, "50 candidates by default, in batches");

  const down = await wayfinder(
    ["search", root, "user", "--reranker-url", "http://127.0.0.1:9", "--limit", "3"],
    env,
  );
  assert.equal(down.code, 2);
  assert.match(
    down.stderr,
    /^wayfinder: Cannot rerank with http:\/\/127\.0\.0\.1:9\/rerank: .*attempts\)\n$/,
  );
});

/** A 123-line function (lines 5-127) the chunker splits, between two small helpers. */
function bigFile(): string {
  const body = Array.from(
    { length: 120 },
    (_, i) => `  total += input[${i % 7}] * ${i}; // ${i === 60 ? "zebraquokka" : `step ${i}`}`,
  );
  return [
    "function helperA(x: number): number {",
    "  return x + 1;",
    "}",
    "",
    "export function giantRoutine(input: number[]): number {",
    "  let total = 0;",
    ...body.slice(1),
    "  return total;",
    "}",
    "",
    "function helperB(x: number): number {",
    "  return x - 1;",
    "}",
    "",
  ].join("\n");
}

Deno.test("search --expand shows a hit inside a split function in the whole function", async () => {
  const root = await Deno.makeTempDir({ prefix: "wayfinder-test-" });
  await Deno.mkdir(join(root, "src"));
  await Deno.writeTextFile(join(root, "src", "big.ts"), bigFile());
  const corpus = await openCorpus(root, await tinyCorpusOptions());
  try {
    await corpus.index();
    const parts = (await liveIndex(corpus)).chunks.filter((c) => c.symbol === "giantRoutine");
    assert.ok(parts.length > 1, "the chunker split giantRoutine");
    const { matches } = await corpus.search("zebraquokka", {
      limit: 1,
      mode: "lexical",
      expand: true,
    });
    const { chunk, parent } = matches[0];
    assert.equal(chunk.symbol, "giantRoutine");
    assert.ok(chunk.lineStart > 5 || chunk.lineEnd < 127, "the hit is one part");
    assert.deepEqual(
      [parent!.reason, parent!.symbol, parent!.lineStart, parent!.lineEnd],
      ["enclosing", "giantRoutine", 5, 127],
    );
  } finally {
    await corpus.close();
  }
});

Deno.test("a script outside the repository imports the front door by path with the repository's config", async () => {
  const project = await Deno.makeTempDir({ prefix: "wayfinder-user-" });
  const root = await copyTree(join(CORPUS, "services"));
  const script = join(project, "my_search.ts");
  await Deno.writeTextFile(
    script,
    `import { openCorpus } from ${JSON.stringify(join(REPO, "src", "mod.ts"))};
const corpus = await openCorpus(${JSON.stringify(root)}, {
  dataDir: ${JSON.stringify(join(project, "data"))},
  embedder: { model: ${JSON.stringify(tinyModel())}, threads: 1 },
});
await corpus.index();
const { matches } = await corpus.search("encrypt", { limit: 1, mode: "lexical" });
console.log(matches[0].chunk.sourcePath);
await corpus.close();
`,
  );
  const run = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--config", join(REPO, "deno.json"), script],
    cwd: project,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(run.stderr);
  assert.equal(run.code, 0, stderr);
  assert.match(new TextDecoder().decode(run.stdout), /\.dart\n$/);
});
