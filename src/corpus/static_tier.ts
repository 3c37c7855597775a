/**
 * The static tier. A transformer on two cores embeds a tree in minutes to
 * hours; the static model distilled from it (`model distill`) embeds it in
 * seconds. When that model sits beside the GGUF, an index run first brings a
 * static index of the tree up to date, in a folder of its own beside the
 * main index. While the transformer's vectors fill in behind, a dense or
 * hybrid search takes the transformer's ranking of what it has embedded and
 * the static model's ranking of the files it has not: one vector space per
 * model, each query embedded by the model whose vectors it is compared with,
 * the two rankings merged on normalised scores. Once every passage has its
 * transformer vector the tier is not read.
 */
import { existsSync } from "node:fs";
import { BUILD_DEFAULTS } from "../build_defaults.ts";
import { plural } from "../plural.ts";
import { resolveModelPath, staticModelPathFor } from "../model/mod.ts";
import type { Searcher, SearchHit } from "../search/mod.ts";
import type { StoredIndex } from "../store/mod.ts";
import { type EmbedderSettings, type Locations, REPOSITORY } from "./open_models.ts";

/** The folder of a corpus's static tier: beside its index folder. */
export function tierDirOf(indexDir: string): string {
  return `${indexDir}-static`;
}

/**
 * The static model a transformer's tier uses: `embedding.static` beside the
 * GGUF (`model prepare --static` and `model distill` put it there), or null
 * when there is none or the embedder is not an in-process transformer.
 */
export function tierModel(settings: EmbedderSettings, locations: Locations = {}): string | null {
  if ((settings.provider ?? BUILD_DEFAULTS.provider) !== "llama") return null;
  try {
    const gguf = resolveModelPath({
      model: settings.model,
      executableDir: locations.executableDir,
      projectDir: locations.projectDir ?? REPOSITORY,
    }).path;
    const path = staticModelPathFor(gguf);
    return existsSync(path) ? path : null;
  } catch {
    return null; // No GGUF: the run itself says so.
  }
}

/** The files of a generation with rows still waiting for their vector. */
export function waitingFiles(index: StoredIndex): Set<string> {
  const files = new Set<string>();
  const { sourcePath } = index.columns;
  for (const [start, end] of index.pending ?? []) {
    for (let row = start; row < end; row++) files.add(sourcePath.values[sourcePath.ids[row]!]!);
  }
  return files;
}

/** Candidates each ranking brings: the scale each list's scores are normalised over. */
const DEPTH = 50;

/**
 * Merges the main searcher's hits with the tier's while the main index is
 * still embedding. The two models' scores are on different scales and their
 * lists cover different shares of the tree, so each list's scores are first
 * min-max normalised over its own top candidates (the tier's over the whole
 * tree). A passage then scores `embedded × main + (1 − embedded) × tier`,
 * `embedded` being the share of rows with their transformer vector: the
 * static ranking leads while the transformer has seen little of the tree, and
 * gives way as it fills in. A passage of a file not embedded yet has the
 * tier's score alone, standing for both. The tier's hits in embedded files
 * count through the main hits whose lines they overlap (the tier keeps chunks
 * whole, the transformer's index may hold them as fragments). The tier's
 * cosines are on another model's scale, so `minScore` cuts only the main
 * ranking.
 */
export function tieredSearcher(
  main: Searcher,
  tier: Searcher,
  waiting: Set<string>,
  embedded: number,
): Searcher {
  return {
    async search(request) {
      const limit = Math.max(request.limit, DEPTH);
      const [ours, theirs] = await Promise.all([
        main.search({ ...request, limit }),
        tier.search({ ...request, limit, minScore: undefined }),
      ]);
      const tierHits = normalised(theirs.matches);
      const merged = normalised(ours.matches).map(({ hit, score }) => {
        const also = tierHits.find(({ hit: other }) => sameLines(other, hit));
        return { hit, score: embedded * score + (1 - embedded) * (also?.score ?? 0) };
      });
      merged.push(...tierHits.filter(({ hit }) => waiting.has(hit.chunk.sourcePath)));
      // Stable: at equal scores the main model's hit comes first.
      const matches = merged
        .sort((a, b) => b.score - a.score)
        .slice(0, request.limit)
        .map(({ hit, score }) => ({
          ...hit,
          score,
          similarity: score,
          scores: { ...hit.scores, fused: score },
        }));
      const notice = `${plural(waiting.size, "file")} not embedded yet ${
        waiting.size === 1 ? "is" : "are"
      } ranked with the static model meanwhile`;
      return {
        matches,
        notices: [...ours.notices, notice],
        examined: ours.examined + theirs.examined,
      };
    },
  };
}

/** Whether two hits are of the same file and share a line. */
function sameLines(a: SearchHit, b: SearchHit): boolean {
  return a.chunk.sourcePath === b.chunk.sourcePath && a.chunk.lineStart <= b.chunk.lineEnd &&
    b.chunk.lineStart <= a.chunk.lineEnd;
}

/** Each hit with its score min-max normalised over the list (the best is 1). */
function normalised(hits: SearchHit[]): { hit: SearchHit; score: number }[] {
  if (hits.length === 0) return [];
  const low = Math.min(...hits.map((hit) => hit.score));
  const span = Math.max(...hits.map((hit) => hit.score)) - low || 1;
  return hits.map((hit) => ({ hit, score: (hit.score - low) / span }));
}
