/**
 * The full-text data of a chunk as the PostgreSQL store keeps it: the
 * tokens of `tokenizeCode` (the local index's tokenizer) counted per field,
 * and each field's length, so BM25F is computed in SQL exactly as the local
 * index computes it (`lexical_index.ts`).
 */
import type { Chunk } from "../../types.ts";
import { tokenizeCode } from "../code_tokenizer.ts";

/** BM25F parameters, the local index's: k1, and per field (content, symbol, path) b and weight. */
export const BM25F = { k1: 1.2, b: [0.75, 0.5, 0.5], weights: [1, 3, 1] } as const;

/** A chunk's terms with their counts per field, and its field lengths in tokens. */
export interface ChunkTerms {
  /** term → [in content, in symbol, in path]. */
  counts: Map<string, [number, number, number]>;
  lengths: [number, number, number];
}

/** Tokenizes a chunk's content, symbol and path. */
export function chunkTerms(chunk: Chunk): ChunkTerms {
  const counts = new Map<string, [number, number, number]>();
  const lengths: [number, number, number] = [0, 0, 0];
  [chunk.content, chunk.symbol ?? "", chunk.sourcePath].forEach((text, field) => {
    const tokens = tokenizeCode(text);
    lengths[field] = tokens.length;
    for (const token of tokens) {
      let count = counts.get(token);
      if (!count) counts.set(token, count = [0, 0, 0]);
      count[field]!++;
    }
  });
  return { counts, lengths };
}
