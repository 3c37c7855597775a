import type { Chunk } from "../types.ts";

/**
 * Version of the text built from a chunk for embedding. Part of the model
 * identity: changing `embeddingInput` must bump it, so old vectors are never
 * mixed with new ones.
 */
export const INPUT_FORMAT = 1;

/**
 * The context derived for a chunk, embedded before its passage: its path and
 * symbol on a first line give the model what a bare method body lacks. The
 * fitter counts it with every fragment, so `embeddingInput` must build on it.
 */
export function embeddingContext(chunk: Chunk): string {
  const label = chunk.symbol ? `${chunk.sourcePath} ${chunk.symbol}` : chunk.sourcePath;
  return `${label}\n`;
}

/**
 * The text a chunk is embedded as: its context, then the passage. A chunker
 * may supply `metadata.embeddingText` (e.g. a table fragment with its header
 * rows) to stand in for the raw content; the fitter sets
 * `metadata.contextOmitted` on fragments that could not carry the context.
 */
export function embeddingInput(chunk: Chunk): string {
  const body = typeof chunk.metadata.embeddingText === "string"
    ? chunk.metadata.embeddingText
    : chunk.content;
  return chunk.metadata.contextOmitted === true ? body : embeddingContext(chunk) + body;
}
