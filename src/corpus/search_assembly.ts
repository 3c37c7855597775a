/**
 * How a corpus answers a query: the searcher stack its options ask for, and
 * the result around the hits (the knowledge branch with its reading-order
 * context, the prompt-ready context text, and the notices).
 */
import { WayfinderError } from "../error.ts";
import type { Hints } from "../hints.ts";
import { asksAnything, describeEntry, searchKnowledge } from "../okf/mod.ts";
import { embeddingInput } from "../pipeline/mod.ts";
import { rowsIn } from "../row_ranges.ts";
import {
  buildContext,
  diversifyingSearcher,
  embeddedShare,
  EMBEDDING_RANKING,
  expandingSearcher,
  type Fusion,
  indexSearcher,
  LEXICAL_RANKING,
  type PassageScorer,
  type RankingOptions,
  rerankingSearcher,
  type Searcher,
  type SearchMode,
  type SearchRequest,
  sourceReader,
} from "../search/mod.ts";
import {
  type IndexManifest,
  processAlive,
  readRunProgress,
  type StoredIndex,
} from "../store/mod.ts";
import { bundleFiles } from "./bundle_files.ts";
import { checkedQuerySearcher } from "./checked_query.ts";
import { tieredSearcher } from "./static_tier.ts";
import type { ConfiguredSearchOptions, ConfiguredSearchResult } from "./corpus.ts";
import { declaresBundle, policyIgnoredNotice } from "./corpus_settings.ts";
import type { QueryEmbeddings } from "./query_embeddings.ts";
import { readIndexedLines } from "./read_lines.ts";
import { plural } from "../plural.ts";

/** Search options once checked: `bm25` read as `lexical`. */
export type CheckedSearchOptions = Omit<ConfiguredSearchOptions, "mode"> & { mode?: SearchMode };

/** What a searcher stack is built from. */
export interface StackParts {
  root: string;
  hints: Hints;
  queries: QueryEmbeddings;
  /** The cross-encoder; `what` is the option that asked for it, for its error. */
  reranker(what: string): Promise<PassageScorer>;
  /** The static tier's searcher and the files it ranks, while the index has rows to embed (dense mode). */
  tier?: { searcher: Searcher; waiting: Set<string> };
}

/**
 * The mode a search runs when none is asked: hybrid on a source tree (it
 * leads both the public code-search benchmark and the peer corpus), dense on
 * a knowledge bundle (its protocols answer best by meaning; fusion lost a
 * question in each). docs/code-search-benchmark.md has the figures.
 */
export function defaultMode(knowledge: boolean): SearchMode {
  return knowledge ? "dense" : "hybrid";
}

/**
 * The ranking steps `mode` runs by default, and how hybrid fuses: none and
 * reciprocal rank fusion on a knowledge bundle; on a source tree lexical
 * runs every step, dense the definition boost, and hybrid fuses adaptively:
 * BM25 with every step leading dense with the definition boost when BM25's
 * best passage holds every query word, else both raw rankings fused before
 * every step (src/search/ranked_fusion.ts, docs/code-search-benchmark.md).
 */
export function codeRanking(
  mode: SearchMode,
  knowledge: boolean,
): { ranking: RankingOptions | false; fusion?: Fusion } {
  if (knowledge) return { ranking: false };
  if (mode === "lexical") return { ranking: LEXICAL_RANKING };
  if (mode === "hybrid") return { ranking: LEXICAL_RANKING, fusion: "adaptive" };
  return { ranking: EMBEDDING_RANKING };
}

/** The searcher `options` ask for over `index`, with the query checks every corpus search makes. */
export async function stackSearcher(
  index: StoredIndex,
  options: CheckedSearchOptions,
  parts: StackParts,
): Promise<Searcher> {
  const mode = options.mode ?? defaultMode(index.manifest.settings?.knowledge === true);
  const embeds = mode !== "lexical";
  let searcher: Searcher = indexSearcher(index, {
    mode,
    embedQuery: embeds ? await parts.queries.embedding(index) : undefined,
    // Code ranking lifts source-tree search (docs/code-search-benchmark.md); bundles keep theirs.
    ...codeRanking(mode, index.manifest.settings?.knowledge === true),
  });
  if (parts.tier && mode === "dense") {
    searcher = tieredSearcher(
      searcher,
      parts.tier.searcher,
      parts.tier.waiting,
      embeddedShare(index),
    );
  }
  // Below reranking: expansion widens by searching again, which must not score passages twice.
  if (options.expand) searcher = expandingSearcher(searcher, index, sourceReader(parts.root));
  if (options.rerank) {
    const candidates = options.rerank === true ? 50 : options.rerank;
    searcher = rerankingSearcher(searcher, await parts.reranker(parts.hints.rerankOption()), {
      candidates,
      text: embeddingInput,
    });
  }
  // Over expansion, so the pool is --fetch-k distinct contexts and the picks differ in context.
  if (options.diverse) {
    searcher = diversifyingSearcher(
      searcher,
      index,
      options.diverse === true ? {} : options.diverse,
    );
  }
  // Outermost, so every layer below sees the checked query.
  return checkedQuerySearcher(searcher, embeds ? parts.queries.fits(index) : undefined);
}

