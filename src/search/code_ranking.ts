/**
 * The ranking stage after retrieval: it reorders a mode's candidates with
 * what a code search knows beyond one chunk's score. Each step can be
 * switched off (see `RankingOptions`), so its worth is measured alone
 * (docs/code-search-benchmark.md has the ablation).
 */
import type { Chunk } from "../types.ts";
import {
  C_FAMILY,
  cDefinitionPattern,
  definitionPattern,
  forwardPattern,
  queriedIdentifiers,
} from "./named_definitions.ts";
import { isProse, pathMatchRatio, pathPrior, queryWords, stemOf } from "./path_signals.ts";

/** The steps of the ranking stage; each on unless set false. */
export interface RankingOptions {
  /** Tests, examples, compat shims, declaration stubs and prose lower, unless the query asks for them. */
  pathPriors?: boolean;
  /** Within path priors, prose (Markdown, reST, text) lowers too, unless the query asks for docs. */
  prosePrior?: boolean;
  /** A file whose candidates together score high lifts its best chunk. */
  fileCoherence?: boolean;
  /** A chunk that defines the identifier a query names rises. */
  definitions?: boolean;
  /** Each further code chunk of a file already ranked counts less, so other files get the next ranks. */
  fileSaturation?: boolean;
  /** A file whose name or folder holds the query's words rises (`router` → router.ts). */
  pathMatch?: boolean;
  /** Import lists rank lower: they name everything a file uses and define nothing. */
  chunkTypes?: boolean;
  /**
   * A file whose passages together read closest to the query lifts its best
   * chunk: the cosine of the query and the file's mean vector, where the caller
   * gives one (`RankingSignals.fileSimilarity`).
   */
  fileSimilarity?: boolean;
}

/** Every step of `RankingOptions`, for callers that name them (benches, ablations, tests). */
export const RANKING_STEPS: readonly (keyof RankingOptions)[] = [
  "pathPriors",
  "prosePrior",
  "fileCoherence",
  "definitions",
  "fileSaturation",
  "pathMatch",
  "chunkTypes",
  "fileSimilarity",
];

/** What the ranking stage may read beyond the candidates themselves. */
export interface RankingSignals {
  /** The cosine of the query and the mean vector of a file's passages, when the file has one. */
  fileSimilarity?: (path: string) => number | undefined;
}

/**
 * The steps a lexical search of a source tree runs by default: all of them.
 * File saturation is soft (× 0.7 per further chunk) and spares prose, so the
 * peer corpus's chunk-level judgments keep a file's second judged chunk.
 */
export const LEXICAL_RANKING: RankingOptions = {};

/**
 * The steps a dense or hybrid search of a source tree runs by default: the
 * definition boost alone. It raises every category of the development split
 * and leaves the peer corpus's ranking as it was; coherence, saturation, path
 * match and the path priors cost the peer corpus or MiniLM's semantic queries
 * (docs/code-search-benchmark.md).
 */
export const EMBEDDING_RANKING: RankingOptions = {
  pathPriors: false,
  definitions: true,
  fileCoherence: false,
  fileSaturation: false,
  pathMatch: false,
  chunkTypes: false,
  fileSimilarity: false,
};

/**
 * Whether `steps` can reorder anything for `query`. The definition boost
 * alone acts only on a query that names an identifier; any other query keeps
 * its retrieval scores (cosine, fused) as they were, and a floor on them.
 */
export function rankingActs(query: string, steps: RankingOptions): boolean {
  // prosePrior refines pathPriors and acts only with it.
  const others = RANKING_STEPS.filter((step) => step !== "definitions" && step !== "prosePrior");
  if (others.some((step) => steps[step] !== false)) return true;
  return steps.definitions !== false && queriedIdentifiers(query).names.length > 0;
}

/** A candidate: its row and the score retrieval gave it (higher is better, positive). */
export interface RankedRow {
  row: number;
  score: number;
}

/** How much a fully matching file name adds, as a multiple of the best score. */
const PATH_MATCH = 1.0;
/** The prior of an import list. */
const IMPORTS_PRIOR = 0.3;

/** The normalised score of the weakest candidate. */
const FLOOR = 0.1;

