/**
 * Principal component analysis for distillation: the covariance matrix of
 * the rows, its eigenvectors by cyclic Jacobi rotations (small matrices:
 * one row and column per model dimension), and the centred rows projected
 * onto the strongest. Plain loops in a fixed order, so the same input
 * always gives the same output.
 */

/** The projected rows and how much of the variance they keep. */
export interface Pca {
  /** `rows × components`, row by row. */
  projected: Float64Array;
  /** Kept eigenvalues over all eigenvalues, 0..1. */
  explainedVariance: number;
  /** Each kept component's share of all the variance, strongest first. */
  componentShares: number[];
}

/**
 * Projects `rows × dims` values (row by row) onto their first `components`
 * principal components, each component's sign fixed so that its largest
 * coefficient is positive.
 */
export function principalComponents(
  data: Float64Array,
  rows: number,
  dims: number,
  components: number,
): Pca {
  const mean = new Float64Array(dims);
  for (let r = 0; r < rows; r++) {
    for (let i = 0; i < dims; i++) mean[i] += data[r * dims + i];
  }
  for (let i = 0; i < dims; i++) mean[i] /= rows;
  const covariance = new Float64Array(dims * dims);
  const centred = new Float64Array(dims);
  for (let r = 0; r < rows; r++) {
    for (let i = 0; i < dims; i++) centred[i] = data[r * dims + i] - mean[i];
    for (let i = 0; i < dims; i++) {
      const ci = centred[i];
      const base = i * dims;
      for (let j = i; j < dims; j++) covariance[base + j] += ci * centred[j];
    }
  }
  for (let i = 0; i < dims; i++) {
    for (let j = i; j < dims; j++) {
      const value = covariance[i * dims + j] / Math.max(1, rows - 1);
      covariance[i * dims + j] = value;
      covariance[j * dims + i] = value;
    }
  }
  const { values, vectors } = symmetricEigen(covariance, dims);
  const order = Array.from({ length: dims }, (_, i) => i).sort((a, b) =>
    values[b] - values[a] || a - b
  );
  const basis = new Float64Array(components * dims); // component k, coefficient i
  for (let k = 0; k < components; k++) {
    const column = order[k];
    let largest = 0;
    for (let i = 0; i < dims; i++) {
      const v = vectors[i * dims + column];
      if (Math.abs(v) > Math.abs(largest)) largest = v;
    }
    const sign = largest < 0 ? -1 : 1;
    for (let i = 0; i < dims; i++) basis[k * dims + i] = sign * vectors[i * dims + column];
  }
  const projected = new Float64Array(rows * components);
  for (let r = 0; r < rows; r++) {
    for (let i = 0; i < dims; i++) centred[i] = data[r * dims + i] - mean[i];
    for (let k = 0; k < components; k++) {
      let sum = 0;
      const base = k * dims;
      for (let i = 0; i < dims; i++) sum += centred[i] * basis[base + i];
      projected[r * components + k] = sum;
    }
  }
  let total = 0;
  for (let k = 0; k < dims; k++) total += Math.max(0, values[order[k]]);
  const componentShares = Array.from(
    { length: components },
    (_, k) => total > 0 ? Math.max(0, values[order[k]]) / total : 1 / components,
  );
  const kept = componentShares.reduce((sum, share) => sum + share, 0);
  return { projected, explainedVariance: Math.min(1, kept), componentShares };
}

/**
 * Eigenvalues and eigenvectors (as columns of `vectors`) of a symmetric
 * `n × n` matrix, by cyclic Jacobi rotations until the off-diagonal part
 * is negligible.
 */
export function symmetricEigen(
  matrix: Float64Array,
  n: number,
): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(matrix);
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  let scale = 0;
  for (let i = 0; i < n * n; i++) scale += a[i] * a[i];
  const tolerance = 1e-22 * scale;
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) off += a[p * n + q] * a[p * n + q];
    }
    if (off <= tolerance) break;
    for (let p = 0; p < n - 1; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q];
        if (apq === 0) continue;
        const app = a[p * n + p];
        const aqq = a[q * n + q];
        const theta = (aqq - app) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p];
          const akq = a[k * n + q];
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k];
          const aqk = a[q * n + k];
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k * n + p];
          const vkq = v[k * n + q];
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) values[i] = a[i * n + i];
  return { values, vectors: v };
}
