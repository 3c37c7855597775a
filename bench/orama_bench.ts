/**
 * The Orama backend against the local index, in the same run:
 *
 * 1. Parity: nDCG@10 and Recall@10 of dense, lexical and hybrid search on
 *    the peer corpus (fixtures/corpus and its judged queries), the local
 *    index ranked by `searchIndex` (no ranking stage) and the Orama store by
 *    its reader, over the same chunks and vectors. Target: within .01.
 * 2. Cost at 10k and 100k synthetic chunks (`bench/_synthetic_index.ts`,
 *    384-d): build (the local generation written vs the Orama database
 *    published), load (`openIndex` and its first lexical query vs
 *    `OramaStore.open`), file size, and query p50 of each mode.
 *
 *   deno bench -A bench/orama_bench.ts
 *   deno run -A bench/orama_bench.ts [--parity-only | --scale-only] [--rows 10000,100000]
 *
 * WAYFINDER_BENCH_ROWS sets the scale rows (one size) under `deno bench`.
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { LlamaEmbedder } from "../src/embed/mod.ts";
import { loadGroups, loadJudgments, loadQueries, runEvaluation } from "../src/eval/mod.ts";
import { contentHasher, embeddingInput, indexCorpus, INPUT_FORMAT } from "../src/pipeline/mod.ts";
import { searchIndex } from "../src/search/mod.ts";
import { createCodeChunker } from "../src/chunk/mod.ts";
import { openIndex, type StoredIndex, writeGeneration } from "../src/store/mod.ts";
import { exportToOrama, openOramaStore } from "../src/store/orama/mod.ts";
import type { StoreHit, StoreReader } from "../src/store/store.ts";
import type { Chunk } from "../src/types.ts";
import { BENCH_MODEL, requireModel } from "./_model.ts";
import { median, report, skipped } from "./_report.ts";
import { queryVectors, syntheticData } from "./_synthetic_index.ts";

const REPO = new URL("..", import.meta.url).pathname;
const EVAL = join(REPO, "fixtures", "eval");
const MODES = ["dense", "lexical", "hybrid"] as const;
type Mode = typeof MODES[number];

const { values } = parseArgs({
  args: Deno.args,
  options: {
    "parity-only": { type: "boolean", default: false },
    "scale-only": { type: "boolean", default: false },
    rows: { type: "string", default: Deno.env.get("WAYFINDER_BENCH_ROWS") ?? "10000,100000" },
  },
});

const hash = await contentHasher();
const inputHash = (chunk: Chunk) => hash(embeddingInput(chunk));

/** A `StoreHit` as the evaluation reads a hit. */
const asHit = (hit: StoreHit) => ({ chunk: hit.chunk, score: hit.score, similarity: hit.score });

/** Orama's reader in one mode, as the local index is searched in it. */
function oramaSearch(
  reader: StoreReader,
  mode: Mode,
  text: string,
  vector: Float32Array,
  k: number,
) {
  if (mode === "dense") return reader.dense(vector, { limit: k });
  if (mode === "lexical") return reader.lexical(text, { limit: k });
  return reader.hybrid(text, vector, { limit: k });
}

async function parity(): Promise<void> {
  const embedder = await LlamaEmbedder.create({
    modelPath: requireModel(),
    threads: Number(Deno.env.get("WAYFINDER_THREADS") ?? 1),
    inputFormat: INPUT_FORMAT,
  });
  const dataDir = await Deno.makeTempDir({ prefix: "wayfinder-orama-parity-" });
  try {
    await indexCorpus({
      root: join(REPO, "fixtures", "corpus"),
      indexDir: dataDir,
      embedder,
      chunker: await createCodeChunker(),
      longInput: "reject",
    });
    const index = (await openIndex(dataDir))!;
    const oramaFile = join(dataDir, "corpus.orama.json");
    await exportToOrama(index, oramaFile, { inputHash });
    const reader = (await (await openOramaStore(oramaFile)).open())!;
    const queries = await loadQueries(join(EVAL, "retrieval_queries.json"));
    const { match, judgments } = await loadJudgments(join(EVAL, "span_qrels.json"));
    const groups = await loadGroups(join(EVAL, "retrieval_query_groups.json"));
    const vectors = new Map<string, Float32Array>();
    for (const text of Object.values(queries)) vectors.set(text, await embedder.embedQuery(text));
    const runs = MODES.flatMap((mode) => [
      {
        name: `local ${mode}`,
        search: (text: string, k: number) =>
          Promise.resolve(searchIndex(index, vectors.get(text)!, text, { limit: k, mode }).matches),
      },
      {
        name: `orama ${mode}`,
        search: async (text: string, k: number) =>
          (await oramaSearch(reader, mode, text, vectors.get(text)!, k)).map(asHit),
      },
    ]);
    const result = await runEvaluation({ queries, judgments, runs, k: 10, match, groups });
    const metrics = new Map(result.runs.map((run) => [run.name, run.metrics]));
    const cell = (n: number) => n.toFixed(4);
    const delta = (a: number, b: number) => (b - a >= 0 ? "+" : "") + (b - a).toFixed(4);
    const table = [
      `Parity on the peer corpus (${index.chunks.length} chunks, ${BENCH_MODEL}):`,
      "| mode    | local nDCG@10 | Orama nDCG@10 | Δ       | local R@10 | Orama R@10 | Δ       |",
      "|---------|---------------|---------------|---------|------------|------------|---------|",
    ];
    for (const mode of MODES) {
      const local = metrics.get(`local ${mode}`)!;
      const orama = metrics.get(`orama ${mode}`)!;
      table.push(
        `| ${mode.padEnd(7)} | ${cell(local.ndcg)}        | ${cell(orama.ndcg)}        | ${
          delta(local.ndcg, orama.ndcg)
        } | ${cell(local.recall)}     | ${cell(orama.recall)}     | ${
          delta(local.recall, orama.recall)
        } |`,
      );
      for (const metric of ["ndcg", "recall"] as const) {
        const gap = orama[metric] - local[metric];
        report(
          `Orama parity, peer corpus, ${mode} ${metric === "ndcg" ? "nDCG@10" : "Recall@10"}`,
          { label: "Orama", amount: orama[metric], unit: "" },
          { label: "local index", amount: local[metric] },
          `parity: within .01 (Δ ${delta(local[metric], orama[metric])}, ${
            gap >= -0.01 ? "met" : "missed"
          })`,
        );
      }
    }
    console.log(`\n${table.join("\n")}\n`);
    await reader.close();
  } finally {
    await embedder.close();
    await Deno.remove(dataDir, { recursive: true });
  }
}

