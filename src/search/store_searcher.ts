/**
 * The retriever at the bottom of a stack when the index lives in a store
 * that ranks by itself (PostgreSQL, Orama): the store returns candidates,
 * and the same filters, dense floor and ranking stage as a local search
 * settle them.
 */
import type { Chunk } from "../types.ts";
import { languageId } from "../walk/mod.ts";
import { rankCode, rankingActs, type RankingOptions, type RankingSignals } from "./code_ranking.ts";
import { rowDot } from "./dense_scores.ts";
import { GLOB_CHARS, matchFilter, type SearchFilter } from "./match_filter.ts";
import type { SearchHit, SearchResult, SearchScores } from "./search_types.ts";
import {
  denseDepth,
  fuseHybrid,
  fusesEarly,
  isRankedFusion,
  type RankedFusion,
} from "./ranked_fusion.ts";
import type { IndexSearcherOptions, Searcher, SearchRequest } from "./searcher.ts";

/** Which chunks a store may return: the categories it can test itself. */
export interface CandidateFilter {
  types?: string[];
  languages?: string[];
  /** A chunk is kept when its path equals one or lies below one. */
  pathPrefixes?: string[];
}

/** One candidate a store returns, best first. */
export interface Candidate {
  chunk: Chunk;
  score: number;
  scores: { dense?: number; lexical?: number; fused?: number };
}

/** What a store answers: its own dense, lexical and fused rankings. */
export interface CandidateSource {
  dense(
    vector: Float32Array,
    query: { limit: number; filter?: CandidateFilter },
  ): Promise<Candidate[]>;
  lexical(text: string, query: { limit: number; filter?: CandidateFilter }): Promise<Candidate[]>;
  hybrid(
    text: string,
    vector: Float32Array,
    query: { limit: number; filter?: CandidateFilter; rrfK?: number },
  ): Promise<Candidate[]>;
  /**
   * The unit mean vector of each named file's passages, for the ranking
   * stage's file similarity; a store without it skips that step.
   */
  fileVectors?(paths: readonly string[]): Promise<Map<string, Float32Array>>;
}

/** Candidates asked of the store per hit wanted: the depth a local search ranks. */
const DEPTH = 32;

/**
 * Splits a search filter into what the store tests (types, languages, plain
 * paths as prefixes) and what is tested here on its candidates (globs, and
 * any `accept` rule). A glob that keeps few of the store's candidates can
 * leave fewer hits than a local search, which ranks only the rows it keeps.
 */
