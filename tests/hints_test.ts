/**
 * A corpus words the fix its errors and notices name for whoever reads them:
 * library code is told which method or option to use, an agent calling the
 * MCP tools which tool or argument, and the CLI's user which command or
 * flag. Each library hint is then followed, and the corpus works again.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { CorpusOptions } from "../src/mod.ts";
import { type ConfiguredCorpus, openConfiguredCorpus } from "../src/cli/mod.ts";
import { copyTree, tinyModel, tinyModelWithBudget } from "./_run.ts";
import { hintsFor } from "../src/hints.ts";
import { SERVICES } from "./_env.ts";

/** A tree, and a corpus over it (one index) for each reader: library, tools, the CLI. */
async function readers() {
  const root = await copyTree(SERVICES);
  const dataDir = await Deno.makeTempDir({ prefix: "wayfinder-hints-" });
  const open = (hintsFor?: CorpusOptions["hintsFor"], options: CorpusOptions = {}) =>
    openConfiguredCorpus(root, {
      dataDir,
      embedder: { model: tinyModel(), threads: 1 },
      ...options,
      hintsFor,
    });
  return {
    root,
    open,
    corpora: [await open("library"), await open("tools"), await open()],
  };
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

async function closeAll(corpora: ConfiguredCorpus[]) {
  for (const corpus of corpora) await corpus.close();
}

Deno.test("hints: no index, a query over budget and files changed, worded per reader", async () => {
  const { root, corpora } = await readers();
  const [library, tools, cli] = corpora as [ConfiguredCorpus, ConfiguredCorpus, ConfiguredCorpus];
  try {
    await assert.rejects(library.search("session token"), {
      code: "no_index",
      message: `No index for ${root}; call corpus.index() first`,
    });
    await assert.rejects(tools.search("session token"), {
      code: "no_index",
      message: `No index for ${root}; call the index tool for ${root} first`,
    });
    await assert.rejects(cli.search("session token"), {
      code: "no_index",
      message: `No index for ${root}; run 'wayfinder index ${root}' first`,
    });
    await library.index();

    await Deno.writeTextFile(join(root, "notes.md"), "# Notes\n\nRotate the session keys.\n");
    const huge = "refresh the session token ".repeat(400);
    const overBudget = (fix: string) => ({
      code: "long_input",
      message: new RegExp(
        `^Cannot search: the query is \\d+ tokens, more than the 512 that model 'wayfinder-tiny-test' takes; shorten it or search with ${fix}$`,
      ),
    });
    await assert.rejects(library.search(huge), overBudget(`\\{ mode: "lexical" \\}`));
    await assert.rejects(tools.search(huge, { mode: "hybrid" }), overBudget(`mode: "lexical"`));
    await assert.rejects(cli.search(huge), overBudget("--mode lexical"));
    const lexical = await library.search(huge, { mode: "lexical", limit: 2 });
    assert.equal(lexical.matches.length, 2, "the mode the hint names takes the query");

    // The folder check tells the file added, and where the exact count is.
    const behind =
      "the index may be behind the tree: 1 folder changed since it was built (files added, removed or renamed there)";
    assert.deepEqual((await library.search("session keys")).notices, [
      `${behind}; call corpus.index(), or call corpus.status() (or search with { checkFresh: true }) for the exact count`,
    ]);
    assert.deepEqual((await tools.search("session keys")).notices, [
      `${behind}; call the index tool for ${root}, or call the status tool for ${root} (or search with checkFresh: true) for the exact count`,
    ]);
    assert.deepEqual((await cli.search("session keys")).notices, [
      `${behind}; run 'wayfinder index ${root}', or run 'wayfinder status ${root}' (or search with --check-fresh) for the exact count`,
    ]);
    const exact = "the index is behind the tree (0 changed, 1 added, 0 deleted since it was built)";
    assert.deepEqual((await tools.search("session keys", { checkFresh: true })).notices, [
      `${exact}; call the index tool for ${root}`,
    ]);
    await library.index();
    assert.deepEqual((await library.search("session keys")).notices, []);

    // A knowledge policy on a plain tree, and reranking with no cross-encoder.
    const policy = { current: true };
    const ignored = (fix: string) =>
      `the knowledge policy was ignored: ${root} is not indexed as an OKF bundle (its index.md declares no okf_version; ${fix} to make it one)`;
    assert.ok(
      (await library.search("session", { policy })).notices.includes(
        ignored("open it with { knowledge: true } and call corpus.index()"),
      ),
    );
    assert.ok(
      (await tools.search("session", { policy })).notices.includes(
        ignored(`ask the user to serve it with --knowledge, then call the index tool for ${root}`),
      ),
    );
    await assert.rejects(library.search("session", { rerank: true }), {
      code: "usage",
      message:
        "rerank needs a cross-encoder: pass reranker: { model: PATH } (a GGUF reranker) or reranker: { url: URL } (a TEI server) to openCorpus",
    });
    await assert.rejects(tools.search("session", { rerank: true }), {
      code: "usage",
      message:
        "--rerank needs a cross-encoder: ask the user to serve it with --reranker PATH (a GGUF reranker) or --reranker-url URL (a TEI server)",
    });
  } finally {
    await closeAll(corpora);
  }
});

Deno.test("hints: an index built with another model or unusable, worded per reader and then mended", async () => {
  const { root, open, corpora } = await readers();
  // The same model under another long-input policy: vectors of another identity.
  const other: CorpusOptions = {
    embedder: { model: tinyModel(), threads: 1, longInput: "truncate" },
  };
  const moved = [
    await open("library", other),
    await open("tools", other),
    await open(undefined, other),
  ];
  const [library, tools, cli] = moved as [ConfiguredCorpus, ConfiguredCorpus, ConfiguredCorpus];
  try {
    await corpora[0]!.index();
    const built =
      `Cannot use index for ${root}: model 'wayfinder-tiny-test' was set up another way when it was built (longInput "reject" → "truncate")`;
    const libraryFix = {
      code: "stale_index",
      message: `${built}; call corpus.index({ rebuild: true })`,
    };
    await assert.rejects(library.search("session token"), libraryFix);
    await assert.rejects(library.index(), libraryFix, "an index run says the same");
    // The tools rebuild with the server's settings, which are what differs from the record.
    const toolsFix = `call the index tool for ${root} with rebuild: true`;
    await assert.rejects(tools.search("session token"), {
      code: "stale_index",
      message: `${built}; ${toolsFix}`,
    });
    // The command carries the flags the rebuild needs.
    const command = `'wayfinder index ${escaped(root)}( [^']*)? --rebuild'`;
    await assert.rejects(cli.search("session token"), {
      code: "stale_index",
      message: new RegExp(`^${escaped(built)}; run ${command}$`),
    });
    // status names the same fix as its hint, in each reader's words.
    assert.equal((await library.status()).hint, "call corpus.index({ rebuild: true })");
    assert.equal((await tools.status()).hint, toolsFix);
    assert.match((await cli.status()).hint ?? "", new RegExp(`^run ${command}$`));
    await library.index({ rebuild: true });
    assert.ok((await library.search("session token")).matches.length > 0, "rebuilt as told");

    // A `current` naming no generation: the index is unusable, and an index run rebuilds it.
    await Deno.writeTextFile(join(library.indexDir, "current"), "not a generation\n");
    const unusable = `Cannot use index at ${library.indexDir}: 'current' names no generation`;
    await assert.rejects(library.search("session token"), {
      code: "stale_index",
      message: `${unusable}; call corpus.index() to rebuild it`,
    });
    assert.deepEqual((await tools.status()).stale?.reasons, [
      `${unusable}; call the index tool for ${root} to rebuild it`,
    ]);
    assert.deepEqual((await cli.status()).stale?.reasons, [
      `${unusable}; run 'wayfinder index ${root}' to rebuild it`,
    ]);
    await library.index();
    assert.ok((await library.search("session token")).matches.length > 0, "rebuilt as told");
  } finally {
    await closeAll([...corpora, ...moved]);
  }
});

Deno.test("hints: what only the opener sets (an embedder's URL, the long-input policy) names openCorpus's options", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "wayfinder-hints-" });
  const remote = (hintsFor: CorpusOptions["hintsFor"]) =>
    openConfiguredCorpus(SERVICES, {
      dataDir,
      embedder: { provider: "ollama", model: "m" },
      hintsFor,
    });
  const library = await remote("library");
  const tools = await remote("tools");
  try {
    await assert.rejects(library.fitInputs(), {
      code: "usage",
      message: "The ollama embedder needs embedder: { url: URL }",
    });
    await assert.rejects(tools.fitInputs(), {
      code: "usage",
      message:
        "The ollama embedder needs --embedder-url or embedding.url in wayfinder.json; ask the user to set it",
    });
  } finally {
    await closeAll([library, tools]);
  }

  // A budget of two tokens holds no character: every passage is over it.
  const model = await tinyModelWithBudget(2);
  const tiny = (longInput?: "truncate") =>
    openConfiguredCorpus(SERVICES, {
      dataDir,
      embedder: { model, threads: 1, longInput },
      hintsFor: "library",
    });
  const strict = await tiny();
  try {
    await assert.rejects(strict.index(), {
      code: "long_input",
      message:
        /; exclude them \(exclude: \[GLOB\]\) or embed their first tokens \(embedder: \{ longInput: "truncate" \}\)$/,
    });
  } finally {
    await strict.close();
  }
  const lenient = await tiny("truncate");
  try {
    assert.ok((await lenient.index()).truncatedChunks > 0, "embedded as told, cut to the budget");
  } finally {
    await lenient.close();
  }
});

