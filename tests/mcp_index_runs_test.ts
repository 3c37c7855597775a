/**
 * The MCP server's `index` runs: a rebuild never joins a plain run. Asked
 * while one goes, it waits for it, the plain run's caller gets the plain
 * run's result, and calls made meanwhile get the rebuild's. A real corpus,
 * tiny model, in process.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openConfiguredCorpus } from "../src/cli/mod.ts";
import { IndexRuns } from "../src/mcp/index_runs.ts";
import { tinyModel } from "./_run.ts";

async function notes(dir: string, from: number, to: number): Promise<void> {
  for (let i = from; i < to; i++) {
    await Deno.writeTextFile(join(dir, `note_${i}.md`), `# Note ${i}\n\nTopic ${i % 17}.\n`);
  }
}

Deno.test("a rebuild asked while a plain index run goes starts after it; calls made meanwhile join the rebuild", async () => {
  const root = await Deno.makeTempDir({ prefix: "wayfinder-runs-" });
  const dataDir = await Deno.makeTempDir({ prefix: "wayfinder-runs-" });
  await notes(root, 0, 100);
  const corpus = await openConfiguredCorpus(root, {
    dataDir,
    embedder: { model: tinyModel(), threads: 1 },
  });
  // Answers only when a run ends: every call here gets the summary of the run it waited for.
  const runs = new IndexRuns(600_000);
  try {
    await corpus.index();
    // Work enough that the plain run is still going when the other calls come.
    await notes(root, 100, 400);
    const call = new AbortController().signal;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const plain = runs.wait(corpus, call, () => started());
    await running;
    const rebuild = runs.wait(corpus, call, undefined, true);
    const joined = [runs.wait(corpus, call), runs.wait(corpus, call, undefined, true)];
    const [first, rebuilt, ...others] = await Promise.all([plain, rebuild, ...joined]);
    assert.ok(first!.ended && rebuilt!.ended);
    // The plain run updated what changed and reused the rest: it was not made a rebuild.
    assert.ok(first.summary.reusedChunks > 0, JSON.stringify(first.summary));
    assert.ok(first.summary.embeddedChunks > 0, JSON.stringify(first.summary));
    // The rebuild embedded everything again, after the plain run had published.
    assert.equal(rebuilt.summary.reusedChunks, 0, JSON.stringify(rebuilt.summary));
    assert.equal(
      rebuilt.summary.embeddedChunks,
      first.summary.embeddedChunks + first.summary.reusedChunks,
    );
    assert.ok(rebuilt.summary.generation! > first.summary.generation!);
    for (const other of others) {
      assert.ok(other!.ended);
      assert.equal(other.summary.generation, rebuilt.summary.generation, "joined the rebuild");
    }
    assert.equal((await corpus.status()).generation, rebuilt.summary.generation);
    await runs.settled();
  } finally {
    runs.stop();
    await runs.settled();
    await corpus.close();
  }
});
