/**
 * Query latency while an index run embeds, in one process: the situation of
 * the MCP server, `watch` and a library user, where search and index share
 * one embedder. A copy of a tree (default: this repository's `src/`) is
 * indexed from scratch twice, each time into a fresh index folder:
 *
 * - "alone": nothing else runs, for the run's throughput;
 * - "searched": once the first partial generation is published, a dense and a
 *   lexical search are sent every `--every-ms`, one after another, each with
 *   a query text not asked before (the corpus keeps query vectors by text).
 *
 * Prints each run's time and chunks per second, and the latency (p50, p90,
 * max) of the searches during the run, then the figures as one JSON line.
 *
 *   deno run -A bench/search_during_index.ts [--model .cache/models/minilm-f16.gguf]
 *     [--tree src] [--threads 2] [--every-ms 1000] [--runs alone,searched]
 */
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { openConfiguredCorpus } from "../src/cli/mod.ts";

const REPO = new URL("..", import.meta.url).pathname;

const { values } = parseArgs({
  args: Deno.args,
  options: {
    model: { type: "string", default: join(REPO, ".cache/models/minilm-f16.gguf") },
    tree: { type: "string", default: join(REPO, "src") },
    threads: { type: "string", default: "2" },
    "every-ms": { type: "string", default: "1000" },
    runs: { type: "string", default: "alone,searched" },
  },
});
const threads = Number(values.threads);
const everyMs = Number(values["every-ms"]);

const QUERIES = [
  "how is the index saved",
  "parse command line flags",
  "load the embedding model",
  "walk the tree and skip ignored files",
  "chunk a file with tree-sitter",
  "rank hits by cosine similarity",
];

interface RunFigures {
  run: string;
  seconds: number;
  embedded: number;
  chunksPerSecond: number;
  dense: Latency | null;
  lexical: Latency | null;
}

interface Latency {
  count: number;
  p50: number;
  p90: number;
  max: number;
}

function latency(samples: number[]): Latency | null {
  if (samples.length === 0) return null;
  const sorted = samples.toSorted((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { count: sorted.length, p50: at(0.5), p90: at(0.9), max: sorted.at(-1)! };
}

/** Indexes `tree` into a fresh folder; with `searched`, searches while it embeds. */
async function indexOnce(tree: string, run: string): Promise<RunFigures> {
  const dataDir = await mkdtemp(join(tmpdir(), "wayfinder-search-during-"));
  const corpus = await openConfiguredCorpus(tree, {
    dataDir,
    embedder: { model: resolve(values.model), threads },
  });
  const dense: number[] = [];
  const lexical: number[] = [];
  let searching: Promise<void> | null = null;
  let finished = false;
  const searchLoop = async () => {
    for (let n = 0; !finished; n++) {
      const tick = performance.now();
      // A new text each time, so every dense search embeds its query.
      const query = `${QUERIES[n % QUERIES.length]} ${n}`;
      // Counted when sent during the run, however late it answers.
      let started = performance.now();
      await corpus.search(query, { mode: "dense", limit: 5 });
      dense.push(performance.now() - started);
      if (finished) break;
      started = performance.now();
      await corpus.search(query, { mode: "lexical", limit: 5 });
      lexical.push(performance.now() - started);
      const wait = everyMs - (performance.now() - tick);
      if (wait > 0) await new Promise((done) => setTimeout(done, wait));
    }
  };
  try {
    const started = performance.now();
    const summary = await corpus.index({
      onEvent: (event) => {
        // Search needs a published generation: the first partial one.
        if (run === "searched" && event.event === "partial" && !searching) {
          searching = searchLoop();
        }
      },
    });
    const seconds = (performance.now() - started) / 1000;
    finished = true;
    await searching;
    return {
      run,
      seconds: Number(seconds.toFixed(1)),
      embedded: summary.embeddedChunks,
      chunksPerSecond: Number((summary.embeddedChunks / seconds).toFixed(1)),
      dense: latency(dense),
      lexical: latency(lexical),
    };
  } finally {
    finished = true;
    await corpus.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const work = await mkdtemp(join(tmpdir(), "wayfinder-search-during-tree-"));
const tree = join(work, "tree");
const figures: RunFigures[] = [];
try {
  // A copy, so the tree stays the same across runs and branches.
  await cp(resolve(values.tree), tree, { recursive: true });
  for (const run of values.runs.split(",")) {
    const result = await indexOnce(tree, run);
    figures.push(result);
    const ms = (l: Latency | null) =>
      l
        ? `${l.count} searches, p50 ${l.p50.toFixed(0)} ms, p90 ${l.p90.toFixed(0)} ms, max ${
          l.max.toFixed(0)
        } ms`
        : "none";
    console.log(
      `${run}: ${result.embedded} chunks in ${result.seconds} s (${result.chunksPerSecond}/s)`,
    );
    if (run === "searched") {
      console.log(`  dense:   ${ms(result.dense)}`);
      console.log(`  lexical: ${ms(result.lexical)}`);
    }
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
console.log(JSON.stringify({ model: values.model, threads, everyMs, figures }));
