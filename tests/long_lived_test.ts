/**
 * A process that keeps a corpus open (a server, an agent, a watcher) keeps
 * searching after newer generations are published (its reader lease keeps what it
 * holds until it moves on, and older ones are collected),
 * and while its own index run embeds.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type ConfiguredSearchResult, openConfiguredCorpus } from "../src/cli/mod.ts";
import { liveIndex } from "../src/corpus/mod.ts";
import { copyTree, tinyModel, wayfinder } from "./_run.ts";
import { SERVICES } from "./_env.ts";

Deno.test("a long-lived Corpus keeps lexical and dense search across two newer generations", async () => {
  const root = await copyTree(SERVICES);
  const dataDir = await Deno.makeTempDir();
  const corpus = await openConfiguredCorpus(root, {
    dataDir,
    embedder: { model: tinyModel(), threads: 1 },
  });
  try {
    await corpus.index();
    const held = await liveIndex(corpus);
    const heldSearcher = await corpus.searcher({ mode: "hybrid" });

    // Two newer generations, published by another process as a cron job or a watcher would.
    for (const word of ["zephyrquartz", "obsidianlattice"]) {
      await Deno.writeTextFile(join(root, `${word}.md`), `# ${word}\n\nThe ${word} rotates.\n`);
      const env = { WAYFINDER_DATA_DIR: dataDir, WAYFINDER_EMBEDDING_MODEL: tinyModel() };
      const run = await wayfinder(["index", root], env);
      assert.equal(run.code, 0, run.stderr);
    }
    // Its reader lease keeps the held generation on disk through both publishes.
    assert.ok((await Deno.stat(join(corpus.indexDir, held.generation))).isDirectory);

    // What the caller holds still answers, from its own generation.
    assert.ok(held.lexical("refresh token", 3).length > 0);
    const old = await heldSearcher.search({ query: "refresh token", limit: 3 });
    assert.equal(old.matches.length, 3);

    // The corpus itself follows the newest generation, lexical and dense.
    const lexical = await corpus.search("obsidianlattice", { mode: "lexical", limit: 1 });
    assert.equal(lexical.matches[0]!.chunk.sourcePath, "obsidianlattice.md");
    const live = await liveIndex(corpus);
    assert.notEqual(live.generation, held.generation);
    const dense = await corpus.search("zephyrquartz rotates", {
      mode: "dense",
      limit: live.chunks.length,
    });
    assert.equal(dense.matches.length, live.chunks.length);
    assert.ok(dense.matches.some((m) => m.chunk.sourcePath === "zephyrquartz.md"));

    // The corpus let go of it when it moved on: the next publish collects it.
    await Deno.writeTextFile(join(root, "quartz.md"), "# quartz\n\nThe quartz hums.\n");
    const env = { WAYFINDER_DATA_DIR: dataDir, WAYFINDER_EMBEDDING_MODEL: tinyModel() };
    assert.equal((await wayfinder(["index", root], env)).code, 0);
    await assert.rejects(
      Deno.stat(join(corpus.indexDir, held.generation)),
      Deno.errors.NotFound,
      "the held generation was collected",
    );
    assert.ok(held.lexical("refresh token", 3).length > 0, "its full text was kept");
  } finally {
    await corpus.close();
  }
});

/** Notes `from` to `to`, of passages up to about 400 tokens long: each batch of a run takes a while. */
async function writeLongPassages(root: string, from: number, to: number): Promise<void> {
  const words = "index search query server memory cache table column request response".split(" ");
  for (let f = from; f < to; f++) {
    const sections = Array.from({ length: 4 }, (_, s) => {
      const text = Array.from({ length: 400 }, (_, w) => words[(f * 7 + s * 3 + w * w) % 10]);
      return `## section ${s}\n\n${text.join(" ")}\n`;
    });
    await Deno.writeTextFile(join(root, `notes${f}.md`), `# notes ${f}\n\n${sections.join("\n")}`);
  }
}

Deno.test("a dense search during the same corpus's index run waits for one passage, not the batch", async () => {
  const root = await Deno.makeTempDir({ prefix: "wayfinder-test-" });
  const dataDir = await Deno.makeTempDir();
  const corpus = await openConfiguredCorpus(root, {
    dataDir,
    embedder: { model: tinyModel(), threads: 1 },
    maxChunkChars: 2400,
  });
  try {
    await writeLongPassages(root, 0, 3);
    await corpus.index();
    // Many new files: the run embeds them in batches while the complete generation serves.
    await writeLongPassages(root, 3, 30);
    let batches = 0;
    let finished = false;
    let searched:
      | Promise<{ result: ConfiguredSearchResult; sent: number; answered: number; during: boolean }>
      | undefined;
    const summary = await corpus.index({
      onEvent(event) {
        if (event.event !== "batch") return;
        batches++;
        if (searched) return;
        // The run hands its next batch to the embedder as this returns.
        const sent = batches;
        searched = corpus.search("search the index cache", { mode: "dense", limit: 5 })
          .then((result) => ({ result, sent, answered: batches, during: !finished }));
      },
    });
    finished = true;
    assert.ok(searched, "the run embedded in batches");
    const { result, sent, answered, during } = await searched;
    assert.ok(during, "answered before the run ended");
    assert.equal(answered, sent, "answered before the batch in progress was embedded");
    assert.equal(result.matches.length, 5);
    assert.ok(result.matches.every((match) => match.scores.dense !== undefined));
    assert.ok(summary.embeddedChunks > 32 * 3, `${summary.embeddedChunks} passages embedded`);
  } finally {
    await corpus.close();
  }
});
