/**
 * Runs the peer project's (btwld/wayfinder) own retrieval protocols with our
 * pipeline — our walker, chunkers, embedder, store and search in dense,
 * lexical (BM25) and hybrid (RRF) modes — and sets the results beside the
 * figures the peer recorded.
 *
 * - embedding_comparison: 100 concept files indexed by `indexCorpus`; 60
 *   answerable test questions, top 10; a hit is correct when its path is the
 *   judged path and its text contains the judged fragment.
 * - knowledge_retrieval: the 13 given chunks stored as-is; 13 cases, top 3,
 *   caller scopes applied as path filters.
 * - okf_retrieval: the bundle (index.md/log.md excluded) by `indexCorpus`;
 *   16 answerable held-out questions, top 3, judged like embedding_comparison.
 *
 * "plain" runs are our search as it ranks. The other variants are
 * diagnostics: "lifecycle" restricts non-history questions to current
 * concepts (not deprecated, not past `stale_after`) with our path filter,
 * "lifecycle-body" also drops front-matter chunks by type, and
 * "lifecycle-title" searches a second index without front-matter chunks whose
 * passages are embedded with their file's title. The peer's governing-source
 * and link expansion is not reproduced.
 *
 *   deno run -A bench/peer_protocols.ts [--model PATH] [--only a,b,c] [--output FILE]
 *     [--static STATIC [--static-share X]]   (joint vectors, as a static model beside the GGUF gives)
 *
 * Model: --model, else $WAYFINDER_BENCH_MODEL, else .cache/models/minilm-f16.gguf.
 * Threads: $WAYFINDER_THREADS (default 2). Writes bench/results/peer_protocols.json
 * and prints a Markdown table.
 */
import { cpus, hostname, loadavg } from "node:os";
import { join } from "node:path";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { BUILD_DEFAULTS } from "../src/build_defaults.ts";
import { fileURLToPath } from "node:url";
import type { Embedder } from "../src/embed/mod.ts";
import { type SearchFilter, searchIndex } from "../src/search/mod.ts";
import type { StoredIndex } from "../src/store/mod.ts";
import { openBenchEmbedder } from "./_model.ts";
import { currentPaths, frontMatter } from "./_peer_lifecycle.ts";
import {
  type GivenChunk,
  indexDirectory,
  indexGivenChunks,
  indexWithTitles,
  writeFiles,
} from "./_peer_index.ts";
import {
  median,
  type QueryOutcome,
  scoreQuery,
  squash,
  summarize,
  type Summary,
  type SupportQuery,
} from "./_peer_score.ts";

/** The peer's protocol fixtures, vendored (see fixtures/ATTRIBUTION.md). */
const FIXTURES = fileURLToPath(new URL("../fixtures/protocols", import.meta.url));
const MODES = ["dense", "lexical", "hybrid"] as const;
type Mode = typeof MODES[number];
/** Our mode names as the peer's tables call them. */
type PeerName = "dense" | "bm25" | "hybrid";
const PEER_NAME: Record<Mode, PeerName> = { dense: "dense", lexical: "bm25", hybrid: "hybrid" };

/**
 * "plain": our search as it ranks. "lifecycle": the same, restricted by our
 * path filter to current concepts except for history questions (the peer's
 * lifecycle rule, without its governing-source or link expansion).
 * "lifecycle-body": lifecycle, and front-matter chunks filtered out by type
 * (a diagnostic of how much the separate front-matter chunks cost).
 * "lifecycle-title": lifecycle over a second index without front-matter
 * chunks whose passages are embedded with their file's title (a diagnostic
 * of a possible chunker/input change; the peer embeds titles with passages).
 */
type Variant = "plain" | "lifecycle" | "lifecycle-body" | "lifecycle-title";

interface RunResult {
  mode: Mode;
  variant: Variant | "given";
  split: string;
  summary: Summary;
  byGroup: Record<string, Summary>;
  /**
   * Diagnostic, not the peer's judgment: files ranked by their best chunk
   * (from 50 candidates) and credited when the file is the judged path.
   */
  documentLevel?: Summary;
  /** Hits returned for unanswerable queries (the peer reports that every arm returns candidates). */
  unanswerableHits: number[];
  /** The unanswerable queries' top hits. */
  unanswerableTop: Record<string, string[]>;
  queryMsP50: number;
  outcomes: QueryOutcome[];
}

interface Labelled {
  similarity: number;
  chunk: { sourcePath: string; lineStart: number; lineEnd: number; type: string };
}

