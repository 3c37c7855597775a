import { normalizeVector } from "../embed/mod.ts";

/**
 * The unit-length mean of `vectors` (a file's passage vectors, for the
 * ranking stage's file similarity), or null when there are none or they
 * cancel out.
 */
export function unitMean(
  vectors: Iterable<ArrayLike<number>>,
  dimensions: number,
): Float32Array | null {
  const sum = new Float32Array(dimensions);
  for (const vector of vectors) {
    for (let d = 0; d < dimensions; d++) sum[d] += vector[d]!;
  }
  return normalizeVector(sum) ? sum : null;
}
