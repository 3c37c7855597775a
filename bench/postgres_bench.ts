/**
 * The PostgreSQL store measured against the local index, on a real server
 * (the pinned one of tests/_postgres_server.ts, or `--url`).
 *
 * - parity: the peer corpus (fixtures/protocols/embedding_comparison, 100
 *   concept files, every answerable question of both splits) indexed by the
 *   real pipeline into the local index, the same chunks and vectors published
 *   to PostgreSQL; Recall@10 and nDCG@10 of dense, lexical and hybrid search
 *   for both (the local `searchIndex`, no ranking stage; the store asked for
 *   the candidate depth the local search uses, limit × 32, cut to 10).
 * - team cache: a second corpus ("a second clone") publishing the same tree
 *   takes every vector from the embedding cache; its wall time beside the
 *   first run's (embedding included).
 * - scale: `--rows` synthetic 384-d chunks (bench/_synthetic_index.ts's passages,
 *   embedding-like vectors unless `--vectors uniform`) published in one
 *   generation (ingest rate, HNSW build included), then dense p50 and
 *   Recall@10 against exact search for each `--ef`, lexical and hybrid p50
 *   against the local index's, and dense p50 with 8 concurrent clients
 *   against one.
 *
 * `deno task bench postgres` runs both parts with the defaults
 * (`WAYFINDER_BENCH_ROWS` sets the size) and tabulates the figures.
 *
 *   deno run -A bench/postgres_bench.ts [--part parity,scale] [--rows 100000]
 *     [--ef 40,100,200] [--m 16] [--ef-construction 64] [--hnsw-type vector|halfvec|bit]
 *     [--vectors structured|uniform] [--queries 100] [--lexical-queries N]
 *     [--local-up-to 200000] [--url postgres://… | --data DIR [--port 55432]] [--ingest-only] [--reindex]
 *     [--model PATH]
 *
 * A corpus already in the database with `--rows` chunks is reused, not
 * ingested again. `--data DIR` keeps the server's data in DIR (made on first
 * use, started if it is not running: bench/_postgres_data.ts); `--ingest-only`
 * stops after the publish; `--reindex` builds the corpus's HNSW index again
 * with `--m`, `--ef-construction` and `--hnsw-type` (timed) before the queries.
 *
 * Writes bench/results/postgres_bench.json and prints Markdown tables.
 */
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { type Embedder, LlamaEmbedder } from "../src/embed/mod.ts";
import { contentHasher, embeddingInput } from "../src/pipeline/mod.ts";
import { searchIndex } from "../src/search/mod.ts";
import { openIndex, type StoredIndex } from "../src/store/mod.ts";
import {
  type CachedFileChange,
  openPostgresStore,
  type PostgresStore,
} from "../src/store/postgres/mod.ts";
import type { StoreHit } from "../src/store/store.ts";
import type { VectorIndexType } from "../src/store/postgres/schema.ts";
import type { Chunk } from "../src/types.ts";
import { postgresUnavailable, startPostgres } from "../tests/_postgres_server.ts";
import { requireModel } from "./_model.ts";
import { persistentPostgres } from "./_postgres_data.ts";
import { indexDirectory, writeFiles } from "./_peer_index.ts";
import { squash, type SupportQuery } from "./_peer_score.ts";
import { median, report as reportRow, skipSuite } from "./_report.ts";
import { queryVectors, syntheticData, syntheticIndex } from "./_synthetic_index.ts";
import { seededRandom, unitVector } from "../src/store/testdata/synthetic.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/protocols", import.meta.url));
const MODES = ["dense", "lexical", "hybrid"] as const;
type Mode = typeof MODES[number];
const K = 10;
/** The candidate depth the local search ranks before cutting to the limit. */
const DEPTH = K * 32;