/** `path:lines type (score)`, for reading a ranking in the JSON. */
function label(hit: Labelled): string {
  const c = hit.chunk;
  return `${c.sourcePath}:${c.lineStart}-${c.lineEnd} ${c.type} (${hit.similarity.toFixed(4)})`;
}

function byGroup(outcomes: QueryOutcome[], ks: number[]): Record<string, Summary> {
  const groups: Record<string, QueryOutcome[]> = {};
  for (const o of outcomes) (groups[o.group ?? "all"] ??= []).push(o);
  return Object.fromEntries(Object.entries(groups).map(([g, os]) => [g, summarize(os, ks)]));
}

/** Query vectors are computed once per query and shared by the three modes. */
async function embedQueries(embedder: Embedder, texts: string[]) {
  const vectors = new Map<string, Float32Array>();
  const ms: number[] = [];
  for (const text of texts) {
    if (vectors.has(text)) continue;
    const t = performance.now();
    vectors.set(text, await embedder.embedQuery(text));
    ms.push(performance.now() - t);
  }
  return { vectors, embedMsP50: median(ms) };
}

/**
 * Runs path+fragment-judged queries (embedding_comparison, okf_retrieval):
 * hit i supports item j when its path equals j's and its text contains j's
 * fragment (whitespace collapsed).
 */
function runSupportQueries(
  index: StoredIndex,
  queries: SupportQuery[],
  vectors: Map<string, Float32Array>,
  split: string,
  limit: number,
  ks: number[],
  variant: Variant,
  current: string[],
): RunResult[] {
  const results: RunResult[] = [];
  // The caller's path scope is a fixed input in every variant, as in the peer's runs.
  // Chunk types other than front matter, for the "lifecycle-body" diagnostic.
  const bodyTypes = [...new Set(index.chunks.map((c) => c.type))].filter((t) =>
    t !== "front_matter"
  );
  const filterFor = (q: SupportQuery): SearchFilter | undefined => {
    const filter: SearchFilter = {};
    const eligible = variant !== "plain" && !q.history ? current : undefined;
    const inScope = (path: string) => q.scope!.some((d) => path === d || path.startsWith(`${d}/`));
    if (eligible) filter.paths = q.scope ? eligible.filter(inScope) : eligible;
    else if (q.scope) filter.paths = q.scope;
    if (variant === "lifecycle-body") filter.types = bodyTypes;
    return filter.paths || filter.types ? filter : undefined;
  };
  for (const mode of MODES) {
    const outcomes: QueryOutcome[] = [];
    const documentOutcomes: QueryOutcome[] = [];
    const unanswerableHits: number[] = [];
    const unanswerableTop: Record<string, string[]> = {};
    const ms: number[] = [];
    for (const q of queries.filter((q) => q.split === split)) {
      const t = performance.now();
      const filter = filterFor(q);
      const { matches } = searchIndex(index, vectors.get(q.query)!, q.query, {
        limit,
        mode,
        filter,
      });
      ms.push(performance.now() - t);
      if (q.support.length === 0) {
        unanswerableHits.push(matches.length);
        unanswerableTop[q.id] = matches.slice(0, 3).map(label);
        continue;
      }
      const supports = matches.map((m) =>
        q.support.flatMap((s, j) =>
          m.chunk.sourcePath === s.path && squash(m.chunk.content).includes(squash(s.contains))
            ? [j]
            : []
        )
      );
      outcomes.push(scoreQuery(q.id, supports, q.support.length, ks, matches.map(label), q.group));
      // Diagnostic: files in order of their best chunk among 50 candidates, credited by path alone.
      const wide = searchIndex(index, vectors.get(q.query)!, q.query, { limit: 50, mode, filter })
        .matches;
      const files = [...new Set(wide.map((m) => m.chunk.sourcePath))].slice(0, limit);
      const fileSupports = files.map((f) => q.support.flatMap((s, j) => (f === s.path ? [j] : [])));
      documentOutcomes.push(scoreQuery(q.id, fileSupports, q.support.length, ks, files, q.group));
    }
    results.push({
      mode,
      variant,
      split,
      summary: summarize(outcomes, ks),
      byGroup: byGroup(outcomes, ks),
      documentLevel: summarize(documentOutcomes, ks),
      unanswerableHits,
      unanswerableTop,
      queryMsP50: median(ms),
      outcomes,
    });
  }
  return results;
}

