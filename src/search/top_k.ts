/**
 * Indices of the `k` highest scores, best first; ties go to the lower index
 * so rankings are deterministic. A bounded min-heap keeps this O(n log k),
 * which matters because dense search scores every row of the index.
 */
export function topK(scores: Float32Array | Float64Array, k: number): number[] {
  const n = scores.length;
  const size = Math.max(0, Math.min(k, n));
  if (size === 0) return [];
  // heap[0] is the worst kept entry: lowest score, and among equals the highest index.
  const heap = new Int32Array(size);
  let count = 0;
  const worse = (a: number, b: number) =>
    scores[a] < scores[b] || (scores[a] === scores[b] && a > b);
  const siftDown = (from: number) => {
    let i = from;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < count && worse(heap[l], heap[m])) m = l;
      if (r < count && worse(heap[r], heap[m])) m = r;
      if (m === i) return;
      const t = heap[i];
      heap[i] = heap[m];
      heap[m] = t;
      i = m;
    }
  };
  for (let row = 0; row < n; row++) {
    if (Number.isNaN(scores[row])) continue;
    if (count < size) {
      let i = count++;
      heap[i] = row;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!worse(heap[i], heap[p])) break;
        const t = heap[i];
        heap[i] = heap[p];
        heap[p] = t;
        i = p;
      }
    } else if (worse(heap[0], row)) {
      heap[0] = row;
      siftDown(0);
    }
  }
  const out = Array.from(heap.subarray(0, count));
  out.sort((a, b) => scores[b] - scores[a] || a - b);
  return out;
}