/** How much a definition adds, as a multiple of the best candidate's score. */
const DEFINITION_BOOST = 1.0;
/** …for an identifier inside a sentence, which may be incidental. */
const EMBEDDED_BOOST = 0.5;
/**
 * …twice when the query is just the name and the chunk spells its declaration
 * (`public class ObjectMapper`), not only inherits its symbol (a long doc comment's
 * first fragments).
 */
const DECLARATION = 2;
/** …less for a sentence's later names than for its first, its subject. */
const LATER_NAME = 0.5;
/** …more when the file is named after it (`Router` in router.go). */
const NAMED_FILE = 1.5;
/**
 * A file's coherence lift: at most this fraction of the best score. 0.3 lets a
 * file with two strong chunks pass one slightly stronger lone chunk; 0.35 and
 * more cost the peer corpus (a file's many weak chunks outweigh one good one).
 */
const COHERENCE = 0.3;
/**
 * A file's similarity lift: at most this fraction of the best score. 0.3 ranked
 * the development split best (0.15–0.2 and 0.5 a little lower).
 */
const FILE_SIMILARITY = 0.3;
/**
 * Chunks of one file ranked before its next ones decay by SATURATION each:
 * a file is found at its first chunk, and its further ones take ranks other
 * files could use. Softer than halving, so a file with several strong chunks
 * keeps them near the top (0.5 cost the peer corpus's typescript recall).
 */
const SATURATION_FREE = 1;
const SATURATION = 0.7;

/**
 * Lifts each candidate file's best chunk by its file's similarity to the query,
 * min-max normalised over the candidate files, at most FILE_SIMILARITY of the
 * best score. A file is judged as a whole; its mean vector says what the whole
 * file is about where one passage's cosine is noise.
 */
function liftSimilarFiles(
  scored: RankedRow[],
  paths: string[],
  similarity: (path: string) => number | undefined,
): void {
  const top = new Map<string, number>();
  scored.forEach((c, i) => {
    const held = top.get(paths[i]!);
    if (held === undefined || c.score > scored[held]!.score) top.set(paths[i]!, i);
  });
  const cosines = new Map<string, number>();
  for (const path of top.keys()) {
    const cosine = similarity(path);
    if (cosine !== undefined) cosines.set(path, cosine);
  }
  if (cosines.size < 2) return;
  const low = Math.min(...cosines.values());
  const span = Math.max(...cosines.values()) - low;
  if (span <= 0) return;
  const peak = Math.max(...scored.map((c) => c.score));
  for (const [path, cosine] of cosines) {
    scored[top.get(path)!]!.score += peak * FILE_SIMILARITY * (cosine - low) / span;
  }
}

/**
 * Reorders candidates: path priors, definition boosts, file similarity (when
 * `signals` carry it), file coherence, then a greedy pass in which each
 * further chunk of a file already placed counts SATURATION times less.
 * Retrieval scores are first min-max
 * normalised over the candidates (to FLOOR..1), so every mode's scores
 * weigh alike; the returned scores are the ranking's, best first.
 */
