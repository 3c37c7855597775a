/**
 * The public code-search benchmark (MinishLab/semble's annotations, 63
 * repositories at pinned revisions) over a folder of checkouts: nDCG@10 per
 * repository, category and language for each mode, beside the published
 * runs on the same repositories, with index time and query p50.
 *
 *   deno run -A bench/code_search_bench.ts [FOLDER] [--modes lexical,dense,hybrid]
 *     [--split dev|held|all] [--repos a,b] [--model GGUF|STATIC] [--data DIR] [--json FILE]
 *     [--ranking "off;all;-fileSaturation"] [--chunk-cache DIR] [--max-chunk-chars N]
 *     [--static STATIC [--static-share X]] [--show-below X]
 *
 * FOLDER (default $WAYFINDER_CODE_SEARCH_BENCH) holds repos.json,
 * annotations/, results/ and repos/<name>/ (see `_code_search.ts`); without
 * it the bench says it is skipping. The default split is the development
 * split: every repository but the 12 held back (`HELD_BACK`).
 *
 * lexical runs index in memory with the index's own walker, chunker, token
 * fitting and lexical index (nothing is embedded, so index time is theirs
 * alone); dense and hybrid runs index with `openCorpus` into `--data`
 * (default `FOLDER/.wayfinder-data`), which later runs reuse where nothing changed.
 *
 * `--static` measures joint vectors (`JointEmbedder`, what a static model
 * beside the GGUF gives): each repository's GGUF index in `--data` is joined
 * with that static model's vectors of the same passages when it is loaded,
 * the very vectors an index run would store, without embedding it again.
 *
 * `--show-below X` prints, on stderr, each query scoring below X with the
 * files it wanted and the top 10 hits it got: what a ranking change is read from.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import { BUILD_DEFAULTS } from "../src/build_defaults.ts";
import { createCodeChunker } from "../src/chunk/mod.ts";
import { liveIndex, openCorpus } from "../src/corpus/mod.ts";
import { type Embedder, joinVectors, StaticEmbedder } from "../src/embed/mod.ts";
import { embeddingInput } from "../src/pipeline/mod.ts";
import { chunkSource, walkSources } from "../src/pipeline/chunk_source.ts";
import {
  type Fusion,
  indexSearcher,
  isRankedFusion,
  type RankingOptions,
  type SearchableIndex,
  type Searcher,
  type SearchMode,
} from "../src/search/mod.ts";
import { buildLexical, loadLexical } from "../src/store/lexical_index.ts";
import type { Chunk } from "../src/types.ts";
import {
  benchFolder,
  type BenchRepo,
  benchRepos,
  formatTable,
  publishedRuns,
  rankingOption,
  type RepoScore,
  scoreRepo,
  type Split,
} from "./_code_search.ts";
import { openBenchEmbedder } from "./_model.ts";

const REPO = new URL("..", import.meta.url).pathname;

const { values, positionals } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: {
    modes: { type: "string", default: "lexical" },
    split: { type: "string", default: "dev" },
    repos: { type: "string", default: "" },
    model: { type: "string", default: join(REPO, ".cache/models/minilm-f16.gguf") },
    data: { type: "string" },
    json: { type: "string" },
    compare: { type: "string", default: "semble-hybrid,semble-ablations:semble-bm25" },
    ranking: { type: "string", default: "off" },
    "chunk-cache": { type: "string" },
    "max-chunk-chars": { type: "string", default: String(BUILD_DEFAULTS.maxChunkChars) },
    static: { type: "string" },
    "static-share": { type: "string", default: String(BUILD_DEFAULTS.staticShare) },
    "show-below": { type: "string" },
  },
});

const folder = benchFolder(positionals[0], "code-search bench");
/** Rankings to compare, `;`-separated: `off;all;pathPriors,definitions`. */
const rankings = values.ranking.split(";").map((label) => ({
  label,
  ranking: rankingOption(label),
}));
/**
 * Modes as `dense`, `lexical`, `hybrid`, `hybrid:blend` (score blending instead of RRF),
 * `hybrid:ranked`, `hybrid:early`, `hybrid:adaptive` (see `Fusion`) or `hybrid:k20` (RRF's k).
 */
