/**
 * Searchable before embedding ends: a run with much to embed publishes
 * generations whose passages are all searchable lexically and whose dense
 * ranking covers what is embedded so far; a run stopped midway leaves such a
 * generation live, and the next run embeds only what it lacks.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type ConfiguredCorpus, openConfiguredCorpus, type PartialEvent } from "../src/cli/mod.ts";
import { openEmbedder } from "../src/corpus/mod.ts";
import type { Embedder } from "../src/embed/mod.ts";
import { rowsIn } from "../src/row_ranges.ts";
import { openIndex, writeRunProgress } from "../src/store/mod.ts";
import { copyTree, REPO, tinyModel } from "./_run.ts";
import { CORPUS, tinyCorpusOptions } from "./_env.ts";

/** `root` opened with the tiny model in a fresh data root. */
async function tinyCorpus(root: string): Promise<ConfiguredCorpus> {
  return await openConfiguredCorpus(root, await tinyCorpusOptions());
}

/** Indexes until the first partial generation is published, then stops the run. */
async function stopAtPartial(corpus: ConfiguredCorpus) {
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

Deno.test("a first build is searchable at its first publish; a stopped one resumes and embeds only the rest", async () => {
  const root = await copyTree(CORPUS);
  const corpus = await tinyCorpus(root);
  try {
    const { dense: { covered, total } } = await stopAtPartial(corpus);
    assert.equal(covered, 0, "published before the first batch");
    const index = (await openIndex(corpus.indexDir))!;
    assert.deepEqual(index.pending, [[0, total]]);
    const status = await corpus.status();
    assert.deepEqual(status.dense, { covered: 0, total });
    assert.match(status.stale!.reasons.join("\n"), new RegExp(`${total} of ${total} chunks`));

    // Lexically, every passage is found at once.
    const last = index.chunks[total - 1]!;
    const words = last.content.split(/\W+/).filter((w) => w.length > 4).slice(0, 4).join(" ");
    const lexical = await corpus.search(words, { mode: "lexical", limit: 20 });
    assert.ok(lexical.matches.some((m) => m.chunk.id === last.id));
    assert.deepEqual(lexical.notices, []);

    // Densely, nothing is embedded yet, and the answer says so.
    const coverage = `dense covers 0 of ${total} chunks`;
    const dense = await corpus.search(words, { mode: "dense", limit: 5 });
    assert.deepEqual(dense.matches, []);
    assert.equal(dense.notices[0], `${coverage}; run 'wayfinder index ${root}' to embed the rest`);
    const hybrid = await corpus.search(words, { mode: "hybrid", limit: 5 });
    assert.ok(
      hybrid.matches.length > 0 && hybrid.matches.every((m) => m.scores.dense === undefined),
    );

    // While a writer runs, the notice says indexing continues.
    const now = new Date().toISOString();
    await writeRunProgress(corpus.indexDir, {
      pid: Deno.pid,
      startedAt: now,
      updatedAt: now,
      phase: "embed",
      filesDone: 1,
      filesTotal: 1,
      chunksDone: 0,
      chunksTotal: total,
    });
    const during = await corpus.search(words, { limit: 3 });
    assert.equal(during.notices[0], `${coverage}; indexing continues`);

    const resumed = await corpus.index();
    assert.ok(resumed.embeddedChunks > 0 && resumed.embeddedChunks <= total);
    const complete = (await openIndex(corpus.indexDir))!;
    assert.equal(complete.pending, undefined);
    assert.equal((await corpus.status()).dense, undefined);

    // The same vectors as a run that was never stopped.
    const fresh = await tinyCorpus(root);
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

Deno.test("a complete live generation keeps serving until the run ends: no partial one replaces it", async () => {
  const root = await copyTree(CORPUS);
  const held = await Deno.makeTempDir();
  await Deno.rename(join(root, "services"), join(held, "services"));
  const corpus = await tinyCorpus(root);
  try {
    await corpus.index();
    await Deno.rename(join(held, "services"), join(root, "services"));
    for (const rebuild of [false, true]) {
      const events: string[] = [];
      const run = await corpus.index({
        rebuild,
        partial: { minInputs: 1 },
        onEvent: (event) => events.push(event.event),
      });
      assert.ok(run.embeddedChunks > 0);
      assert.ok(!events.includes("partial"), `rebuild ${rebuild}: ${events}`);
    }
  } finally {
    await corpus.close();
  }
});

Deno.test("knowledge search refuses dense ranking over a partial generation and names the fix", async () => {
  const root = await copyTree(join(REPO, "fixtures", "okf", "knowledge"));
  const corpus = await tinyCorpus(root);
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

/**
 * The tiny model, slowed after each batch to ten times the pause before it
 * (a publish, when there was one), so the partial publisher's own pacing
 * (never more often than 10× a publish's time) lets it publish before every
 * batch however slow the disk is. `mark` is stamped at each progress report.
 */
async function pacedTinyModel() {
  const inner = await openEmbedder({ model: tinyModel(), threads: 1 });
  let mark = performance.now();
  const embedder: Embedder = {
    identity: inner.identity,
    async embedDocuments(texts) {
      const pause = performance.now() - mark;
      const vectors = await inner.embedDocuments(texts);
      await new Promise((done) => setTimeout(done, 10 * pause + 20));
      return vectors;
    },
    embedQuery: (text) => inner.embedQuery(text),
    countTokens: (text, kind) => inner.countTokens(text, kind),
    close: () => inner.close(),
  };
  return { embedder, onProgress: () => mark = performance.now() };
}

Deno.test("a run stopped while embedding publishes what it embedded, so the next run keeps it", async () => {
  const root = await copyTree(CORPUS);
  const corpus = await tinyCorpus(root);
  try {
    const stop = new AbortController();
    const covered: number[] = [];
    await assert.rejects(corpus.index({
      partial: { minInputs: 1, everyMs: 60_000 },
      signal: stop.signal,
      onEvent(event) {
        if (event.event === "partial") covered.push(event.dense.covered);
        if (event.event === "batch") stop.abort();
      },
    }));
    // Published before the first step, then once more on the way out, with that step's vectors.
    assert.deepEqual(covered, [0, 32]);
    const index = (await openIndex(corpus.indexDir))!;
    assert.equal(rowsIn(index.pending), index.chunks.length - 32);
    const resumed = await corpus.index();
    assert.equal(resumed.embeddedChunks, index.chunks.length - 32);
  } finally {
    await corpus.close();
  }
});

Deno.test("a resumed run keeps the generation it reuses passages from until it ends", async () => {
  // Seven embedding steps of 32: the run publishes before each and at the end.
  const root = await Deno.makeTempDir({ prefix: "wayfinder-test-" });
  for (let i = 0; i < 200; i++) {
    await Deno.writeTextFile(join(root, `note-${i}.txt`), `Note ${i} about topic ${i * 7919}.\n`);
  }
  const { embedder, onProgress } = await pacedTinyModel();
  const corpus = await openConfiguredCorpus(root, { dataDir: await Deno.makeTempDir(), embedder });
  try {
    const { generation: started } = await stopAtPartial(corpus);
    // Every publish of this run reads the reused passages' text from `started`;
    // its third publish used to find that generation collected.
    const partials: string[] = [];
    const resumed = await corpus.index({
      partial: { minInputs: 1, everyMs: 0 },
      onProgress,
      onEvent: (event) => event.event === "partial" && partials.push(event.generation),
    });
    assert.equal(partials.length, Math.ceil(200 / 32));
    assert.equal(resumed.embeddedChunks, 200);
    const index = (await openIndex(corpus.indexDir))!;
    assert.equal(index.pending, undefined);
    assert.match(index.chunks[199]!.content, /^Note \d+ about topic/);
    // Once the run has ended, its starting generation is garbage like any other.
    await Deno.writeTextFile(join(root, "note-0.txt"), "Changed.\n");
    await corpus.index({ partial: false });
    const names = [...Deno.readDirSync(corpus.indexDir)].map((entry) => entry.name);
    assert.ok(!names.includes(started), `${started} outlived its run`);
  } finally {
    await corpus.close();
    await embedder.close();
  }
});