export function rankCode(
  candidates: readonly RankedRow[],
  chunkOf: (row: number) => Chunk,
  query: string,
  options: RankingOptions = {},
  signals: RankingSignals = {},
): RankedRow[] {
  if (candidates.length === 0) return [];
  const on = (step: keyof RankingOptions) => options[step] !== false;
  // On one scale whatever the mode: BM25 is unbounded, cosines of near
  // candidates differ in the second decimal, RRF in the fourth. Min-max over
  // the candidates, with a floor so the last one still has a score to scale.
  const low = Math.min(...candidates.map((c) => c.score));
  const span = Math.max(...candidates.map((c) => c.score)) - low || 1;
  const scored = candidates.map((c) => ({
    row: c.row,
    score: FLOOR + (1 - FLOOR) * (c.score - low) / span,
  }));
  const paths = scored.map((c) => chunkOf(c.row).sourcePath);
  if (on("pathPriors")) {
    const priors = new Map<string, number>();
    scored.forEach((c, i) => {
      const path = paths[i]!;
      if (!priors.has(path)) priors.set(path, pathPrior(path, query, on("prosePrior")));
      c.score *= priors.get(path)!;
    });
  }
  if (on("chunkTypes")) {
    for (const c of scored) if (chunkOf(c.row).type === "imports") c.score *= IMPORTS_PRIOR;
  }
  const best = Math.max(...scored.map((c) => c.score));
  if (best <= 0) return scored;
  if (on("pathMatch") && !queriedIdentifiers(query).whole) {
    const keywords = queryWords(query);
    if (keywords.length) {
      const ratios = new Map<string, number>();
      scored.forEach((c, i) => {
        const path = paths[i]!;
        if (!ratios.has(path)) ratios.set(path, pathMatchRatio(path, keywords));
        c.score += best * PATH_MATCH * ratios.get(path)!;
      });
    }
  }
  if (on("definitions")) {
    const { names, whole } = queriedIdentifiers(query);
    if (names.length) {
      const patterns = names.map(definitionPattern);
      const cPatterns = names.map(cDefinitionPattern);
      const forwards = names.map(forwardPattern);
      const stems = names.map((n) => n.toLowerCase().replace(/[_-]/g, ""));
      const unit = best * (whole ? DEFINITION_BOOST : EMBEDDED_BOOST);
      // What each candidate defines: per name, its boost before the subject's weight.
      const boosts = scored.map((c, i) => {
        const chunk = chunkOf(c.row);
        const cFamily = C_FAMILY.has(chunk.language);
        const stem = stemOf(paths[i]!);
        const symbol = chunk.symbol?.split(/::|\.|#/).pop();
        return names.map((name, n) => {
          // `includes` first: the pattern is costly and most candidates never spell the name.
          const spelled = chunk.content.includes(name) &&
            (cFamily ? cPatterns : patterns)[n]!.test(chunk.content);
          // A constructor shares its class's name without defining the class; a C forward
          // declaration (`struct X;`, a chunk of its own in every header that needs it) too.
          const defines = spelled ||
            (symbol === name && chunk.type !== "constructor" &&
              !(cFamily && forwards[n]!.test(chunk.content)));
          if (!defines) return 0;
          const named = stems[n] === stem || stems[n] === stem.replace(/s$/, "");
          return (spelled && whole ? DECLARATION : 1) * (named ? NAMED_FILE : 1);
        });
      });
      // In a sentence the first name a candidate defines is its subject (`Codec combining
      // Encoder and Decoder`); a leading name nothing defines (`the Gin Engine`) is not.
      const subject = names.findIndex((_, n) => boosts.some((b) => b[n]! > 0));
      scored.forEach((c, i) => {
        const weighted = boosts[i]!.map((b, n) => whole || n === subject ? b : b * LATER_NAME);
        c.score += unit * Math.max(0, ...weighted);
      });
    }
  }
  if (on("fileSimilarity") && signals.fileSimilarity) {
    liftSimilarFiles(scored, paths, signals.fileSimilarity);
  }
  if (on("fileCoherence")) {
    const sums = new Map<string, number>();
    const top = new Map<string, number>();
    scored.forEach((c, i) => {
      const path = paths[i]!;
      sums.set(path, (sums.get(path) ?? 0) + c.score);
      const held = top.get(path);
      if (held === undefined || c.score > scored[held]!.score) top.set(path, i);
    });
    const most = Math.max(...sums.values());
    const peak = Math.max(...scored.map((c) => c.score));
    if (most > 0) {
      for (const [path, i] of top) scored[i]!.score += peak * COHERENCE * sums.get(path)! / most;
    }
  }
  const order = scored.map((_, i) => i).sort((a, b) =>
    scored[b]!.score - scored[a]!.score || a - b
  );
  if (!on("fileSaturation")) return order.map((i) => scored[i]!);
  const placed = new Map<string, number>();
  const out = order.map((i) => {
    const path = paths[i]!;
    const seen = placed.get(path) ?? 0;
    placed.set(path, seen + 1);
    // Prose is exempt: a document's sections are judged one by one, and its later ones answer too.
    const excess = isProse(path) ? 0 : seen - SATURATION_FREE + 1;
    const score = excess > 0 ? scored[i]!.score * SATURATION ** excess : scored[i]!.score;
    return { row: scored[i]!.row, score, i };
  });
  return out.sort((a, b) => b.score - a.score || a.i - b.i).map(({ row, score }) => ({
    row,
    score,
  }));
}
