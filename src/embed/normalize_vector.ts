/**
 * Scales a vector to unit length in place; returns false, leaving it as it
 * is, when it is all zeros and has no direction.
 */
export function normalizeVector(vector: Float32Array): boolean {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i] * vector[i];
  if (sum === 0 || !Number.isFinite(sum)) return false;
  const scale = 1 / Math.sqrt(sum);
  for (let i = 0; i < vector.length; i++) vector[i] *= scale;
  return true;
}
