/**
 * How close a whole file reads to a query: the cosine of the query and the
 * mean of the file's passage vectors, for the ranking stage's file
 * similarity step (`RankingSignals.fileSimilarity`). A file's mean is summed
 * the first time a query asks for the file and kept with the index, so a query
 * pays only for candidate files no earlier query had.
 */
import { unitMean } from "../store/mod.ts";
import { hasVector } from "./dense_ranking.ts";
import { rowDot } from "./dense_scores.ts";
import type { SearchableIndex } from "./search_types.ts";

interface FileMeans {
  /** Each file's rows, built in one pass over the path column when first needed. */
  rowsByPath?: Map<string, number[]>;
  /** Each file's unit mean vector, or null when none of its rows has a vector yet. */
  means: Map<string, Float32Array | null>;
}

const byIndex = new WeakMap<SearchableIndex, FileMeans>();

/**
 * The similarity of each file of `index` to the query embedded as `query`
 * (unit length, as the index's rows are): undefined for a file with no
 * embedded row.
 */
export function fileSimilarity(
  index: SearchableIndex,
  query: Float32Array,
): (path: string) => number | undefined {
  let held = byIndex.get(index);
  if (!held) byIndex.set(index, held = { means: new Map() });
  const files = held;
  return (path) => {
    let mean = files.means.get(path);
    if (mean === undefined) {
      files.rowsByPath ??= rowsByPath(index);
      files.means.set(path, mean = meanOf(index, files.rowsByPath.get(path) ?? []));
    }
    return mean === null ? undefined : rowDot(mean, mean.length, 0, query);
  };
}

/** Rows by file: from the path column where the index keeps one, so no chunk is built. */
function rowsByPath(index: SearchableIndex): Map<string, number[]> {
  const out = new Map<string, number[]>();
  const column = index.columns?.sourcePath;
  const count = index.dimensions ? index.vectors.length / index.dimensions : 0;
  for (let row = 0; row < count; row++) {
    const path = column ? column.values[column.ids[row]!]! : index.chunks[row]!.sourcePath;
    const list = out.get(path);
    if (list) list.push(row);
    else out.set(path, [row]);
  }
  return out;
}

/** The unit-length mean of `rows`' vectors, skipping rows without one; null when none has. */
function meanOf(index: SearchableIndex, rows: number[]): Float32Array | null {
  const d = index.dimensions;
  const embedded = rows.filter((row) => hasVector(index, row));
  return unitMean(embedded.map((row) => index.vectors.subarray(row * d, (row + 1) * d)), d);
}
