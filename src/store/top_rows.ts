/**
 * The `k` rows of `rows` with the highest `scores[row]`, best first; ties go
 * to the lower row so rankings are deterministic. A bounded min-heap keeps
 * this O(m log k): a common query word can match most of a large index.
 */
export function topRows(rows: readonly number[], scores: Float64Array, k: number): number[] {
  const size = Math.max(0, Math.min(Math.floor(k), rows.length));
  // heap[0] is the worst kept row: lowest score, and among equals the highest row.
  const heap: number[] = [];
  const worse = (a: number, b: number) =>
    scores[a]! < scores[b]! || (scores[a] === scores[b] && a > b);
  const swap = (i: number, j: number) => ([heap[i], heap[j]] = [heap[j]!, heap[i]!]);
  for (const row of rows) {
    if (heap.length < size) {
      heap.push(row);
      for (let i = heap.length - 1; i > 0 && worse(heap[i]!, heap[(i - 1) >> 1]!);) {
        swap(i, (i - 1) >> 1);
        i = (i - 1) >> 1;
      }
    } else if (size > 0 && worse(heap[0]!, row)) {
      heap[0] = row;
      for (let i = 0;;) {
        const l = 2 * i + 1;
        let m = i;
        if (l < size && worse(heap[l]!, heap[m]!)) m = l;
        if (l + 1 < size && worse(heap[l + 1]!, heap[m]!)) m = l + 1;
        if (m === i) break;
        swap(i, m);
        i = m;
      }
    }
  }
  return heap.sort((a, b) => scores[b]! - scores[a]! || a - b);
}
