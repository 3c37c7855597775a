import type { Chunk } from "../types.ts";

/**
 * Version of the text built from a chunk for embedding. Part of the model
 * identity: changing `embeddingInput` must bump it, so old vectors are never
 * mixed with new ones.
 */
export const INPUT_FORMAT = 1;

/**
 * The text a chunk is embedded as: its path and symbol on a first line give
 * the model the context a bare method body lacks; the passage itself follows.
 * A chunker may supply `metadata.embeddingText` (e.g. a table fragment with
 * its header rows) to stand in for the raw content.
 */
export function embeddingInput(chunk: Chunk): string {
  const body = typeof chunk.metadata.embeddingText === "string"
    ? chunk.metadata.embeddingText
    : chunk.content;
  const label = chunk.symbol ? `${chunk.sourcePath} ${chunk.symbol}` : chunk.sourcePath;
  return `${label}\n${body}`;
}
