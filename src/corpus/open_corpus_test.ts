import assert from "node:assert/strict";
import { join } from "node:path";
import { FakeEmbedder } from "../embed/mod.ts";
import type { WayfinderError } from "../error.ts";
import { liveIndex, openConfiguredCorpus, openCorpus } from "./open_corpus.ts";

/** A small tree and a data folder of its own, removed after `body`. */
async function withTree(body: (root: string, dataDir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "wayfinder-open-corpus-" });
  const root = join(dir, "tree");
  await Deno.mkdir(root);
  await Deno.writeTextFile(
    join(root, "auth.ts"),
    "export function refreshToken(token: string): string {\n  return token + '!';\n}\n",
  );
  await Deno.writeTextFile(join(root, "notes.md"), "# Billing\n\nInvoices go out monthly.\n");
  try {
    await body(root, join(dir, "data"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("openCorpus indexes, searches and reads a hit's lines with the caller's embedder", async () => {
  await withTree(async (root, dataDir) => {
    const embedder = new FakeEmbedder();
    const corpus = await openCorpus(root, { dataDir, embedder });
    await assert.rejects(
      corpus.readLines("auth.ts"),
      (e) => (e as WayfinderError).code === "no_index",
    );
    const summary = await corpus.index();
    assert.equal(summary.files.seen, 2);
    const { matches, notices } = await corpus.search("refresh token", { limit: 1 });
    assert.equal(matches[0]!.chunk.sourcePath, "auth.ts");
    assert.deepEqual(notices, []);
    const file = await corpus.readLines("auth.ts");
    assert.deepEqual(file, {
      path: "auth.ts",
      lines: [
        "export function refreshToken(token: string): string {",
        "  return token + '!';",
        "}",
      ],
      changedSinceIndex: false,
    });
    assert.equal(await corpus.readLines("missing.ts"), undefined);
    // Status compares the caller's embedder itself, not the settings that would open another.
    assert.equal((await corpus.status()).state, "ready");
    await corpus.close();
    const other = await openCorpus(root, {
      dataDir,
      embedder: new FakeEmbedder({ dimensions: 32 }),
    });
    const stale = await other.status();
    assert.equal(stale.state, "stale");
    assert.match(stale.stale!.reasons.join(), /dimensions 64 → 32/);
    await other.close();
    // The caller's embedder is the caller's to close: it still embeds.
    assert.equal((await embedder.embedQuery("x")).length, embedder.identity.dimensions);
  });
});

Deno.test("a corpus tells a file changed since it was indexed, in its lines and in search", async () => {
  await withTree(async (root, dataDir) => {
    const corpus = await openCorpus(root, { dataDir, embedder: new FakeEmbedder() });
    await corpus.index();
    await Deno.writeTextFile(join(root, "auth.ts"), "export const token = 1;\n");
    const file = await corpus.readLines("auth.ts");
    assert.equal(file?.changedSinceIndex, true);
    assert.deepEqual(file?.lines, ["export const token = 1;"]);
    // An edit in place leaves its folder's stat alone: the exact check finds it.
    const { notices } = await corpus.search("billing", { mode: "lexical", checkFresh: true });
    assert.match(
      notices.join("\n"),
      /the index is behind the tree \(1 changed, 0 added, 0 deleted/,
    );
    await Deno.remove(join(root, "auth.ts"));
    await assert.rejects(corpus.readLines("auth.ts"), (e) => (e as WayfinderError).code === "io");
    await corpus.close();
  });
});

Deno.test("a searcher from a corpus checks each query and caches its vector", async () => {
  await withTree(async (root, dataDir) => {
    let embedded = 0;
    const embedder = new FakeEmbedder({ maxTokens: 8 });
    const counting = Object.assign(Object.create(embedder), {
      embedQuery: (text: string) => (embedded++, embedder.embedQuery(text)),
    });
    const corpus = await openCorpus(root, { dataDir, embedder: counting });
    await corpus.index();
    const searcher = await corpus.searcher({ mode: "hybrid" });
    await searcher.search({ query: "refresh token", limit: 1 });
    await searcher.search({ query: "  refresh token ", limit: 1 });
    assert.equal(embedded, 1);
    await assert.rejects(searcher.search({ query: " ", limit: 1 }), /the query is empty/);
    await assert.rejects(
      searcher.search({ query: "one two three four five six seven eight nine ten", limit: 1 }),
      (e) => (e as WayfinderError).code === "long_input",
    );
    await corpus.close();
  });
});

Deno.test("an index run with nothing to do is told as current, without writing", async () => {
  await withTree(async (root, dataDir) => {
    const corpus = await openConfiguredCorpus(root, { dataDir, embedder: new FakeEmbedder() });
    const first = await corpus.index();
    assert.equal(first.current, false);
    const events: string[] = [];
    const again = await corpus.index({ onEvent: (event) => events.push(event.event) });
    assert.equal(again.embeddedChunks, 0);
    assert.equal(again.current, true);
    assert.equal(again.generation, null);
    assert.equal(again.reusedChunks, first.embeddedChunks);
    assert.equal(events.at(0), "started");
    assert.equal(events.at(-1), "published");
    await corpus.close();
  });
});

Deno.test("a lexical search opens the index without its vectors; a dense one after it reads them", async () => {
  await withTree(async (root, dataDir) => {
    const corpus = await openCorpus(root, { dataDir, embedder: new FakeEmbedder() });
    await corpus.index();
    const lexical = await corpus.search("refresh token", { mode: "lexical" });
    assert.equal(lexical.matches[0]?.scores.dense, undefined);
    assert.equal((await liveIndex(corpus)).vectors.length > 0, true, "open() loads them");
    const again = await openCorpus(root, { dataDir, embedder: new FakeEmbedder() });
    await again.search("refresh token", { mode: "lexical" });
    const dense = await again.search("refresh token", { mode: "dense" });
    assert.ok(dense.matches.length > 0);
    assert.equal(typeof dense.matches[0]!.scores.dense, "number");
    const hybrid = await again.search("refresh token", { mode: "hybrid" });
    assert.equal(typeof hybrid.matches[0]!.scores.dense, "number");
    await again.close();
    await corpus.close();
  });
});
