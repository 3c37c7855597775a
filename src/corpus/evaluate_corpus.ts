/**
 * Retrieval runs scored on judged queries through the front door: what
 * `compare-embeddings` measures, callable from a library or a bench.
 */
import { join } from "node:path";
import { type Embedder, identityFingerprint } from "../embed/mod.ts";
import { WayfinderError } from "../error.ts";
import { type EvalRun, type EvaluationInput, type Report, runEvaluation } from "../eval/mod.ts";
import { indexDirFor } from "../store/mod.ts";
import {
  corpusDataDir,
  type CorpusOptions,
  type CorpusSearchOptions,
  openCorpus,
} from "./open_corpus.ts";
import {
  type EmbedderSettings,
  openEmbedder,
  openReranker,
  type RerankerSettings,
} from "./open_models.ts";

/** Base runs, and the search mode behind each; `bm25` is an alias of `lexical`. */
const RUN_MODES = {
  dense: "dense",
  lexical: "lexical",
  bm25: "lexical",
  hybrid: "hybrid",
} as const;
/** Prefixes that stack a searcher on a run: `rerank:hybrid`, `diverse:dense`, `expand:rerank:hybrid`. */
const MODIFIERS = ["rerank", "diverse", "expand"] as const;
/** Candidates a rerank run's cross-encoder rescores; hits past them keep their retrieval order. */
const RERANK_DEPTH = 50;

/** A run as named, and the searcher stack it stands for. */
export interface RunSpec {
  name: string;
  options: CorpusSearchOptions;
}

/**
 * Reads a run name: `dense`, `lexical`, `hybrid` (or `bm25`), each optionally
 * behind `rerank:`, `diverse:`, `expand:`.
 * @throws {WayfinderError} "usage" for any other name.
 */
export function parseRun(name: string): RunSpec {
  const parts = name.split(":");
  const base = parts.pop()!;
  const unknown = parts.find((p) => !(MODIFIERS as readonly string[]).includes(p));
  const repeated = new Set(parts).size !== parts.length;
  if (!(base in RUN_MODES) || unknown !== undefined || repeated) {
    throw new WayfinderError(
      "usage",
      `Unknown run '${name}' in --embedders; expected ${
        Object.keys(RUN_MODES).join(", ")
      }, optionally prefixed by ${MODIFIERS.map((m) => `${m}:`).join(", ")}, each at most once`,
    );
  }
  return {
    name,
    options: {
      mode: RUN_MODES[base as keyof typeof RUN_MODES],
      rerank: parts.includes("rerank") ? RERANK_DEPTH : undefined,
      diverse: parts.includes("diverse"),
      expand: parts.includes("expand"),
    },
  };
}

/** What to evaluate: the judged queries, the runs, and how the corpus is indexed. */
export interface EvaluateOptions extends Omit<EvaluationInput, "runs" | "pathOf"> {
  runs: RunSpec[];
  /** Index settings, data root and locations; `embedder` and `reranker` come from below. */
  corpus: Omit<CorpusOptions, "embedder" | "reranker">;
  embedder: EmbedderSettings;
  reranker?: RerankerSettings;
}

/**
 * Indexes `root` and scores every run's searcher on the judged queries.
 * Unless `corpus.indexDir` says otherwise, the index lives apart from
 * `index`'s, one per model identity, so comparing models never invalidates
 * the user's index and repeated runs reuse vectors.
 */
export async function evaluateCorpus(root: string, options: EvaluateOptions): Promise<Report> {
  // Opened before the embedder, so a missing cross-encoder fails before any indexing.
  const rerankRun = options.runs.find((run) => run.options.rerank);
  const reranker = rerankRun ? await openReranker(options.reranker ?? {}, rerankRun.name) : null;
  const embedder = await openEmbedder(options.embedder, options.corpus.locations)
    .catch(async (error) => {
      await reranker?.close();
      throw error;
    });
  try {
    const corpus = await openCorpus(root, {
      ...options.corpus,
      indexDir: options.corpus.indexDir ?? evaluationIndexDir(root, options.corpus, embedder),
      embedder,
      reranker: reranker ?? undefined,
    });
    try {
      await corpus.index();
      const searchers = await Promise.all(options.runs.map((run) => corpus.searcher(run.options)));
      const chunkPaths = new Map((await corpus.open()).chunks.map((c) => [c.id, c.sourcePath]));
      const runs: EvalRun[] = options.runs.map((run, i) => ({
        name: run.name,
        search: async (query, k) => (await searchers[i]!.search({ query, limit: k })).matches,
      }));
      return await runEvaluation({ ...options, runs, pathOf: (id) => chunkPaths.get(id) });
    } finally {
      await corpus.close();
    }
  } finally {
    await reranker?.close();
    await embedder.close();
  }
}

function evaluationIndexDir(
  root: string,
  corpus: { dataDir?: string },
  embedder: Embedder,
): string {
  const fingerprint = identityFingerprint(embedder.identity).slice(0, 12);
  return indexDirFor(join(corpusDataDir(corpus), "eval", fingerprint), root);
}