/** Recall@k and nDCG@k with binary gains: a hit gains when it supports an item not yet found. */
function judge(hits: Chunk[], support: SupportQuery["support"]): { recall: number; ndcg: number } {
  const found = new Set<number>();
  let dcg = 0;
  hits.slice(0, K).forEach((chunk, i) => {
    const fresh = support.flatMap((s, j) =>
      !found.has(j) && chunk.sourcePath === s.path &&
        squash(chunk.content).includes(squash(s.contains))
        ? [j]
        : []
    );
    if (fresh.length) {
      dcg += 1 / Math.log2(i + 2);
      fresh.forEach((j) => found.add(j));
    }
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(K, support.length); i++) ideal += 1 / Math.log2(i + 2);
  return { recall: found.size / support.length, ndcg: ideal ? dcg / ideal : 0 };
}

/** The local index's chunks and vectors as one publication's file changes, with input hashes. */
async function changesOf(index: StoredIndex): Promise<CachedFileChange[]> {
  const hash = await contentHasher();
  const d = index.dimensions;
  const byPath = new Map<string, CachedFileChange>();
  index.chunks.forEach((chunk, row) => {
    const change = byPath.get(chunk.sourcePath) ?? {
      path: chunk.sourcePath,
      record: index.manifest.files[chunk.sourcePath]!,
      chunks: [],
      vectors: [],
      inputHashes: [],
    };
    change.chunks.push(chunk);
    change.vectors.push(index.vectors.slice(row * d, (row + 1) * d));
    (change.inputHashes as string[]).push(hash(embeddingInput(chunk)));
    byPath.set(chunk.sourcePath, change);
  });
  return [...byPath.values()];
}

function manifestOf(index: StoredIndex) {
  const { root, identity, fingerprint, settings } = index.manifest;
  return { root, identity, fingerprint, ...(settings ? { settings } : {}) };
}

async function parity(url: string, embedder: Embedder, work: string, type: VectorIndexType) {
  const dir = join(FIXTURES, "embedding_comparison");
  const sources = JSON.parse(await readFile(join(dir, "sources.json"), "utf8"));
  const { queries } = JSON.parse(await readFile(join(dir, "queries.json"), "utf8")) as {
    queries: SupportQuery[];
  };
  const root = join(work, "ec-corpus");
  await writeFiles(root, sources);
  const firstStarted = performance.now();
  const { index, summary } = await indexDirectory(root, join(work, "ec-index"), embedder);
  const changes = await changesOf(index);
  const store = await openPostgresStore(url, { corpus: "peer-a", hnsw: { type } });
  const publishStarted = performance.now();
  await store.publish({ manifest: manifestOf(index), removed: [], changed: changes });
  const publishMs = performance.now() - publishStarted;
  const firstRunMs = performance.now() - firstStarted;

  // A second clone: every input's vector comes from the cache, none is embedded.
  const secondStarted = performance.now();
  const second = await openPostgresStore(url, { corpus: "peer-b", hnsw: { type } });
  const wanted = changes.flatMap((c) => c.inputHashes as string[]);
  const cached = await second.cachedVectors(
    index.manifest.fingerprint,
    index.dimensions,
    wanted,
  );
  const toEmbed = wanted.filter((h) => !cached.has(h)).length;
  await second.publish({
    manifest: manifestOf(index),
    removed: [],
    changed: changes.map((c) => ({
      ...c,
      vectors: (c.inputHashes as string[]).map((h) => cached.get(h) ?? null),
    })),
  });
  const secondRunMs = performance.now() - secondStarted;
  await second.close();

  const reader = (await store.open())!;
  const answerable = queries.filter((q) => q.support.length > 0);
  const vectors = new Map<string, Float32Array>();
  for (const q of answerable) {
    if (!vectors.has(q.query)) vectors.set(q.query, await embedder.embedQuery(q.query));
  }
  const rows = [];
  for (const mode of MODES) {
    const sums = { local: { recall: 0, ndcg: 0 }, postgres: { recall: 0, ndcg: 0 } };
    let sameTop = 0;
    const ms: number[] = [];
    for (const q of answerable) {
      const vector = vectors.get(q.query)!;
      const local = searchIndex(index, vector, q.query, {
        limit: K,
        mode,
        filter: q.scope ? { paths: q.scope } : undefined,
      }).matches.map((m) => m.chunk);
      const query = { limit: DEPTH, filter: q.scope ? { pathPrefixes: q.scope } : undefined };
      const started = performance.now();
      const hits: StoreHit[] = mode === "dense"
        ? await reader.dense(vector, query)
        : mode === "lexical"
        ? await reader.lexical(q.query, query)
        : await reader.hybrid(q.query, vector, query);
      ms.push(performance.now() - started);
      const remote = hits.slice(0, K).map((h) => h.chunk);
      for (const [side, hitsOf] of [["local", local], ["postgres", remote]] as const) {
        const { recall, ndcg } = judge(hitsOf, q.support);
        sums[side].recall += recall;
        sums[side].ndcg += ndcg;
      }
      if (local.map((c) => c.id).join() === remote.map((c) => c.id).join()) sameTop++;
    }
    const n = answerable.length;
    rows.push({
      mode,
      queries: n,
      local: { recall: sums.local.recall / n, ndcg: sums.local.ndcg / n },
      postgres: { recall: sums.postgres.recall / n, ndcg: sums.postgres.ndcg / n },
      identicalTop10: sameTop,
      postgresQueryMsP50: median(ms),
    });
  }
  await reader.close();
  await store.close();
  return {
    files: Object.keys(sources).length,
    chunks: index.chunks.length,
    rows,
    teamCache: {
      firstRun: {
        embedded: summary.embeddedChunks,
        localIndexMs: Math.round(summary.elapsedMs),
        publishMs: Math.round(publishMs),
        totalMs: Math.round(firstRunMs),
      },
      secondClone: {
        embedded: toEmbed,
        cachedInputs: cached.size,
        totalMs: Math.round(secondRunMs),
      },
    },
  };
}

/**
 * `count` unit vectors with the structure of real embeddings: a point of a
 * `latent`-dimensional space (normal components) seen through one fixed
 * random projection to `d` dimensions, plus noise of `noise` × the signal's
 * scale per component. Uniform random unit vectors have an intrinsic
 * dimension of `d`, which no approximate index handles (HNSW's recall there
 * is measured by `--vectors uniform`); text embeddings have far fewer
 * effective dimensions.
 */
function structuredVectors(count: number, d: number, seed: number, latent = 32, noise = 0.3) {
  const basis = Array.from({ length: latent }, (_, i) => unitVector(d, seededRandom(1000 + i)));
  const random = seededRandom(seed);
  const out = new Float32Array(count * d);
  const v = new Float32Array(d);
  for (let r = 0; r < count; r++) {
    const z = unitVector(latent, random);
    const n = unitVector(d, random);
    let norm = 0;
    for (let i = 0; i < d; i++) {
      let x = noise * n[i]!;
      for (let k = 0; k < latent; k++) x += z[k]! * basis[k]![i]!;
      v[i] = x;
      norm += x * x;
    }
    norm = Math.sqrt(norm);
    for (let i = 0; i < d; i++) out[r * d + i] = v[i]! / norm;
  }
  return out;
}

/** The exact top `k` row numbers by dot product. */
function exactTop(vectors: Float32Array, d: number, query: Float32Array, k: number): number[] {
  const rows = vectors.length / d;
  const best: [number, number][] = [];
  for (let r = 0; r < rows; r++) {
    let dot = 0;
    for (let i = 0, o = r * d; i < d; i++) dot += vectors[o + i]! * query[i]!;
    if (best.length < k || dot > best[best.length - 1]![1]) {
      best.push([r, dot]);
      best.sort((a, b) => b[1] - a[1]);
      if (best.length > k) best.pop();
    }
  }
  return best.map(([r]) => r);
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
}

async function scale(
  url: string,
  rows: number,
  efs: number[],
  count: number,
  hnsw: { m: number; efConstruction: number; type: VectorIndexType },
  kind: "structured" | "uniform",
  localUpTo: number,
  lexicalCount: number,
  ingestOnly = false,
  reindex = false,
) {
  const d = 384;
  const data = syntheticData(rows, d);
  if (kind === "structured") data.vectors = structuredVectors(rows, d, 7);
  const corpus = `synthetic-${kind}-${rows}`;
  const byPath = new Map<string, CachedFileChange>();
  data.chunks.forEach((chunk, row) => {
    const change = byPath.get(chunk.sourcePath) ??
      {
        path: chunk.sourcePath,
        record: data.manifest.files[chunk.sourcePath]!,
        chunks: [],
        vectors: [],
      };
    change.chunks.push(chunk);
    change.vectors.push(data.vectors.subarray(row * d, (row + 1) * d));
    byPath.set(chunk.sourcePath, change);
  });
  let store: PostgresStore = await openPostgresStore(url, { corpus, hnsw });
  const existing = await store.manifest();
  let ingestMs: number | null = null;
  if (existing?.chunkCount !== rows) {
    [, ingestMs] = await timed(() =>
      store.publish({
        manifest: {
          root: "/synthetic",
          identity: data.manifest.identity,
          fingerprint: data.manifest.fingerprint,
        },
        removed: [],
        changed: [...byPath.values()],
        fresh: true,
      })
    );
  }
  await store.close();
  console.error(
    `scale: ${rows} chunks published in ${
      ingestMs === null ? "(reused)" : `${Math.round(ingestMs / 1000)} s`
    }`,
  );
  if (ingestOnly) return null;
  // The corpus's HNSW index built again with `hnsw`, timed: another index over the same rows.
  let rebuildMs: number | null = null;
  if (reindex) {
    store = await openPostgresStore(url, { corpus, hnsw });
    [, rebuildMs] = await timed(() => store.rebuildVectorIndex());
    await store.close();
    console.error(
      `scale: HNSW index rebuilt (${JSON.stringify(hnsw)}) in ${Math.round(rebuildMs / 1000)} s`,
    );
  }
  const drawn = structuredVectors(count, d, 99);
  const queries = kind === "structured"
    ? Array.from({ length: count }, (_, i) => drawn.subarray(i * d, (i + 1) * d))
    : queryVectors(count, d);
  const exact = queries.map((q) =>
    new Set(exactTop(data.vectors, d, q, K).map((r) => data.chunks[r]!.id))
  );
  const dense: { ef: number; p50Ms: number; recallAt10: number; loadAverage: number }[] = [];
  for (const ef of efs) {
    store = await openPostgresStore(url, { corpus, efSearch: ef });
    const reader = (await store.open())!;
    await reader.dense(queries[0]!, { limit: K }); // warm the index's pages
    const ms: number[] = [];
    let recall = 0;
    for (const [i, q] of queries.entries()) {
      const [hits, took] = await timed(() => reader.dense(q, { limit: K }));
      ms.push(took);
      recall += hits.filter((h) => exact[i]!.has(h.chunk.id)).length / K;
    }
    dense.push({
      ef,
      p50Ms: median(ms),
      recallAt10: recall / queries.length,
      loadAverage: loadavg()[0]!,
    });
    console.error(
      `scale: ef ${ef}: dense p50 ${median(ms).toFixed(1)} ms, Recall@10 ${
        (recall / queries.length).toFixed(3)
      }`,
    );
    await reader.close();
    await store.close();
  }
  // Lexical queries: two or three words of a random passage's comment, as a person would type them.
  const words = (i: number) =>
    data.chunks[(i * 7919) % rows]!.content.split("\n")[1]!.replace("//", "").trim().split(" ");
  const texts = queries.map((_, i) => words(i).slice(0, 2 + (i % 2)).join(" "));
  const ef = efs.find((_, i) => dense[i]!.recallAt10 >= 0.95) ?? efs[efs.length - 1]!;
  store = await openPostgresStore(url, { corpus, efSearch: ef, connections: 8 });
  const reader = (await store.open())!;
  const lexicalMs: number[] = [];
  const hybridMs: number[] = [];
  for (const [i, text] of texts.slice(0, lexicalCount).entries()) {
    lexicalMs.push((await timed(() => reader.lexical(text, { limit: K })))[1]);
    hybridMs.push((await timed(() => reader.hybrid(text, queries[i]!, { limit: K })))[1]);
  }
  // 1, 2 (one per core here) and 8 clients searching at once, each its own share of the queries,
  // back to back: p50 per query and queries per second over all of them.
  const clients: {
    clients: number;
    p50Ms: number;
    queriesPerSecond: number;
    loadAverage: number;
  }[] = [];
  for (const n of [1, 2, 8]) {
    const ms: number[] = [];
    const [, wall] = await timed(() =>
      Promise.all(Array.from({ length: n }, async (_, c) => {
        for (let i = c; i < queries.length; i += n) {
          ms.push((await timed(() => reader.dense(queries[i]!, { limit: K })))[1]);
        }
      }))
    );
    clients.push({
      clients: n,
      p50Ms: median(ms),
      queriesPerSecond: ms.length / (wall / 1000),
      loadAverage: loadavg()[0]!,
    });
    console.error(
      `scale: ${n} clients: dense p50 ${median(ms).toFixed(1)} ms, ${
        (ms.length / (wall / 1000)).toFixed(1)
      } queries/s`,
    );
  }
  const concurrentMs = [clients[2]!.p50Ms];
  const oneClient = clients[0]!.p50Ms;
  console.error(
    `scale: lexical p50 ${median(lexicalMs).toFixed(1)} ms, hybrid p50 ${
      median(hybridMs).toFixed(1)
    } ms, ` +
      `8 clients dense p50 ${median(concurrentMs).toFixed(1)} ms`,
  );
  // The baseline: the local index of the same chunks, searched in-process (up to `localUpTo` rows).
  let baseline = null;
  if (rows <= localUpTo) {
    const local = (await openIndex(await syntheticIndex(rows, "none", d)))!;
    const localMs = (mode: Mode) =>
      median(queries.map((q, i) => {
        const started = performance.now();
        searchIndex(local, q, texts[i]!, { limit: K, mode });
        return performance.now() - started;
      }));
    baseline = {
      denseP50Ms: localMs("dense"),
      lexicalP50Ms: localMs("lexical"),
      hybridP50Ms: localMs("hybrid"),
    };
  }
  const status = await store.status();
  await reader.close();
  await store.close();
  return {
    rows,
    dimensions: d,
    vectors: kind,
    hnsw,
    ingestMs: ingestMs === null ? null : Math.round(ingestMs),
    rebuildMs: rebuildMs === null ? null : Math.round(rebuildMs),
    ingestRowsPerSecond: ingestMs === null ? null : Math.round(rows / (ingestMs / 1000)),
    storedBytes: status.bytes,
    dense,
    lexicalP50Ms: median(lexicalMs),
    hybridP50Ms: median(hybridMs),
    hybridEf: ef,
    localIndex: baseline,
    concurrent: {
      clients: 8,
      p50Ms: median(concurrentMs),
      oneClientP50Ms: oneClient,
      ratio: median(concurrentMs) / oneClient,
      levels: clients,
    },
  };
}

interface Report {
  parity?: Awaited<ReturnType<typeof parity>>;
  scale?: Awaited<ReturnType<typeof scale>> | null;
}

function markdown(report: Report): string {
  const f = (n: number) => n.toFixed(3);
  const lines: string[] = [];
  if (report.parity) {
    const p = report.parity;
    lines.push(
      `Parity on the peer corpus (${p.files} files, ${p.chunks} chunks, ${
        p.rows[0].queries
      } answerable questions, top 10):`,
      "",
      "| mode | local Recall@10 | PostgreSQL Recall@10 | local nDCG@10 | PostgreSQL nDCG@10 | identical top 10 | PG query p50 |",
      "| --- | --- | --- | --- | --- | --- | --- |",
      ...p.rows.map((r) =>
        `| ${r.mode} | ${f(r.local.recall)} | ${f(r.postgres.recall)} | ${f(r.local.ndcg)} | ${
          f(r.postgres.ndcg)
        } | ${r.identicalTop10}/${r.queries} | ${r.postgresQueryMsP50.toFixed(1)} ms |`
      ),
      "",
      `Team cache: first run embedded ${p.teamCache.firstRun.embedded} passages in ${p.teamCache.firstRun.totalMs} ms ` +
        `(local index ${p.teamCache.firstRun.localIndexMs} ms, publish ${p.teamCache.firstRun.publishMs} ms); ` +
        `a second clone embedded ${p.teamCache.secondClone.embedded} (${p.teamCache.secondClone.cachedInputs} from the cache) ` +
        `in ${p.teamCache.secondClone.totalMs} ms.`,
      "",
    );
  }
  if (report.scale) {
    const s = report.scale;
    lines.push(
      `Scale: ${
        s.rows.toLocaleString("en")
      } synthetic ${s.dimensions}-d chunks (${s.vectors} vectors); ingest ${
        s.ingestMs === null
          ? "(reused)"
          : `${(s.ingestMs / 1000).toFixed(0)} s, ${s.ingestRowsPerSecond} chunks/s`
      }; HNSW index ${s.hnsw.type}, m ${s.hnsw.m}, ef_construction ${s.hnsw.efConstruction}${
        s.rebuildMs === null ? "" : `, rebuilt in ${(s.rebuildMs / 1000).toFixed(0)} s`
      }.`,
      "",
      "| hnsw.ef_search | dense p50 | Recall@10 vs exact | load average |",
      "| --- | --- | --- | --- |",
      ...s.dense.map((r) =>
        `| ${r.ef} | ${r.p50Ms.toFixed(1)} ms | ${f(r.recallAt10)} | ${r.loadAverage.toFixed(1)} |`
      ),
      "",
      "| clients | dense p50 | queries/s | load average |",
      "| --- | --- | --- | --- |",
      ...s.concurrent.levels.map((r) =>
        `| ${r.clients} | ${r.p50Ms.toFixed(1)} ms | ${r.queriesPerSecond.toFixed(1)} | ${
          r.loadAverage.toFixed(1)
        } |`
      ),
      "",
      `Lexical p50 ${s.lexicalP50Ms.toFixed(1)} ms, hybrid p50 ${
        s.hybridP50Ms.toFixed(1)
      } ms (ef ${s.hybridEf}); ` +
        `8 concurrent clients: dense p50 ${s.concurrent.p50Ms.toFixed(1)} ms, ${
          s.concurrent.ratio.toFixed(2)
        }× one client's.`,
      s.localIndex
        ? `The local index of the same chunks, in-process: dense (exact) p50 ${
          s.localIndex.denseP50Ms.toFixed(1)
        } ms, ` +
          `lexical ${s.localIndex.lexicalP50Ms.toFixed(1)} ms, hybrid ${
            s.localIndex.hybridP50Ms.toFixed(1)
          } ms.`
        : "(No local-index baseline at this size: see --local-up-to.)",
    );
  }
  return lines.join("\n");
}

async function main() {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      part: { type: "string", default: "parity,scale" },
      rows: { type: "string", default: Deno.env.get("WAYFINDER_BENCH_ROWS") ?? "100000" },
      ef: { type: "string", default: "40,100,200,400" },
      queries: { type: "string", default: "100" },
      m: { type: "string", default: "16" },
      vectors: { type: "string", default: "structured" },
      "local-up-to": { type: "string", default: "200000" },
      "lexical-queries": { type: "string" },
      "ef-construction": { type: "string", default: "64" },
      url: { type: "string" },
      data: { type: "string" },
      port: { type: "string", default: "55432" },
      "ingest-only": { type: "boolean", default: false },
      reindex: { type: "boolean", default: false },
      "hnsw-type": { type: "string", default: "vector" },
      model: { type: "string" },
      output: { type: "string", default: "bench/results/postgres_bench.json" },
    },
  });
  const parts = new Set(values.part.split(","));
  let url = values.url;
  let server: AsyncDisposable | undefined;
  if (!url && values.data) {
    const kept = await persistentPostgres(values.data, Number(values.port));
    [url, server] = [kept.url, { [Symbol.asyncDispose]: () => kept.stop() }];
  }
  if (!url) {
    const why = await postgresUnavailable();
    if (why) skipSuite(`no PostgreSQL server: ${why}`);
    const started = await startPostgres();
    [url, server] = [started.url, started];
  }
  const report: Report & { date: string; machine: Record<string, unknown> } = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, loadAverageAtStart: loadavg() },
  };
  const work = await Deno.makeTempDir({ prefix: "wayfinder-pg-bench-" });
  try {
    if (parts.has("parity")) {
      const modelPath = values.model ?? requireModel();
      const embedder = await LlamaEmbedder.create({ modelPath, threads: 2, longInput: "reject" });
      try {
        report.parity = await parity(url, embedder, work, values["hnsw-type"] as VectorIndexType);
      } finally {
        await embedder.close();
      }
    }
    if (parts.has("scale")) {
      report.scale = await scale(
        url,
        Number(values.rows),
        values.ef.split(",").map(Number),
        Number(values.queries),
        {
          m: Number(values.m),
          efConstruction: Number(values["ef-construction"]),
          type: values["hnsw-type"] as VectorIndexType,
        },
        values.vectors === "uniform" ? "uniform" : "structured",
        Number(values["local-up-to"]),
        Number(values["lexical-queries"] ?? values.queries),
        values["ingest-only"],
        values.reindex,
      );
    }
  } finally {
    await rm(work, { recursive: true, force: true });
    await server?.[Symbol.asyncDispose]();
  }
  report.machine.loadAverageAtEnd = loadavg();
  await mkdir(join(values.output, ".."), { recursive: true });
  await writeFile(values.output, JSON.stringify(report, null, 2) + "\n");
  console.log(markdown(report));
  console.log(`\nWrote ${values.output}`);
  reportRows(report);
}

