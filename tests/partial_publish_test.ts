/**
 * Searchable before embedding ends: a run with much to embed publishes
 * generations whose passages are all searchable lexically and whose dense
 * ranking covers what is embedded so far; a run stopped midway leaves such a
 * generation live, and the next run embeds only what it lacks.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type Corpus, openCorpus, type PartialEvent } from "../src/mod.ts";
import { openIndex, writeRunProgress } from "../src/store/mod.ts";
import { copyTree, REPO, tinyModel } from "./_run.ts";

/** Indexes until the first partial generation is published, then stops the run. */
async function stopAtPartial(corpus: Corpus) {
  const stop = new AbortController();
  const partials: PartialEvent[] = [];
  await assert.rejects(
    corpus.index({
      partial: { minInputs: 1 },
      signal: stop.signal,
      onEvent(event) {
        if (event.event !== "partial") return;
        partials.push(event);
        stop.abort();
      },
    }),
  );
  assert.equal(partials.length, 1);
  return partials[0]!;
}

Deno.test("a partial generation answers lexically in full and densely for what is embedded; the next run embeds only the rest", async () => {
  // Half the tree is indexed; the other half arrives and its run stops at its first publish.
  const root = await copyTree(join(REPO, "fixtures", "corpus"));
  const held = await Deno.makeTempDir();
  for (const dir of ["services", "docs"]) await Deno.rename(join(root, dir), join(held, dir));
  const dataDir = await Deno.makeTempDir();
  const corpus = await openCorpus(root, { dataDir, embedder: { model: tinyModel(), threads: 1 } });
  try {
    await corpus.index();
    for (const dir of ["services", "docs"]) await Deno.rename(join(held, dir), join(root, dir));
    const partial = await stopAtPartial(corpus);
    const { covered, total } = partial.dense;

    const index = (await openIndex(corpus.indexDir))!;
    const waits = (path: string) => /^(services|docs)\//.test(path);
    const isNew = (row: number) => waits(index.chunks[row]!.sourcePath);
    const newRows = index.chunks.flatMap((_, row) => isNew(row) ? [row] : []);
    assert.equal(total - covered, newRows.length, "exactly the new files' rows wait");
    assert.ok(covered > 0 && newRows.length > 0);
    assert.deepEqual(
      index.pending!.flatMap(([s, e]) => [...Array(e - s).keys()].map((i) => s + i)),
      newRows,
    );
    const status = await corpus.status();
    assert.deepEqual(status.dense, { covered, total });
    assert.match(
      status.stale!.reasons.join("\n"),
      new RegExp(`${total - covered} of ${total} chunks`),
    );

    // Lexically, a passage that has no vector yet is found like any other.
    const waiting = index.chunks[newRows.at(-1)!]!;
    const words = waiting.content.split(/\W+/).filter((w) => w.length > 4).slice(0, 4).join(" ");
    const lexical = await corpus.search(words, { mode: "lexical", limit: 20 });
    assert.ok(lexical.matches.some((m) => m.chunk.id === waiting.id));
    assert.deepEqual(lexical.notices, []);

    // Densely, only embedded rows rank, and the answer says how much is covered.
    const dense = await corpus.search(words, { limit: 20 });
    assert.equal(dense.matches.length, 20);
    assert.ok(dense.matches.every((m) => !waits(m.chunk.sourcePath)));
    const coverage = `dense covers ${covered} of ${total} chunks`;
    assert.equal(dense.notices[0], `${coverage}; run 'wayfinder index ${root}' to embed the rest`);
    const hybrid = await corpus.search(words, { mode: "hybrid", limit: 100 });
    assert.ok(hybrid.matches.some((m) => waits(m.chunk.sourcePath)), "lexical hits still fuse in");
    for (const m of hybrid.matches) {
      assert.equal(m.scores.dense === undefined, waits(m.chunk.sourcePath), m.chunk.id);
    }

    // While a writer runs, the notice says indexing continues.
    const now = new Date().toISOString();
    await writeRunProgress(corpus.indexDir, {
      pid: Deno.pid,
      startedAt: now,
      updatedAt: now,
      phase: "embed",
      filesDone: 1,
      filesTotal: 1,
      chunksDone: covered,
      chunksTotal: total,
    });
    const during = await corpus.search(words, { limit: 3 });
    assert.equal(during.notices[0], `${coverage}; indexing continues`);

    const resumed = await corpus.index();
    assert.ok(resumed.reusedChunks >= covered, "the embedded rows are kept");
    assert.ok(resumed.embeddedChunks > 0 && resumed.embeddedChunks <= total - covered);
    const complete = (await openIndex(corpus.indexDir))!;
    assert.equal(complete.pending, undefined);
    assert.equal((await corpus.status()).dense, undefined);

    // The same vectors as a run that was never stopped.
    const fresh = await openCorpus(root, {
      dataDir: await Deno.makeTempDir(),
      embedder: { model: tinyModel(), threads: 1 },
    });
    try {
      await fresh.index({ partial: false });
      assert.deepEqual((await openIndex(fresh.indexDir))!.vectors, complete.vectors);
    } finally {
      await fresh.close();
    }
  } finally {
    await corpus.close();
  }
});

Deno.test("knowledge search refuses dense ranking over a partial generation and names the fix", async () => {
  const root = await copyTree(join(REPO, "fixtures", "okf", "knowledge"));
  const corpus = await openCorpus(root, {
    dataDir: await Deno.makeTempDir(),
    embedder: { model: tinyModel(), threads: 1 },
  });
  try {
    const { dense } = await stopAtPartial(corpus);
    await assert.rejects(
      corpus.search("token rotation"),
      new RegExp(
        `in dense mode: dense covers 0 of ${dense.total} chunks .*--mode lexical`,
      ),
    );
    const lexical = await corpus.search("token rotation", { mode: "lexical" });
    assert.ok(lexical.matches.length > 0);
  } finally {
    await corpus.close();
  }
});
