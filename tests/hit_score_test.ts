/**
 * A library hit's `score` is what it was ranked by, and `similarity` (its
 * former name) the same number, whatever made the hit: each mode, reranking,
 * expansion, diversity, a knowledge bundle's matches and context.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { writeTinyReranker } from "../src/model/mod.ts";
import type { SearchHit } from "../src/mod.ts";
import { type ConfiguredSearchOptions, openConfiguredCorpus } from "../src/cli/mod.ts";
import { copyTree, REPO, tinyModel } from "./_run.ts";
import { SERVICES, tinyCorpusOptions } from "./_env.ts";

const MODES = ["dense", "lexical", "hybrid"] as const;

function assertScored(hits: SearchHit[], what: string) {
  assert.ok(hits.length > 0, `${what}: some hits`);
  for (const hit of hits) {
    assert.equal(typeof hit.score, "number", `${what}: ${hit.chunk.id} has a score`);
    assert.equal(hit.score, hit.similarity, `${what}: ${hit.chunk.id}`);
  }
}

Deno.test("every mode's hits carry score, equal to similarity, through rerank, expand and diverse", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wayfinder-score-" });
  const reranker = join(dir, "reranker.gguf");
  await writeTinyReranker(reranker);
  const corpus = await openConfiguredCorpus(await copyTree(SERVICES), {
    dataDir: join(dir, "data"),
    embedder: { model: tinyModel(), threads: 1 },
    reranker: { model: reranker, threads: 1 },
  });
  try {
    await corpus.index();
    const layers: ConfiguredSearchOptions[] = [
      {},
      { expand: true },
      { diverse: true },
      { rerank: 4 },
      { rerank: 4, expand: true, diverse: true },
    ];
    for (const mode of MODES) {
      for (const layer of layers) {
        const what = JSON.stringify({ mode, ...layer });
        const { matches } = await corpus.search("encrypt the user password", {
          limit: 5,
          mode,
          ...layer,
        });
        assertScored(matches, what);
        if (layer.rerank && !layer.diverse) {
          assert.equal(matches[0]!.score, matches[0]!.scores.rerank, `${what}: the rerank score`);
        }
      }
      const searcher = await corpus.searcher({ mode, rerank: 2 });
      const { matches } = await searcher.search({ query: "charge a payment", limit: 4 });
      assertScored(matches, `searcher ${mode}`);
      assert.notEqual(matches[3]!.scores.rerank, matches[3]!.score, "past the reranked two");
    }
  } finally {
    await corpus.close();
  }
});

Deno.test("a knowledge bundle's matches and context passages carry score, equal to similarity", async () => {
  const corpus = await openConfiguredCorpus(
    await copyTree(join(REPO, "fixtures", "okf", "knowledge")),
    await tinyCorpusOptions(),
  );
  try {
    await corpus.index();
    const policy = {
      expandLinks: true,
      governing: { "impl/transport.md": "standard/transport.md" },
    };
    for (const mode of MODES) {
      const result = await corpus.search("plain transport while debugging", { mode, policy });
      assertScored(result.matches, `knowledge ${mode}`);
      assert.ok(
        result.context!.some((entry) => entry.reason !== "match"),
        "context beyond matches",
      );
      assertScored(result.context!.map((entry) => entry.passage), `knowledge context ${mode}`);
    }
  } finally {
    await corpus.close();
  }
});