Deno.test("hints: an unknown reader is refused when the corpus is opened", async () => {
  await assert.rejects(
    openConfiguredCorpus(SERVICES, {
      hintsFor: "robots" as "cli",
      dataDir: await Deno.makeTempDir(),
    }),
    { code: "usage", message: "Unknown hints audience 'robots'; expected cli, tools or library" },
  );
});

Deno.test("hints: another tree's index in the folder is the tools' to replace only if the user agrees", async () => {
  const { root, corpora } = await readers();
  const [library] = corpora as [ConfiguredCorpus];
  const other = await copyTree(SERVICES);
  const tools = await openConfiguredCorpus(other, {
    indexDir: library.indexDir,
    embedder: { model: tinyModel(), threads: 1 },
    hintsFor: "tools",
  });
  try {
    await library.index();
    await assert.rejects(tools.search("session token"), {
      code: "stale_index",
      message: `Cannot use index at ${library.indexDir}: it indexes ${root}, not ${other}; ` +
        "ask the user to serve it with another --index-dir, or, if the user agrees to replace " +
        `that index, call the index tool for ${other} with rebuild: true`,
    });
    await tools.index({ rebuild: true });
    assert.ok((await tools.search("session token")).matches.length > 0, "replaced as told");
  } finally {
    await closeAll([...corpora, tools]);
  }
});

Deno.test("a library rebuild hint names what only the index recorded, as the tools' does", () => {
  const fix = {
    command: "wayfinder index /r --model m.gguf --rebuild",
    recorded: "--model m.gguf",
  };
  for (const audience of ["library", "tools"] as const) {
    assert.match(hintsFor(audience).rebuild("/r", fix), /drops the index's own --model m\.gguf/);
    assert.doesNotMatch(hintsFor(audience).rebuild("/r"), /drops/);
  }
  assert.equal(hintsFor("cli").rebuild("/r", fix), `run '${fix.command}'`);
});
