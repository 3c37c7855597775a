import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FakeEmbedder, WayfinderError } from "../src/mod.ts";
import { openConfiguredCorpus } from "../src/cli/mod.ts";
import { copyTree, REPO, tinyModelWithBudget, wayfinder } from "./_run.ts";
import { dataEnv, SERVICES, tinyEnv } from "./_env.ts";

async function env(maxTokens: number): Promise<Record<string, string>> {
  return await tinyEnv(await tinyModelWithBudget(maxTokens));
}

/** A tree with a long word, a long path and a table, for an 8-token budget. */
async function smallTree(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "wayfinder-fit-" });
  writeFileSync(join(root, "word.txt"), "abcdefghijklmnopqrstuvwxyz0123456789\n");
  const deep = join(root, "nested", "deeper", "deepest");
  mkdirSync(deep, { recursive: true });
  writeFileSync(join(deep, "notes.txt"), "a b c d\n");
  return root;
}

Deno.test("fit-inputs: exit 0 when everything fits, with the inputs index then stores", async () => {
  const root = await copyTree(SERVICES);
  const vars = await env(64);
  const fit = await wayfinder(["fit-inputs", root, "--output", "json"], vars);
  assert.equal(fit.code, 0, fit.stderr);
  const report = JSON.parse(fit.stdout);
  assert.equal(report.model, "wayfinder-tiny-test");
  assert.equal(report.maxTokens, 64);
  assert.equal(report.files.seen, 5);
  assert.ok(report.inputs > report.chunks && report.splitChunks > 0, fit.stdout);
  assert.ok(report.largestInput <= 64);
  assert.deepEqual(report.unfit, []);

  const index = await wayfinder(["index", root, "--output", "json"], vars);
  assert.equal(index.code, 0, index.stderr);
  const summary = JSON.parse(index.stdout);
  // Repeated inputs are embedded once and counted as reused: together, every stored chunk.
  assert.equal(summary.embeddedChunks + summary.reusedChunks, report.inputs);
  assert.equal(summary.truncatedChunks, 0);
});

Deno.test("fit-inputs: exit 0 with diagnostics per path and code, sorted, in text and JSON", async () => {
  const root = await smallTree();
  const vars = await env(8);
  const json = await wayfinder(["fit-inputs", root, "-o", "json"], vars);
  assert.equal(json.code, 0, json.stderr);
  assert.deepEqual(JSON.parse(json.stdout).diagnostics, [
    {
      code: "embedding_context_omitted",
      sourcePath: "nested/deeper/deepest/notes.txt",
      lineStart: 1,
      lineEnd: 1,
      affectedChunks: 1,
    },
    {
      code: "oversized_segment_split",
      sourcePath: "word.txt",
      lineStart: 1,
      lineEnd: 1,
      affectedChunks: 1,
    },
  ]);
  const text = await wayfinder(["fit-inputs", root], vars);
  assert.equal(text.code, 0, text.stderr);
  const lines = text.stdout.trimEnd().split("\n");
  assert.match(
    lines[0]!,
    /: 2 files, 2 chunks → \d+ inputs within 8 tokens of wayfinder-tiny-test/,
  );
  assert.deepEqual(lines.slice(1), [
    "  nested/deeper/deepest/notes.txt:1-1  embedding_context_omitted  1 chunk",
    "  word.txt:1-1  oversized_segment_split  1 chunk",
  ]);
  const skipping = await wayfinder(["fit-inputs", root, "--max-file-bytes", "20"], vars);
  assert.match(skipping.stdout, /: 1 file \(1 skipped\), 1 chunk → /);
});

Deno.test("fit-inputs --show-inputs: each input's exact text, path:lines and tokens in text, JSON and JSONL", async () => {
  const root = await smallTree();
  const vars = await env(64);
  const plain = JSON.parse((await wayfinder(["fit-inputs", root, "-o", "json"], vars)).stdout);
  assert.equal(plain.embeddingInputs, undefined, "listed only when asked");

  const json = await wayfinder(["fit-inputs", root, "--show-inputs", "-o", "json"], vars);
  assert.equal(json.code, 0, json.stderr);
  const report = JSON.parse(json.stdout);
  const inputs = report.embeddingInputs;
  assert.equal(inputs.length, report.inputs);
  const shown = inputs.map(({ chunkId: _, tokens: __, ...rest }: Record<string, unknown>) => rest);
  assert.deepEqual(shown, [
    {
      sourcePath: "nested/deeper/deepest/notes.txt",
      lineStart: 1,
      lineEnd: 1,
      text: "nested/deeper/deepest/notes.txt\na b c d",
    },
    {
      sourcePath: "word.txt",
      lineStart: 1,
      lineEnd: 1,
      text: "word.txt\nabcdefghijklmnopqrstuvwxyz0123456789",
    },
  ]);
  assert.equal(Math.max(...inputs.map((i: { tokens: number }) => i.tokens)), report.largestInput);

  const jsonl = await wayfinder(["fit-inputs", root, "--show-inputs", "-o", "jsonl"], vars);
  assert.equal(jsonl.code, 0, jsonl.stderr);
  assert.deepEqual(jsonl.stdout.trimEnd().split("\n").map((l) => JSON.parse(l)), inputs);

  const text = await wayfinder(["fit-inputs", root, "--show-inputs"], vars);
  assert.equal(text.code, 0, text.stderr);
  const word = inputs[1];
  assert.ok(
    text.stdout.includes(
      `word.txt:1-1  ${word.tokens} tokens\n    word.txt\n    abcdefghijklmnopqrstuvwxyz0123456789\n`,
    ),
    text.stdout,
  );
  assert.match(text.stdout, /\n[^\n]*: 2 files, 2 chunks → 2 inputs within 64 tokens/);
});

