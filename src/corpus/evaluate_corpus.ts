/**
 * Retrieval runs scored on judged queries through the front door: what
 * `compare-embeddings` measures, callable from a library or a bench.
 */
import { join } from "node:path";
import { type Embedder, identityFingerprint } from "../embed/mod.ts";
import { WayfinderError } from "../error.ts";
import { hintsFor } from "../hints.ts";
import {
  type EvalRun,
  type EvaluationInput,
  type Queries,
  type Report,
  runEvaluation,
  type UnmatchedJudgment,
  unmatchedJudgments,
} from "../eval/mod.ts";
import { indexDirFor } from "../store/mod.ts";
import type { ConfiguredCorpusOptions, CorpusSearchOptions } from "./corpus.ts";
import { corpusDataDir, liveIndex, openConfiguredCorpus } from "./open_corpus.ts";
import {
  type EmbedderSettings,
  openEmbedder,
  openReranker,
  type RerankerSettings,
} from "./open_models.ts";
import { queryOverBudget } from "./query_budget.ts";

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
  corpus: Omit<ConfiguredCorpusOptions, "embedder" | "reranker">;
  embedder: EmbedderSettings;
  reranker?: RerankerSettings;
}

/** A query over the model's token budget, embedded as its first `maxTokens` tokens. */
export interface TruncatedQuery {
  query: string;
  tokens: number;
  maxTokens: number;
}

/**
 * The report, the judgments nothing in the corpus matches (each scored as a
 * miss), and the queries runs that embed them cut to the model's budget
 * (under longInput "truncate"; "reject" refuses them instead).
 */
export interface CorpusReport extends Report {
  unmatchedJudgments: UnmatchedJudgment[];
  truncatedQueries: TruncatedQuery[];
}

/**
 * Indexes `root` and scores every run's searcher on the judged queries.
 * Unless `corpus.indexDir` says otherwise, the index lives apart from
 * `index`'s, one per model identity, so comparing models never invalidates
 * the user's index and repeated runs reuse vectors.
 */
export async function evaluateCorpus(
  root: string,
  options: EvaluateOptions,
): Promise<CorpusReport> {
  // Opened before the embedder, so a missing cross-encoder fails before any indexing.
  const rerankRun = options.runs.find((run) => run.options.rerank);
  const hints = hintsFor(options.corpus.hintsFor);
  const reranker = rerankRun
    ? await openReranker(options.reranker ?? {}, rerankRun.name, hints)
    : null;
  const embedder = await openEmbedder(options.embedder, options.corpus.locations, hints)
    .catch(async (error) => {
      await reranker?.close();
      throw error;
    });
  try {
    const corpus = await openConfiguredCorpus(root, {
      ...options.corpus,
      indexDir: options.corpus.indexDir ?? evaluationIndexDir(root, options.corpus, embedder),
      // A store keeps each model's evaluation index beside the user's, as the data root does.
      storeSuffix: `-eval-${identityFingerprint(embedder.identity).slice(0, 12)}`,
      embedder,
      reranker: reranker ?? undefined,
    });
    try {
      // Before indexing: a query the model cannot take fails in seconds, not after the embedding.
      const truncatedQueries = await queriesOverBudget(embedder, options);
      await corpus.index();
      const searchers = await Promise.all(options.runs.map((run) => corpus.searcher(run.options)));
      const { chunks } = await liveIndex(corpus);
      const chunkPaths = new Map(chunks.map((c) => [c.id, c.sourcePath]));
      const runs: EvalRun[] = options.runs.map((run, i) => ({
        name: run.name,
        search: async (query, k) => (await searchers[i]!.search({ query, limit: k })).matches,
      }));
      const report = await runEvaluation({ ...options, runs, pathOf: (id) => chunkPaths.get(id) });
      const match = options.match ?? "stable-id";
      return {
        ...report,
        unmatchedJudgments: unmatchedJudgments(options.judgments, match, chunks),
        truncatedQueries,
      };
    } finally {
      await corpus.close();
    }
  } finally {
    await reranker?.close();
    await embedder.close();
  }
}

/**
 * Applies `search`'s long-query rule to every query a run embeds: under
 * "reject" a query over the model's budget is refused, named by its id;
 * under "truncate" the model cuts it, as search does, and it is reported.
 * @returns The queries the model will cut.
 */
async function queriesOverBudget(
  embedder: Embedder,
  options: { queries: Queries; runs: RunSpec[] },
): Promise<TruncatedQuery[]> {
  const { maxTokens, longInput, name } = embedder.identity;
  const embeds = options.runs.some((run) => run.options.mode !== "lexical");
  if (!embeds) return [];
  const truncated: TruncatedQuery[] = [];
  for (const [id, text] of Object.entries(options.queries)) {
    const tokens = await queryOverBudget(embedder, text);
    if (tokens === null) continue;
    if (longInput === "reject") {
      throw new WayfinderError(
        "long_input",
        `Cannot evaluate: query '${id}' is ${tokens} tokens, more than the ${maxTokens} that model '${name}' takes; shorten it or evaluate only lexical runs`,
      );
    }
    truncated.push({ query: id, tokens, maxTokens });
  }
  return truncated;
}

function evaluationIndexDir(
  root: string,
  corpus: { dataDir?: string },
  embedder: Embedder,
): string {
  const fingerprint = identityFingerprint(embedder.identity).slice(0, 12);
  return indexDirFor(join(corpusDataDir(corpus), "eval", fingerprint), root);
}
