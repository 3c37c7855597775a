import type { SourceFile } from "../types.ts";
import { detectLanguage, type WalkOptions, type WalkResult, walkTree } from "../walk/mod.ts";
import { chunkFile, type CodeChunker } from "../chunk/mod.ts";
import { chunkConcept, isReservedFile, joinConcept } from "../okf/mod.ts";
import type { Embedder } from "../embed/mod.ts";
import { fitChunk, fitChunks, type FittedChunk, tokenBudget } from "./fit_chunks.ts";

/** Which files of a tree are sources: what `index` and `fit-inputs` walk. */
export interface SourceSettings {
  root: string;
  include?: string[];
  exclude?: string[];
  maxFileBytes?: number;
  /** Folders never walked, such as the data and index folders when they lie inside the root. */
  excludeDirs?: string[];
  /** Called with each folder's stat as the walk lists it (see `WalkOptions.onFolder`). */
  onFolder?: WalkOptions["onFolder"];
}

/** How a source file becomes embedding inputs. */
export interface ChunkSourceOptions {
  chunker: CodeChunker;
  /** Chunk budget in non-whitespace characters. */
  maxChunkChars?: number;
  /** Only its tokenizer and budget are used. */
  embedder: Pick<Embedder, "identity" | "countTokens">;
  /** An OKF bundle: concepts become passages with their metadata; reserved files are skipped. */
  knowledge?: boolean;
}

/** The tree's source files, walked with the index's rules. */
export function walkSources(
  settings: SourceSettings,
  keep?: WalkOptions["keep"],
): Promise<WalkResult> {
  return walkTree(settings.root, {
    include: settings.include,
    exclude: settings.exclude,
    maxFileBytes: settings.maxFileBytes,
    excludeDirs: settings.excludeDirs,
    onFolder: settings.onFolder,
    ...(keep ? { keep } : {}),
  });
}

/**
 * Chunks one file by its language, then fits each chunk to the model's
 * token budget: the one step `index` and `fit-inputs` share, so they agree.
 */
export async function chunkSource(
  file: SourceFile,
  options: ChunkSourceOptions,
): Promise<FittedChunk[]> {
  const language = detectLanguage(file.path, file.content);
  const maxChars = options.maxChunkChars;
  const budget = tokenBudget(options.embedder);
  if (!options.knowledge || language !== "markdown") {
    return await fitChunks(chunkFile(file, language, options.chunker, { maxChars }), budget);
  }
  // In a bundle, index.md and log.md are navigation and history, not knowledge.
  if (isReservedFile(file.path)) return [];
  const passages = chunkConcept(file, { maxChars });
  // A short concept is embedded whole when it fits one input, context and all:
  // a rule, its prohibition and its qualifiers then answer any question about one of them.
  const whole = joinConcept(file, passages, { maxChars });
  if (whole) {
    const fitted = await fitChunk(whole, budget);
    if (fitted.fragments.length === 1 && fitted.fragments[0] === whole) return [fitted];
  }
  return await fitChunks(passages, budget);
}
