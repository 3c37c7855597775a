/** Binary searches over ascending arrays. */

/** The first index in ascending `values` holding a value ≥ `min` (`values.length` if none). */
export function lowerBound<T extends number | string>(values: readonly T[], min: T): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (values[mid]! < min) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The first index in ascending `values` holding a value > `max`: the number
 * of values at or below it (a line's number from the line starts before it).
 */
export function upperBound(values: readonly number[], max: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (values[mid]! <= max) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