const modes = values.modes.split(",").map((m) => m.trim()).filter(Boolean);
const { repos, missing } = await benchRepos(
  folder,
  values.split as Split,
  values.repos.split(",").filter(Boolean),
);
if (missing.length) console.error(`no checkout or annotations, skipped: ${missing.join(", ")}`);
const dataDir = values.data ?? join(folder, ".wayfinder-data");
const threads = Number(Deno.env.get("WAYFINDER_THREADS") ?? 1);
// A `.static` model (distilled by `wayfinder model distill`) embeds a repository in seconds.
const embedder = await openBenchEmbedder(values.model, threads);
/** The static model joined to the GGUF's vectors (`--static`), if any. */
const joined = values.static ? await StaticEmbedder.open({ modelPath: values.static }) : null;
const chunker = await createCodeChunker();
/** The chunk budget every run indexes with: the build default unless measuring another. */
const maxChunkChars = Number(values["max-chunk-chars"]);

/**
 * The chunks `index` would store for `repo`: walked, chunked and fitted alike.
 * With `--chunk-cache DIR` they are kept there per repository, revision and
 * model, so ranking experiments skip the chunking (index time is then the
 * cache's, not the chunker's).
 */
async function chunksOf(repo: BenchRepo, model: Embedder): Promise<Chunk[]> {
  const cache = values["chunk-cache"];
  const file = cache &&
    join(
      cache,
      `${repo.spec.name}-${repo.spec.revision.slice(0, 12)}-${
        basename(values.model)
      }-${maxChunkChars}.json`,
    );
  if (file && existsSync(file)) return JSON.parse(readFileSync(file, "utf8"));
  const chunks = await chunkTree(repo.root, model);
  if (file) {
    mkdirSync(cache, { recursive: true });
    writeFileSync(file, JSON.stringify(chunks));
  }
  return chunks;
}

async function chunkTree(root: string, model: Embedder): Promise<Chunk[]> {
  const { files } = await walkSources({ root });
  const chunks: Chunk[] = [];
  for (const file of files) {
    for (const fitted of await chunkSource(file, { chunker, embedder: model, maxChunkChars })) {
      chunks.push(...fitted.fragments);
    }
  }
  return chunks;
}

/**
 * The search options a mode name stands for: `hybrid`, `hybrid:blend`, `hybrid:ranked`,
 * `hybrid:early`, `hybrid:adaptive`, `hybrid:k20` (RRF's k).
 */
function modeOptions(name: string): { mode: SearchMode; fusion?: Fusion; rrfK?: number } {
  const [mode, option] = name.split(":");
  const k = /^k(\d+)$/.exec(option ?? "")?.[1];
  return {
    mode: mode as SearchMode,
    fusion: option === "blend" || isRankedFusion(option) ? option : undefined,
    rrfK: k === undefined ? undefined : Number(k),
  };
}

/** A searcher per run of one repository, and what indexing it cost. */
interface Indexed {
  searcher: (mode: string, ranking: boolean | RankingOptions) => Searcher;
  chunks: number;
  indexMs: number;
  close: () => Promise<void>;
}

/**
 * Lexical-only runs index in memory: the index's walker, chunker, fitting
 * and lexical index, nothing embedded. Otherwise `openCorpus` indexes into
 * `--data`, reusing what an earlier run embedded.
 */
async function indexRepo(repo: BenchRepo, embeds: boolean): Promise<Indexed> {
  const started = performance.now();
  if (!embeds) {
    const chunks = await chunksOf(repo, embedder);
    const index: SearchableIndex = {
      chunks,
      vectors: new Float32Array(0),
      dimensions: 0,
      lexical: loadLexical(buildLexical(chunks)),
    };
    return {
      searcher: (mode, ranking) => indexSearcher(index, { ...modeOptions(mode), ranking }),
      chunks: chunks.length,
      indexMs: performance.now() - started,
      close: () => Promise.resolve(),
    };
  }
  const corpus = await openCorpus(repo.root, { dataDir, embedder, maxChunkChars });
  await corpus.index();
  const indexMs = performance.now() - started;
  const stored = await liveIndex(corpus);
  const { index, embedQuery } = joined
    ? await joinedIndex(stored, joined)
    : { index: stored, embedQuery: (query: string) => embedder.embedQuery(query) };
  return {
    searcher: (mode, ranking) =>
      indexSearcher(index, { ...modeOptions(mode), ranking, embedQuery }),
    chunks: index.chunks.length,
    indexMs,
    close: () => corpus.close(),
  };
}