/** `{path: front-matter title}` of the files that have one. */
function titlesOf(files: Record<string, string>): Record<string, string> {
  const titles: Record<string, string> = {};
  for (const [path, text] of Object.entries(files)) {
    const title = frontMatter(text).title;
    if (typeof title === "string" && title) titles[path] = title;
  }
  return titles;
}

async function readJson<T>(path: string): Promise<T> {
  return JSON.parse(await readFile(path, "utf8")) as T;
}

/** embedding_comparison: 100 concepts as Markdown files, 80 test questions (60 answerable), top 10. */
async function embeddingComparison(embedder: Embedder, work: string) {
  const dir = join(FIXTURES, "embedding_comparison");
  const sources = await readJson<Record<string, string>>(join(dir, "sources.json"));
  const { queries, asOf } = await readJson<{ queries: SupportQuery[]; asOf: string }>(
    join(dir, "queries.json"),
  );
  const root = join(work, "ec-corpus");
  await writeFiles(root, sources);
  const started = performance.now();
  const { index, summary, phaseMs } = await indexDirectory(root, join(work, "ec-index"), embedder);
  const { vectors, embedMsP50 } = await embedQueries(embedder, queries.map((q) => q.query));
  const current = currentPaths(sources, asOf);
  const titled = await indexWithTitles(index, titlesOf(sources), join(work, "ec-titled"), embedder);
  const runs = ["test", "development"].flatMap((split) => [
    ...(["plain", "lifecycle", "lifecycle-body"] as const).flatMap((variant) =>
      runSupportQueries(index, queries, vectors, split, 10, [3, 10], variant, current)
    ),
    ...runSupportQueries(titled, queries, vectors, split, 10, [3, 10], "lifecycle-title", current),
  ]);
  return {
    files: Object.keys(sources).length,
    chunks: index.chunks.length,
    indexMs: summary.elapsedMs,
    indexPhaseMs: phaseMs,
    queryEmbedMsP50: embedMsP50,
    totalMs: Math.round(performance.now() - started),
    runs,
  };
}

/** okf_retrieval: the 34-concept bundle (index.md/log.md excluded), held-out and development, top 3. */
async function okfRetrieval(embedder: Embedder, work: string) {
  const dir = join(FIXTURES, "okf_retrieval");
  const { queries, asOf } = await readJson<{ queries: SupportQuery[]; asOf: string }>(
    join(dir, "queries.json"),
  );
  const bundle = join(dir, "bundle");
  const texts: Record<string, string> = {};
  for (const name of await readdir(bundle, { recursive: true })) {
    if (name.endsWith(".md") && !/(^|\/)(index|log)\.md$/.test(name)) {
      texts[name] = await readFile(join(bundle, name), "utf8");
    }
  }
  const current = currentPaths(texts, asOf);
  const started = performance.now();
  const { index, summary, phaseMs } = await indexDirectory(
    bundle,
    join(work, "okf-index"),
    embedder,
    ["**/index.md", "**/log.md"],
  );
  const { vectors, embedMsP50 } = await embedQueries(embedder, queries.map((q) => q.query));
  const titled = await indexWithTitles(index, titlesOf(texts), join(work, "okf-titled"), embedder);
  const runs = ["held_out", "development"].flatMap((split) => [
    ...(["plain", "lifecycle", "lifecycle-body"] as const).flatMap((variant) =>
      runSupportQueries(index, queries, vectors, split, 3, [3], variant, current)
    ),
    ...runSupportQueries(titled, queries, vectors, split, 3, [3], "lifecycle-title", current),
  ]);
  return {
    files: summary.files.seen,
    chunks: index.chunks.length,
    indexMs: summary.elapsedMs,
    indexPhaseMs: phaseMs,
    queryEmbedMsP50: embedMsP50,
    totalMs: Math.round(performance.now() - started),
    runs,
  };
}

interface KnowledgeCase {
  id: string;
  query: string;
  relevantIds: string[];
  options?: {
    metadataFilters?: Record<string, string | string[]>;
    filePaths?: string[];
    filePatterns?: string[];
  };
}

/**
 * The caller's scope as our filter. Our search has no metadata filter, and
 * each fixture chunk is its own file, so a metadata filter becomes the list
 * of paths whose chunk metadata matches it — the same eligible set.
 */