/** What a result is assembled with, besides its searcher and index. */
export interface AnswerParts {
  root: string;
  hints: Hints;
  /** Whether the caller chose knowledge indexing, for the notice when a policy is ignored. */
  chosenKnowledge?: boolean;
  /** The notices saying the index is (or may be) behind its tree. */
  freshness(index: StoredIndex): Promise<string[]>;
}

/** Files a citation check reads at most: a result cites few. */
const CITED_FILES = 50;

/**
 * A notice naming the cited files whose text is no longer what the index
 * holds (edited in place, or gone): their lines may not match. One read and
 * hash per cited file, so it catches what the folder check cannot see.
 */
export async function citedChanges(
  files: IndexManifest["files"],
  passages: readonly { chunk: { sourcePath: string } }[],
  root: string,
  hints: Hints,
): Promise<string[]> {
  const paths = [...new Set(passages.map((hit) => hit.chunk.sourcePath))].slice(0, CITED_FILES);
  const changed: string[] = [];
  for (const path of paths) {
    const file = await readIndexedLines(root, files, path).catch(() => null);
    if (file === undefined) continue; // Not a file of this generation (a bundle's virtual path).
    if (file === null || file.changedSinceIndex) changed.push(path);
  }
  if (changed.length === 0) return [];
  const shown = changed.slice(0, 5).join(", ") + (changed.length > 5 ? ", …" : "");
  return [
    `${plural(changed.length, "cited file")} changed or gone since indexing (${shown}): ${
      changed.length === 1 ? "its" : "their"
    } lines may not match the hits; ${hints.index(root)}`,
  ];
}

/** Runs `request` and assembles what `corpus.search` returns. */
export async function answerQuery(
  searcher: Searcher,
  index: StoredIndex,
  request: SearchRequest,
  options: CheckedSearchOptions,
  parts: AnswerParts,
): Promise<ConfiguredSearchResult> {
  const { root, hints } = parts;
  const knowledge = index.manifest.settings?.knowledge === true;
  const coverage = await denseCoverage(index, options.mode ?? defaultMode(knowledge), root, hints);
  const response: ConfiguredSearchResult = knowledge
    ? {
      query: request.query,
      ...await searchKnowledge(
        searcher,
        index,
        request,
        options.policy ?? {},
        bundleFiles(root, Object.keys(index.manifest.files)),
      ),
    }
    : { query: request.query, ...pick(await searcher.search(request), "matches", "notices") };
  const cited = await citedChanges(
    index.manifest.files,
    response.context?.map((e) => e.passage) ?? response.matches,
    root,
    hints,
  );
  response.notices.unshift(...coverage, ...await parts.freshness(index), ...cited);
  response.notices.push(...rerankedFloorNotice(options));
  if (!knowledge && asksAnything(options.policy ?? {})) {
    const declared = await declaresBundle(root);
    response.notices.push(
      policyIgnoredNotice(root, { declared, chosen: parts.chosenKnowledge }, hints),
    );
  }
  addContextText(response, options, root);
  return response;
}

/** Adds the prompt-ready context text `contextChars` asks for, with a notice when nothing fits. */
export function addContextText(
  response: ConfiguredSearchResult,
  options: CheckedSearchOptions,
  root: string,
): void {
  if (options.contextChars === undefined) return;
  const passages = response.context?.map((entry) => entry.passage) ?? response.matches;
  response.contextText = buildContext(passages, {
    maxChars: options.contextChars,
    read: sourceReader(root),
    // In reading order the best match may come after its governing sources: it still leads.
    lead: Math.max(0, passages.indexOf(response.matches[0]!)),
    // A knowledge passage's heading names its concept, its status and why it is there.
    notes: response.context?.map((entry) => describeEntry(entry, options.policy?.asOf)),
  });
  if (response.contextText === "" && passages.length > 0) {
    response.notices.push(
      `no passage fits a context of ${options.contextChars} characters; allow more`,
    );
  }
}

function pick<T, K extends keyof T>(value: T, ...keys: K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, value[key]])) as Pick<T, K>;
}

/**
 * A notice when the live generation was published before every passage had
 * its vector: dense ranking covers only the embedded ones. Knowledge search
 * promises a vector for every eligible passage, so there it is an error.
 */
async function denseCoverage(index: StoredIndex, mode: SearchMode, root: string, hints: Hints) {
  const waiting = rowsIn(index.pending);
  if (waiting === 0 || mode === "lexical") return [];
  const total = index.chunks.length;
  const covered = `dense covers ${(total - waiting).toLocaleString("en")} of ${
    total.toLocaleString("en")
  } chunks`;
  const progress = await readRunProgress(index.dir);
  const next = progress && processAlive(progress.pid, progress.startedAt)
    ? "indexing continues"
    : `${hints.index(root)} to embed the rest`;
  if (index.manifest.settings?.knowledge) {
    throw new WayfinderError(
      "stale_index",
      `Cannot search ${root} in ${mode} mode: ${covered} (${next}); search with ${hints.lexicalMode()} meanwhile`,
    );
  }
  return [`${covered}; ${next}`];
}

/** Says that `minScore` cut on cosine while the scores shown are a reranker's. */
export function rerankedFloorNotice(options: CheckedSearchOptions): string[] {
  const { minScore, rerank, mode } = options;
  if (minScore === undefined || !rerank || mode === "lexical") return [];
  return [
    `minScore ${minScore} kept hits by dense similarity (scores.dense) before reranking, not by the rerank score`,
  ];
}