function storeFilter(filter: SearchFilter | undefined): CandidateFilter | undefined {
  if (!filter) return undefined;
  const plain = (filter.paths ?? []).every((path) => !GLOB_CHARS.test(path));
  const pathPrefixes = plain && filter.paths?.length
    ? filter.paths.map((path) => path.replace(/\\/g, "/").replace(/^\.\//, "").replace(/\/+$/, ""))
    : undefined;
  return {
    ...(filter.types?.length ? { types: filter.types } : {}),
    ...(filter.languages?.length ? { languages: filter.languages.map(languageId) } : {}),
    ...(pathPrefixes ? { pathPrefixes } : {}),
  };
}

/**
 * A searcher over a store's own rankings, with what `searchIndex` adds on
 * top: the filter's globs, the dense `minScore` floor and the ranking stage.
 */
export function storeSearcher(source: CandidateSource, options: IndexSearcherOptions): Searcher {
  return {
    async search(request) {
      const { query, limit } = request;
      const depth = limit * DEPTH;
      const filter = storeFilter(request.filter);
      const vector = options.mode === "lexical" ? null : await options.embedQuery!(query);
      const asked = options.ranking === true ? {} : options.ranking || undefined;
      const steps = asked && rankingActs(query, asked) ? asked : undefined;
      if (options.mode === "hybrid" && isRankedFusion(options.fusion)) {
        const [lexical, dense] = await Promise.all([
          source.lexical(query, { limit: depth, filter }),
          source.dense(vector!, { limit: depth, filter }),
        ]);
        // Adaptive fusion decided once: the file vectors are fetched only where they are read.
        const early = fusesEarly(options.fusion, query, lexical[0]?.chunk);
        const signals = early ? await fileSignals(source, vector!, [...lexical, ...dense]) : {};
        const fusion = early ? "early" : "ranked";
        const fused = rankedFusion(query, lexical, dense, steps, limit, fusion, signals);
        return settle(request, fused, lexical.length + dense.length);
      }
      const candidates = options.mode === "lexical"
        ? await source.lexical(query, { limit: depth, filter })
        : options.mode === "dense"
        ? await source.dense(vector!, { limit: depth, filter })
        : await source.hybrid(query, vector!, { limit: depth, filter, rrfK: options.rrfK });
      const hits = candidates.map((c) => hitOf(c.chunk, c.score, c.scores));
      return settle(request, steps ? ranked(query, hits, steps) : hits, candidates.length);
    },
  };

  /** The hits the request keeps: its filter's globs and the dense floor, `limit` of them. */
  function settle(request: SearchRequest, hits: SearchHit[], examined: number): SearchResult {
    const { minScore, limit } = request;
    const notices: string[] = [];
    if (minScore !== undefined && options.mode === "lexical") {
      notices.push("minScore applies to dense similarity and was ignored in lexical mode");
    } else if (minScore !== undefined && options.mode === "hybrid") {
      notices.push(
        `minScore ${minScore} kept hits by dense similarity (scores.dense), not by the fused score they are ranked by`,
      );
    }
    const useFloor = minScore !== undefined && options.mode !== "lexical";
    const keep = matchFilter(request.filter);
    const matches = hits
      .filter((hit) => !useFloor || (hit.scores.dense ?? -Infinity) >= minScore!)
      .filter((hit) => !keep || keep(hit.chunk))
      .slice(0, limit);
    return { matches, notices, examined };
  }
}

/** The file similarity of the candidates' files, where the store can average their vectors. */
async function fileSignals(
  source: CandidateSource,
  vector: Float32Array,
  candidates: Candidate[],
): Promise<RankingSignals> {
  if (!source.fileVectors || candidates.length === 0) return {};
  const means = await source.fileVectors([...new Set(candidates.map((c) => c.chunk.sourcePath))]);
  return {
    fileSimilarity: (path) => {
      const mean = means.get(path);
      return mean && rowDot(mean, mean.length, 0, vector);
    },
  };
}

/** Hits in the ranking stage's order, each scored by it. */
function ranked(query: string, hits: SearchHit[], steps: RankingOptions): SearchHit[] {
  return rankCode(
    hits.map((hit, row) => ({ row, score: hit.score })),
    (row) => hits[row]!.chunk,
    query,
    steps,
  ).map(({ row, score }) =>
    hitOf(hits[row]!.chunk, score, { ...hits[row]!.scores, ranked: score })
  );
}

/**
 * A `RankedFusion` of a store's two rankings (see `fuseHybrid`), as
 * `searchIndex` fuses a local index's.
 */
function rankedFusion(
  query: string,
  lexical: Candidate[],
  dense: Candidate[],
  steps: RankingOptions | undefined,
  limit: number,
  fusion: RankedFusion,
  signals: RankingSignals,
): SearchHit[] {
  // One row per chunk, both rankings' scores on it.
  const rows = new Map<string, { row: number; chunk: Chunk; scores: SearchScores }>();
  const rowOf = ({ chunk, scores }: Candidate) => {
    const held = rows.get(chunk.id);
    if (held) {
      held.scores = { ...held.scores, ...scores };
      return held.row;
    }
    rows.set(chunk.id, { row: rows.size, chunk, scores });
    return rows.size - 1;
  };
  const asRows = (candidates: Candidate[]) =>
    candidates.map((c) => ({ row: rowOf(c), score: c.score }));
  const lexicalRows = asRows(lexical);
  const denseRows = asRows(dense);
  const byRow = [...rows.values()];
  const fused = fuseHybrid(
    fusion,
    query,
    lexicalRows,
    denseRows,
    (row) => byRow[row]!.chunk,
    steps,
    denseDepth(limit),
    1,
    signals,
  );
  return fused.map(({ row, score }) => {
    const { chunk, scores } = byRow[row]!;
    return hitOf(chunk, score, {
      dense: scores.dense,
      lexical: scores.lexical,
      fused: score,
      ranked: score,
    });
  });
}

function hitOf(chunk: Chunk, score: number, scores: SearchScores): SearchHit {
  return { chunk, score, similarity: score, scores };
}