function scopeFilter(kase: KnowledgeCase, chunks: GivenChunk[]): SearchFilter | undefined {
  const o = kase.options;
  if (!o) return undefined;
  let paths: string[] | undefined;
  if (o.metadataFilters) {
    paths = chunks.filter((c) =>
      Object.entries(o.metadataFilters!).every(([key, want]) =>
        (Array.isArray(want) ? want : [want]).includes(String(c.metadata?.[key]))
      )
    ).map((c) => c.sourcePath);
  }
  if (o.filePaths) paths = [...(paths ?? []), ...o.filePaths];
  if (o.filePatterns) paths = [...(paths ?? []), ...o.filePatterns];
  return paths ? { paths } : undefined;
}

/** knowledge_retrieval: 13 given chunks indexed as-is, 13 cases (12 answerable), top 3. */
async function knowledgeRetrieval(embedder: Embedder, work: string) {
  const fixture = await readJson<{ chunks: GivenChunk[]; cases: KnowledgeCase[]; limit: number }>(
    join(FIXTURES, "knowledge_retrieval", "cases.json"),
  );
  const started = performance.now();
  const index = await indexGivenChunks(fixture.chunks, join(work, "kr-index"), embedder);
  const { vectors, embedMsP50 } = await embedQueries(embedder, fixture.cases.map((c) => c.query));
  const runs: RunResult[] = [];
  for (const mode of MODES) {
    const outcomes: QueryOutcome[] = [];
    const unanswerableHits: number[] = [];
    const unanswerableTop: Record<string, string[]> = {};
    const ms: number[] = [];
    for (const kase of fixture.cases) {
      const t = performance.now();
      const { matches } = searchIndex(index, vectors.get(kase.query)!, kase.query, {
        limit: fixture.limit,
        mode,
        filter: scopeFilter(kase, fixture.chunks),
      });
      ms.push(performance.now() - t);
      const ids = matches.map((m) => String(m.chunk.metadata.caseId));
      const top = matches.map((m, i) => `${ids[i]} (${m.similarity.toFixed(4)})`);
      if (kase.relevantIds.length === 0) {
        unanswerableHits.push(matches.length);
        unanswerableTop[kase.id] = top;
        continue;
      }
      const supports = ids.map((id) => {
        const j = kase.relevantIds.indexOf(id);
        return j < 0 ? [] : [j];
      });
      outcomes.push(scoreQuery(kase.id, supports, kase.relevantIds.length, [3], top));
    }
    runs.push({
      mode,
      variant: "given",
      split: "all",
      summary: summarize(outcomes, [3]),
      byGroup: {},
      unanswerableHits,
      unanswerableTop,
      queryMsP50: median(ms),
      outcomes,
    });
  }
  return {
    files: fixture.chunks.length,
    chunks: index.chunks.length,
    queryEmbedMsP50: embedMsP50,
    totalMs: Math.round(performance.now() - started),
    runs,
  };
}

/** What the peer recorded (Arctic Embed XS Q8_0, Apple M2 Max), from its docs and shared/README.md. */
const PEER = {
  embedding_comparison: {
    source:
      "docs/wayfinder_embeddings_comparison.md, held-out (test) split, 60 answerable; 'context' figures include its knowledge policy",
    // [first raw match, first context, context R@3, context R@10, context MRR]
    dense: { firstRaw: 33, firstContext: 50, r3: 0.883, r10: 0.917, mrr: 0.863 },
    bm25: { firstRaw: 32, firstContext: 45, r3: 0.8, r10: 0.8, mrr: 0.769 },
    hybrid: { firstRaw: 33, firstContext: 46, r3: 0.817, r10: 0.817, mrr: 0.792 },
  },
  knowledge_retrieval: {
    source: "docs/knowledge_embeddings_knowledge_retrieval.md, 12 answerable, top 3",
    dense: { first: 8, r3: 12, unanswerableHits: 3 },
    bm25: { first: 10, r3: 11, unanswerableHits: 2 },
    hybrid: { first: 10, r3: 11, unanswerableHits: 3 },
  },
  okf_retrieval: {
    source:
      "docs/wayfinder_embeddings_ablation.md, held-out, 16 answerable, top 3; 'combined' includes lifecycle, governing sources and one-hop links",
    combined: {
      dense: { first: 15, r3: 1.0, mrr: 0.969 },
      bm25: { first: 14, r3: 0.938, mrr: 0.896 },
      hybrid: { first: 14, r3: 0.938, mrr: 0.906 },
    },
    body: {
      dense: { first: 13, r3: 0.938 },
      bm25: { first: 11, r3: 0.875 },
      hybrid: { first: 12, r3: 0.875 },
    },
    titleHeading: {
      dense: { first: 13, r3: 1.0 },
      bm25: { first: 13, r3: 0.875 },
      hybrid: { first: 13, r3: 0.875 },
    },
    lifecycleOnly: {
      dense: { first: 14, r3: 1.0 },
      bm25: { first: 12, r3: 0.875 },
      hybrid: { first: 13, r3: 0.875 },
    },
  },
};

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

