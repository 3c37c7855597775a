import { WayfinderError } from "../error.ts";

/**
 * Cosine similarity of the query with every row: with L2-normalised vectors
 * it is a plain dot product. One tight loop over the row-major matrix, no
 * per-row allocation.
 */
export function denseScores(
  vectors: Float32Array,
  dimensions: number,
  query: Float32Array,
): Float32Array {
  checkQuery(query, dimensions);
  const rows = dimensions === 0 ? 0 : Math.floor(vectors.length / dimensions);
  const scores = new Float32Array(rows);
  for (let row = 0, base = 0; row < rows; row++, base += dimensions) {
    let dot = 0;
    for (let d = 0; d < dimensions; d++) dot += vectors[base + d] * query[d];
    scores[row] = dot;
  }
  return scores;
}

/** Dot product of one stored row with a vector of the same dimension. */
export function rowDot(
  vectors: Float32Array,
  dimensions: number,
  row: number,
  query: Float32Array,
): number {
  let dot = 0;
  const base = row * dimensions;
  for (let d = 0; d < dimensions; d++) dot += vectors[base + d] * query[d];
  return dot;
}

/** Refuses a query vector of another model's width. */
export function checkQuery(query: Float32Array, dimensions: number): void {
  if (query.length !== dimensions) {
    throw new WayfinderError(
      "stale_index",
      `Cannot search: the query vector has ${query.length} dimensions, the index has ${dimensions}`,
    );
  }
}