/** The figures as `deno task bench` tabulates them: each against its baseline and goal. */
function reportRows(report: Report): void {
  if (report.parity) {
    for (const row of report.parity.rows) {
      for (const metric of ["recall", "ndcg"] as const) {
        reportRow(
          `PostgreSQL vs local index, peer corpus, ${row.mode} ${
            metric === "ndcg" ? "nDCG@10" : "Recall@10"
          }`,
          { label: "PostgreSQL", amount: row.postgres[metric], unit: "" },
          { label: "local index", amount: row.local[metric] },
          "within .01 of the local index",
        );
      }
    }
    const { firstRun, secondClone } = report.parity.teamCache;
    reportRow(
      `team cache, a second clone of the peer corpus (${secondClone.embedded} passages embedded)`,
      { label: "second clone", amount: secondClone.totalMs, unit: "ms" },
      { label: "first run, embedding included", amount: firstRun.totalMs },
      "0 passages embedded",
    );
  }
  if (report.scale) {
    const s = report.scale;
    const rows = `${s.rows.toLocaleString("en")} chunks`;
    for (const r of s.dense) {
      reportRow(
        `PostgreSQL HNSW dense p50, ${rows}, ef_search ${r.ef} (Recall@10 ${
          r.recallAt10.toFixed(3)
        })`,
        { label: "p50", amount: r.p50Ms, unit: "ms" },
        { label: "20 ms", amount: 20 },
        "target ≤ 1 at Recall@10 ≥ .95",
      );
    }
    if (s.localIndex) {
      const local = s.localIndex;
      for (
        const [mode, pg, base] of [
          ["lexical", s.lexicalP50Ms, local.lexicalP50Ms],
          ["hybrid", s.hybridP50Ms, local.hybridP50Ms],
        ] as const
      ) {
        reportRow(
          `PostgreSQL ${mode} p50, ${rows}`,
          { label: "p50", amount: pg, unit: "ms" },
          { label: "local index", amount: base },
          "reported",
        );
      }
    }
    reportRow(
      `PostgreSQL dense p50, ${rows}, 8 concurrent clients`,
      { label: "8 clients", amount: s.concurrent.p50Ms, unit: "ms" },
      { label: "1 client", amount: s.concurrent.oneClientP50Ms },
      "target ≤ 2",
    );
  }
}

// Under `deno run` and under `deno bench` (`deno task bench`) alike.
await main();
