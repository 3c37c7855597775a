/** Sets of index rows as `[start, end)` ranges: compact for the runs of rows they usually are. */
import type { RowRange } from "./types.ts";

/** The ranges covering `rows` (ascending, distinct), merged where they touch. */
export function rowRanges(rows: Iterable<number>): RowRange[] {
  const ranges: RowRange[] = [];
  for (const row of rows) {
    const last = ranges.at(-1);
    if (last && last[1] === row) last[1]++;
    else ranges.push([row, row + 1]);
  }
  return ranges;
}

/** How many rows `ranges` cover. */
export function rowsIn(ranges: readonly RowRange[] | undefined): number {
  return (ranges ?? []).reduce((sum, [start, end]) => sum + end - start, 0);
}

const masks = new WeakMap<readonly RowRange[], Uint8Array>();

/** Whether `row` lies in `ranges`; a mask is built once per ranges array. */
export function inRanges(ranges: readonly RowRange[] | undefined, row: number): boolean {
  if (!ranges?.length) return false;
  let mask = masks.get(ranges);
  if (!mask) {
    mask = new Uint8Array(ranges.at(-1)![1]);
    for (const [start, end] of ranges) mask.fill(1, start, end);
    masks.set(ranges, mask);
  }
  return mask[row] === 1;
}