Deno.test("fit-inputs --show-inputs on a knowledge bundle shows each concept's context", async () => {
  const root = await copyTree(join(REPO, "fixtures", "okf", "valid"));
  const vars = await env(512);
  const run = await wayfinder(["fit-inputs", root, "--show-inputs", "-o", "jsonl"], vars);
  assert.equal(run.code, 0, run.stderr);
  const inputs = run.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
  const customers = inputs.find((i: { sourcePath: string }) =>
    i.sourcePath === "tables/customers.md"
  );
  assert.match(customers.text, /^Title: Customers\nDescription: One row per customer\.\n/);
});

Deno.test("fit-inputs: exit 1 when a body cannot fit even one character at a time", async () => {
  const root = await smallTree();
  const vars = await env(2);
  const json = await wayfinder(["fit-inputs", root, "--output", "json"], vars);
  assert.equal(json.code, 1, json.stderr);
  const report = JSON.parse(json.stdout);
  assert.deepEqual(report.unfit.map((u: { sourcePath: string }) => u.sourcePath), [
    "nested/deeper/deepest/notes.txt",
    "word.txt",
  ]);
  assert.equal(report.inputs, 0);
  const text = await wayfinder(["fit-inputs", root], vars);
  assert.equal(text.code, 1);
  assert.match(text.stdout, /word\.txt:1-1 {2}cannot fit: one character needs 3 tokens/);
  assert.match(text.stdout, /2 chunks cannot fit even one character at a time/);
});

Deno.test("fit-inputs: exit 2 for usage, a missing root and a missing model, in one line", async () => {
  const root = await smallTree();
  const vars = await env(64);
  const runs = [
    await wayfinder(["fit-inputs", root, "--long-input", "truncate"], vars),
    await wayfinder(["fit-inputs", join(root, "absent")], vars),
    await wayfinder(["fit-inputs", root], {
      ...vars,
      WAYFINDER_EMBEDDING_MODEL: join(root, "none.gguf"),
    }),
  ];
  for (const run of runs) {
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /^wayfinder: /);
    assert.equal(run.stderr.trim().split("\n").length, 1, run.stderr);
    assert.equal(run.stdout, "");
  }
});

Deno.test("corpus.fitInputs() counts with the embedder's tokenizer and never embeds", async () => {
  const root = await smallTree();
  const fake = new FakeEmbedder({ maxTokens: 6 });
  const calls: string[] = [];
  const embedder = {
    identity: fake.identity,
    countTokens: (text: string, kind: "document" | "query") => {
      calls.push(kind);
      return fake.countTokens(text, kind);
    },
    embedDocuments: () => Promise.reject(new Error("fit-inputs must not embed")),
    embedQuery: () => Promise.reject(new Error("fit-inputs must not embed")),
    close: () => Promise.resolve(),
  };
  const corpus = await openConfiguredCorpus(root, { dataDir: await Deno.makeTempDir(), embedder });
  try {
    const report = await corpus.fitInputs();
    assert.equal(report.model, "fake");
    assert.deepEqual(report.unfit, []);
    assert.deepEqual(report.diagnostics.map((d) => `${d.sourcePath} ${d.code}`), [
      "nested/deeper/deepest/notes.txt embedding_context_omitted",
    ]);
    assert.ok(calls.length > 0 && calls.every((kind) => kind === "document"));

    embedder.countTokens = () => Promise.reject(new Error("tokenizer crashed"));
    await assert.rejects(corpus.fitInputs(), (error: unknown) => {
      assert.ok(error instanceof WayfinderError);
      assert.equal(error.exit, 2);
      assert.equal(error.message, "Cannot count tokens: tokenizer crashed");
      return true;
    });
  } finally {
    await corpus.close();
  }
});

Deno.test("fit-inputs with an HTTP embedder estimates counts without contacting the server", async () => {
  const root = await smallTree();
  // Port 9 (discard) on loopback: nothing answers there, so any request would fail the run.
  const run = await wayfinder([
    "fit-inputs",
    root,
    "--embedder",
    "ollama",
    "--embedder-url",
    "http://127.0.0.1:9",
    "--model",
    "nomic-embed-text",
    "--output",
    "json",
  ], await dataEnv());
  assert.equal(run.code, 0, run.stderr);
  assert.equal(JSON.parse(run.stdout).model, "nomic-embed-text");
});
