/**
 * A process that keeps a corpus open (a server, an agent, a watcher) keeps
 * searching after newer generations are published and older ones collected.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openCorpus } from "../src/mod.ts";
import { copyTree, REPO, tinyModel, wayfinder } from "./_run.ts";

const SERVICES = join(REPO, "fixtures", "corpus", "services");

Deno.test("a long-lived Corpus keeps lexical and dense search across two newer generations", async () => {
  const root = await copyTree(SERVICES);
  const dataDir = await Deno.makeTempDir();
  const corpus = await openCorpus(root, { dataDir, embedder: { model: tinyModel(), threads: 1 } });
  try {
    await corpus.index();
    const held = await corpus.open();
    const heldSearcher = await corpus.searcher({ mode: "hybrid" });

    // Two newer generations, published by another process as a cron job or a watcher would.
    for (const word of ["zephyrquartz", "obsidianlattice"]) {
      await Deno.writeTextFile(join(root, `${word}.md`), `# ${word}\n\nThe ${word} rotates.\n`);
      const env = { WAYFINDER_DATA_DIR: dataDir, WAYFINDER_EMBEDDING_MODEL: tinyModel() };
      const run = await wayfinder(["index", root], env);
      assert.equal(run.code, 0, run.stderr);
    }
    await assert.rejects(
      Deno.stat(join(corpus.indexDir, held.generation)),
      Deno.errors.NotFound,
      "the held generation was collected",
    );

    // What the caller holds still answers, from its own generation.
    assert.ok(held.lexical("refresh token", 3).length > 0);
    const old = await heldSearcher.search({ query: "refresh token", limit: 3 });
    assert.equal(old.matches.length, 3);

    // The corpus itself follows the newest generation, lexical and dense.
    const lexical = await corpus.search("obsidianlattice", { mode: "lexical", limit: 1 });
    assert.equal(lexical.matches[0]!.chunk.sourcePath, "obsidianlattice.md");
    const live = await corpus.open();
    assert.notEqual(live.generation, held.generation);
    const dense = await corpus.search("zephyrquartz rotates", { limit: live.chunks.length });
    assert.equal(dense.matches.length, live.chunks.length);
    assert.ok(dense.matches.some((m) => m.chunk.sourcePath === "zephyrquartz.md"));
  } finally {
    await corpus.close();
  }
});