type Protocols = {
  embedding_comparison?: Awaited<ReturnType<typeof embeddingComparison>>;
  knowledge_retrieval?: Awaited<ReturnType<typeof knowledgeRetrieval>>;
  okf_retrieval?: Awaited<ReturnType<typeof okfRetrieval>>;
};

function markdown(report: { protocols: Protocols }): string {
  const out: string[] = [];
  const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const ec = report.protocols.embedding_comparison;
  if (ec) {
    out.push(
      `### embedding_comparison — test split, 60 answerable (+20 unanswerable), top 10 (${ec.chunks} chunks from ${ec.files} files; ${
        secs(ec.totalMs)
      })`,
      "",
      "| Run | First hit correct | R@3 | R@10 | MRR | Peer first raw match | Peer first context* | Peer R@3* | Peer R@10* | Peer MRR* |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    );
    for (const run of ec.runs.filter((r) => r.split === "test")) {
      const s = run.summary;
      const p = PEER.embedding_comparison[PEER_NAME[run.mode]];
      out.push(
        `| ${PEER_NAME[run.mode]} ${run.variant} | ${s.firstCorrect}/${s.answerable} | ${
          pct(s.recall[3])
        } | ${pct(s.recall[10])} | ${
          s.mrr.toFixed(3)
        } | ${p.firstRaw}/60 | ${p.firstContext}/60 | ${pct(p.r3)} | ${pct(p.r10)} | ${
          p.mrr.toFixed(3)
        } |`,
      );
    }
    out.push(
      "",
      "\\* the peer's context figures include its knowledge policy (lifecycle, governing sources, one-hop links); " +
        '"lifecycle" rows apply only the lifecycle rule, through our path filter.',
      "",
      "First hit correct per question group (test split, 10 each), and the document-level diagnostic:",
      "",
      "| Run | exact | paraphrase | negation | authority | history | relationship | doc-level first; R@3 |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    );
    for (const run of ec.runs.filter((r) => r.split === "test")) {
      const cell = (name: string) => `${run.byGroup[name]?.firstCorrect ?? 0}`;
      const d = run.documentLevel!;
      const groups = ["exact", "paraphrase", "negation", "authority", "history", "relationship"];
      out.push(
        `| ${PEER_NAME[run.mode]} ${run.variant} | ${
          groups.map(cell).join(" | ")
        } | ${d.firstCorrect}/60; ${pct(d.recall[3])} |`,
      );
    }
    out.push("");
  }
  const kr = report.protocols.knowledge_retrieval;
  if (kr) {
    out.push(
      `### knowledge_retrieval — 13 given chunks, 12 answerable + 1 unanswerable, top 3 (${
        secs(kr.totalMs)
      })`,
      "",
      "| Run | First relevant | Recall@3 | Hits for unanswerable | Peer first | Peer recall@3 | Peer hits for unanswerable |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    );
    for (const run of kr.runs) {
      const s = run.summary;
      const p = PEER.knowledge_retrieval[PEER_NAME[run.mode]];
      out.push(
        `| ${PEER_NAME[run.mode]} | ${s.firstCorrect}/${s.answerable} | ${
          Math.round(s.recall[3] * s.answerable)
        }/${s.answerable} | ${
          run.unanswerableHits.join(",")
        } | ${p.first}/12 | ${p.r3}/12 | ${p.unanswerableHits} |`,
      );
    }
    out.push("");
  }
  const okf = report.protocols.okf_retrieval;
  if (okf) {
    out.push(
      `### okf_retrieval — held-out, 16 answerable + 1 unanswerable, top 3 (${okf.chunks} chunks from ${okf.files} files; ${
        secs(okf.totalMs)
      })`,
      "",
      "| Run | First correct | Support R@3 | MRR | Peer body-only | Peer title/heading | Peer lifecycle-only | Peer combined policy* (first; R@3; MRR) |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    );
    const o = PEER.okf_retrieval;
    const cell = (c: { first: number; r3: number }) => `${c.first}/16; ${pct(c.r3)}`;
    for (const run of okf.runs.filter((r) => r.split === "held_out")) {
      const s = run.summary;
      const n = PEER_NAME[run.mode];
      out.push(
        `| ${n} ${run.variant} | ${s.firstCorrect}/${s.answerable} | ${pct(s.recall[3])} | ${
          s.mrr.toFixed(3)
        } | ${cell(o.body[n])} | ${cell(o.titleHeading[n])} | ${cell(o.lifecycleOnly[n])} | ${
          cell(o.combined[n])
        }; ${o.combined[n].mrr.toFixed(3)} |`,
      );
    }
    out.push(
      "",
      "\\* includes the peer's lifecycle/asOf, governing-source and one-hop link policy; we apply at most the lifecycle rule.",
      "",
    );
  }
  return out.join("\n");
}

/**
 * Keeps the JSON reviewable: per-query rankings (top 3) only for the plain
 * runs of the reported splits (test, held_out, the knowledge cases); the
 * other runs keep their summaries.
 */
function slim(protocols: Protocols): void {
  const runs = [
    ...protocols.embedding_comparison?.runs ?? [],
    ...protocols.okf_retrieval?.runs ?? [],
    ...protocols.knowledge_retrieval?.runs ?? [],
  ];
  for (const run of runs) {
    if (run.split === "development" || run.variant.startsWith("lifecycle")) {
      run.outcomes = [];
      run.unanswerableTop = {};
    }
    for (const o of run.outcomes) o.top = o.top.slice(0, 3);
  }
}

/** The commit measured and any uncommitted changes under src/, so results name their code. */
async function codeState(): Promise<{ commit: string; dirtySrc: string[] }> {
  const git = async (...args: string[]) => {
    const { stdout } = await new Deno.Command("git", { args, stderr: "null" }).output();
    return new TextDecoder().decode(stdout).trim();
  };
  try {
    const commit = await git("rev-parse", "HEAD");
    const dirty = await git("status", "--porcelain", "--", "src");
    return { commit, dirtySrc: dirty ? dirty.split("\n") : [] };
  } catch {
    return { commit: "unknown", dirtySrc: [] };
  }
}

async function main() {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      model: { type: "string" },
      only: { type: "string" },
      output: { type: "string" },
      static: { type: "string" },
      "static-share": { type: "string", default: String(BUILD_DEFAULTS.staticShare) },
    },
  });
  const modelPath = values.model ?? Deno.env.get("WAYFINDER_BENCH_MODEL") ??
    ".cache/models/minilm-f16.gguf";
  const threads = Number(Deno.env.get("WAYFINDER_THREADS") ?? 2);
  const only = new Set(
    (values.only ?? "embedding_comparison,knowledge_retrieval,okf_retrieval").split(","),
  );
  const output = values.output ?? "bench/results/peer_protocols.json";

  const loadAverageAtStart = loadavg();
  const work = await Deno.makeTempDir({ prefix: "wayfinder-peer-" });
  const loadStart = performance.now();
  // A static model is measured the same way; `--static` joins one to the GGUF's vectors.
  const embedder = await openBenchEmbedder(
    modelPath,
    threads,
    values.static
      ? { staticModel: values.static, share: Number(values["static-share"]) }
      : undefined,
  );
  const modelLoadMs = Math.round(performance.now() - loadStart);
  const protocols: Protocols = {};
  try {
    if (only.has("embedding_comparison")) {
      protocols.embedding_comparison = await embeddingComparison(embedder, work);
    }
    if (only.has("knowledge_retrieval")) {
      protocols.knowledge_retrieval = await knowledgeRetrieval(embedder, work);
    }
    if (only.has("okf_retrieval")) protocols.okf_retrieval = await okfRetrieval(embedder, work);
  } finally {
    await embedder.close();
    await rm(work, { recursive: true, force: true });
  }

  const report = {
    date: new Date().toISOString(),
    code: await codeState(),
    machine: {
      host: hostname(),
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model,
      threads,
      loadAverageAtStart,
      loadAverageAtEnd: loadavg(),
      note: "shared with other jobs; timings are indicative only",
    },
    model: { path: modelPath, identity: embedder.identity, loadMs: modelLoadMs },
    peer: PEER,
    protocols,
  };
  slim(protocols);
  await mkdir(join(output, ".."), { recursive: true });
  await writeFile(output, JSON.stringify(report, null, 2) + "\n");
  console.log(markdown(report));
  console.log(`\nWrote ${output}`);
}

if (import.meta.main) await main();