/** Ten text queries drawn from the chunks: three body words, every other with a symbol. */
function textQueries(index: StoredIndex): string[] {
  return Array.from({ length: 10 }, (_, i) => {
    const chunk = index.chunks[Math.floor((i * index.chunks.length) / 10)]!;
    const words = chunk.content.split("// ")[1]!.split(" ").slice(i % 5, i % 5 + 3);
    return [...words, ...(i % 2 === 0 ? [chunk.symbol!] : [])].join(" ");
  });
}

async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await run();
  return [value, performance.now() - start];
}

async function scale(rows: number): Promise<void> {
  const label = `${rows.toLocaleString("en")} chunks`;
  const dir = await Deno.makeTempDir({ prefix: "wayfinder-orama-scale-" });
  try {
    const data = syntheticData(rows, 384);
    const [, localBuild] = await timed(() => writeGeneration(dir, data));
    const [localIndex, localOpen] = await timed(async () => {
      const index = (await openIndex(dir))!;
      index.lexical("warm", 1); // the full-text file is read on the first lexical call
      return index;
    });
    const oramaFile = join(dir, "index.orama.json");
    let exported: number;
    const start = performance.now();
    try {
      [, exported] = await timed(() => exportToOrama(localIndex, oramaFile, { inputHash }));
    } catch (error) {
      const after = ((performance.now() - start) / 1000).toFixed(1);
      skipped(`Orama build, ${label}`, `failed after ${after} s: ${(error as Error).message}`);
      return;
    }
    const bytes = (await Deno.stat(oramaFile)).size;
    // Load: the median of three opens of the file by a fresh store.
    const opens: number[] = [];
    for (let i = 0; i < 2; i++) {
      const [other, ms] = await timed(async () =>
        (await (await openOramaStore(oramaFile)).open())!
      );
      opens.push(ms);
      await other.close();
    }
    const [reader, oramaOpen] = await timed(async () =>
      (await (await openOramaStore(oramaFile)).open())!
    );
    report(`Orama build, ${label}`, { label: "export", amount: exported / 1000, unit: "s" }, {
      label: "local generation written",
      amount: localBuild / 1000,
    }, "cost of the Orama file");
    opens.push(oramaOpen);
    report(`Orama load, ${label}`, { label: "open", amount: median(opens) / 1000, unit: "s" }, {
      label: "local openIndex + full-text read",
      amount: localOpen / 1000,
    }, "cost of the Orama file");
    let localBytes = 0;
    for await (const entry of Deno.readDir(join(dir, localIndex.generation))) {
      localBytes += (await Deno.stat(join(dir, localIndex.generation, entry.name))).size;
    }
    report(`Orama file size, ${label}`, { label: "file", amount: bytes / 1e6, unit: "MB" }, {
      label: "local generation",
      amount: localBytes / 1e6,
    }, "cost of the Orama file");
    const vectors = queryVectors(10);
    const texts = textQueries(localIndex);
    for (const mode of MODES) {
      const local: number[] = [];
      const orama: number[] = [];
      for (let i = 0; i < 10; i++) {
        const [, l] = await timed(() =>
          Promise.resolve(searchIndex(localIndex, vectors[i]!, texts[i]!, { limit: 10, mode }))
        );
        const [, o] = await timed(() => oramaSearch(reader, mode, texts[i]!, vectors[i]!, 10));
        local.push(l);
        orama.push(o);
      }
      report(
        `Orama ${mode} query p50, ${label}`,
        {
          label: "Orama",
          amount: median(orama),
          unit: "ms",
        },
        { label: "local index", amount: median(local) },
        "cost of the Orama file",
      );
    }
    await reader.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (!values["scale-only"]) await parity();
if (!values["parity-only"]) {
  for (const rows of values.rows!.split(",").map(Number)) await scale(rows);
}
