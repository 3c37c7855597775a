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
 * Merges the main searcher's hits with the tier's hits in files the main
 * index has not embedded yet. The two models' scores are on different
 * scales, and their lists cover different shares of the tree, so neither
 * ranks nor raw cosines compare: each list's scores are min-max normalised
 * over its own top candidates (the tier's over the whole tree, so a file
 * not embedded yet takes the place the static model gives it among all the
 * files), then the hits are merged by that score. The tier's cosines are on
 * another model's scale, so `minScore` cuts only the main ranking.
 */
export function tieredSearcher(main: Searcher, tier: Searcher, waiting: Set<string>): Searcher {
  return {
    async search(request) {
      const limit = Math.max(request.limit, DEPTH);
      const [ours, theirs] = await Promise.all([
        main.search({ ...request, limit }),
        tier.search({ ...request, limit, minScore: undefined }),
      ]);
      const merged = [
        ...normalised(ours.matches),
        ...normalised(theirs.matches).filter(({ hit }) => waiting.has(hit.chunk.sourcePath)),
      ];
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

/** Each hit with its score min-max normalised over the list (the best is 1). */
function normalised(hits: SearchHit[]): { hit: SearchHit; score: number }[] {
  if (hits.length === 0) return [];
  const low = Math.min(...hits.map((hit) => hit.score));
  const span = Math.max(...hits.map((hit) => hit.score)) - low || 1;
  return hits.map((hit) => ({ hit, score: (hit.score - low) / span }));
}