/**
 * The index as joint vectors: each row's stored vector joined with the static
 * model's vector of the same passage, queries embedded by both.
 */
async function joinedIndex(
  index: SearchableIndex,
  second: Embedder,
): Promise<{ index: SearchableIndex; embedQuery: (query: string) => Promise<Float32Array> }> {
  const share = Number(values["static-share"]);
  const { dimensions: d } = index;
  const vectors = await second.embedDocuments(index.chunks.map((chunk) => embeddingInput(chunk)));
  const width = d + second.identity.dimensions;
  const rows = new Float32Array(index.chunks.length * width);
  vectors.forEach((vector, row) => {
    rows.set(
      joinVectors(index.vectors.subarray(row * d, (row + 1) * d), vector, share),
      row * width,
    );
  });
  return {
    index: { ...index, vectors: rows, dimensions: width, quantized: undefined },
    embedQuery: async (query) =>
      joinVectors(await embedder.embedQuery(query), await second.embedQuery(query), share),
  };
}

/** The queries of `repo` scoring below `below`: what they wanted and their top 10 hits. */
async function showMisses(
  repo: BenchRepo,
  row: RepoScore,
  searcher: Searcher,
  below: number,
): Promise<void> {
  const { queries, judgments, groups } = repo.annotations;
  for (const [id, query] of Object.entries(queries)) {
    const score = row.perQuery[query] ?? 0;
    if (score >= below) continue;
    const wanted = (judgments[id] ?? []).map((j) =>
      j.lineStart ? `${j.path}:${j.lineStart}-${j.lineEnd ?? ""}` : j.path
    );
    const { matches } = await searcher.search({ query, limit: 10 });
    console.error(`\n[${repo.spec.name}] ${groups[id] ?? ""} ${score.toFixed(2)} ${query}`);
    console.error(`  wanted: ${wanted.join(", ")}`);
    matches.forEach(({ chunk, score }, i) => {
      const at = `${chunk.sourcePath}:${chunk.lineStart}-${chunk.lineEnd}`;
      console.error(`  ${i + 1}. ${at} ${chunk.symbol ?? ""} ${score.toFixed(3)}`);
    });
  }
}

/** Each mode under each ranking, named `mode` or `mode+ranking`. */
const runs = modes.flatMap((mode) =>
  rankings.map((r) => ({
    name: rankings.length === 1 && r.label === "off" ? mode : `${mode}+${r.label}`,
    mode,
    ranking: r.ranking,
  }))
);
const ours = new Map<string, RepoScore[]>(runs.map((run) => [run.name, []]));
try {
  for (const repo of repos) {
    const indexed = await indexRepo(repo, modes.some((m) => m !== "lexical"));
    try {
      for (const run of runs) {
        const searcher = indexed.searcher(run.mode, run.ranking);
        const row = await scoreRepo(
          repo,
          async (query, k) => (await searcher.search({ query, limit: k })).matches,
          indexed,
        );
        console.error(`${run.name} ${row.repo}: ${row.ndcg10.toFixed(3)}`);
        if (values["show-below"] !== undefined) {
          await showMisses(repo, row, searcher, Number(values["show-below"]));
        }
        ours.get(run.name)!.push(row);
      }
    } finally {
      await indexed.close();
    }
  }
} finally {
  await embedder.close();
  await joined?.close();
}
console.log(formatTable(ours, publishedRuns(folder), values.compare.split(",")));
if (values.json) {
  writeFileSync(values.json, JSON.stringify(Object.fromEntries(ours), null, 2) + "\n");
}
