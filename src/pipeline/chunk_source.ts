import type { SourceFile } from "../types.ts";
import { detectLanguage, type WalkResult, walkTree } from "../walk/mod.ts";
import { chunkFile, type CodeChunker } from "../chunk/mod.ts";
import { chunkConcept, isReservedFile } from "../okf/mod.ts";
import type { Embedder } from "../embed/mod.ts";
import { fitChunks, type FittedChunk, tokenBudget } from "./fit_chunks.ts";

/** Which files of a tree are sources: what `index` and `fit-inputs` walk. */
export interface SourceSettings {
  root: string;
  include?: string[];
  exclude?: string[];
  maxFileBytes?: number;
  /** Folders never walked, such as the data and index folders when they lie inside the root. */
  excludeDirs?: string[];
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
export function walkSources(settings: SourceSettings): Promise<WalkResult> {
  return walkTree(settings.root, {
    include: settings.include,
    exclude: settings.exclude,
    maxFileBytes: settings.maxFileBytes,
    excludeDirs: settings.excludeDirs,
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
  const language = detectLanguage(file.path);
  const maxChars = options.maxChunkChars;
  const concept = options.knowledge && language === "markdown";
  // In a bundle, index.md and log.md are navigation and history, not knowledge.
  if (concept && isReservedFile(file.path)) return [];
  const chunks = concept
    ? chunkConcept(file, { maxChars })
    : chunkFile(file, language, options.chunker, { maxChars });
  return await fitChunks(chunks, tokenBudget(options.embedder));
}
