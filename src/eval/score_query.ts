import { WayfinderError } from "../error.ts";
import type { Hit } from "../types.ts";
import { normalisePath, type SpanJudgment } from "./load_span_qrels.ts";

/** How a retrieved chunk is matched with judgments. */
export type QrelsMatch = "stable-id" | "span-overlap";
/** What is ranked and judged: chunks, or files ranked by their best chunk. */
export type EvalUnit = "chunk" | "file";

/** The three metrics at k, each within 0..1. */
export interface Metrics {
  recall: number;
  ndcg: number;
  mrr: number;
}

/** One query's metrics and what was ranked: chunk ids, or paths in file unit. */
export interface QueryScore extends Metrics {
  retrieved: string[];
}

export interface ScoreOptions {
  k: number;
  match: QrelsMatch;
  unit: EvalUnit;
  /** Source path of a judged chunk id; needed for stable-id matching in file unit. */
  pathOf?: (chunkId: string) => string | undefined;
}

/** Something that can be judged: a chunk id, a span or a file, with its grade. */
interface Unit {
  grade: number;
  covers: (item: Item) => boolean;
}

/** A ranked item: a chunk (chunk unit) or a file (file unit). */
interface Item {
  key: string;
  path: string;
  lineStart: number;
  lineEnd: number;
}

/** Whether a chunk's path is the judgment's (or, under `suffixMatch`, either ends with the other). */
export function spanPathMatches(span: SpanJudgment, path: string): boolean {
  if (path === span.path) return true;
  return span.suffixMatch === true &&
    (span.path.endsWith(`/${path}`) || path.endsWith(`/${span.path}`));
}

/** Whether a span judgment overlaps a chunk's lines; a span without lines covers its whole file. */
export function spanCovers(
  span: SpanJudgment,
  chunk: { path: string; lineStart: number; lineEnd: number },
): boolean {
  return spanPathMatches(span, chunk.path) && chunk.lineStart <= (span.lineEnd ?? Infinity) &&
    chunk.lineEnd >= (span.lineStart ?? 1);
}

function dedupe(items: Item[]): Item[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(item.key) && seen.add(item.key));
}

/** Files and their grade: the max grade of the judgments in each. */
function fileUnits(grades: [string, number][]): Unit[] {
  const best = new Map<string, number>();
  for (const [path, grade] of grades) best.set(path, Math.max(best.get(path) ?? 0, grade));
  return [...best].map(([path, grade]) => ({ grade, covers: (item) => item.path === path }));
}

function unitsOf(judged: Record<string, number> | SpanJudgment[], options: ScoreOptions): Unit[] {
  if (options.match === "span-overlap") {
    if (!Array.isArray(judged)) {
      throw new WayfinderError("input", "Cannot evaluate: span-overlap matching needs span qrels");
    }
    if (options.unit === "file") return fileUnits(judged.map((j) => [j.path, j.grade]));
    return judged.map((j) => ({ grade: j.grade, covers: (item) => spanCovers(j, item) }));
  }
  if (Array.isArray(judged)) {
    throw new WayfinderError("input", "Cannot evaluate: stable-id matching needs chunk-id qrels");
  }
  const entries = Object.entries(judged);
  if (options.unit === "chunk") {
    return entries.map(([id, grade]) => ({ grade, covers: (item) => item.key === id }));
  }
  const pathOf = options.pathOf;
  if (!pathOf) {
    throw new WayfinderError(
      "usage",
      "Cannot evaluate by file: stable-id matching needs the paths of judged chunks",
    );
  }
  // A judged chunk the index does not know stays a file nothing can retrieve.
  return fileUnits(entries.map(([id, grade]) => [pathOf(id) ?? `\0${id}`, grade]));
}

/**
 * Scores one query's ranking against its judgments at k.
 *
 * Each ranked item (chunk, or file in file unit) is compared, best first,
 * with the judgment units: judged chunk ids, spans, or files (a file's grade
 * is the max grade of its judgments). An item credits every relevant unit
 * (grade > 0) that covers it and that no earlier item credited, and its gain
 * is the max grade among those; an item covering only credited units gains
 * nothing. So each unit is credited at most once, by the first item that
 * covers it, and a method found both as itself and inside its class scores
 * only once. Then, over the top k items:
 *
 * - recall = credited relevant units / all relevant units;
 * - nDCG = DCG / IDCG with DCG = Σ gain_r / log2(r + 1) and IDCG the same sum
 *   over the units' grades sorted high to low, cut at k (so nDCG ≤ 1);
 * - MRR = 1 / rank of the first item with gain > 0, else 0.
 *
 * A query with no relevant unit scores 0 on all three.
 */
export function scoreQuery(
  hits: Hit[],
  judged: Record<string, number> | SpanJudgment[],
  options: ScoreOptions,
): QueryScore {
  const { k, unit } = options;
  const units = unitsOf(judged, options).filter((u) => u.grade > 0);
  const chunks = dedupe(hits.map(({ chunk }) => ({
    key: chunk.id,
    path: normalisePath(chunk.sourcePath),
    lineStart: chunk.lineStart,
    lineEnd: chunk.lineEnd,
  })));
  const ranked = unit === "file"
    ? dedupe(chunks.map((c) => ({ ...c, key: c.path, lineStart: 1, lineEnd: Infinity })))
    : chunks;
  const top = ranked.slice(0, k);

  const credited = new Set<Unit>();
  let dcg = 0;
  let firstRelevant = 0;
  top.forEach((item, i) => {
    let gain = 0;
    for (const u of units) {
      if (credited.has(u) || !u.covers(item)) continue;
      credited.add(u);
      gain = Math.max(gain, u.grade);
    }
    if (gain > 0) {
      dcg += gain / Math.log2(i + 2);
      if (firstRelevant === 0) firstRelevant = i + 1;
    }
  });
  const ideal = units.map((u) => u.grade).sort((a, b) => b - a).slice(0, k);
  const idcg = ideal.reduce((sum, grade, i) => sum + grade / Math.log2(i + 2), 0);
  return {
    recall: units.length ? credited.size / units.length : 0,
    ndcg: idcg > 0 ? dcg / idcg : 0,
    mrr: firstRelevant ? 1 / firstRelevant : 0,
    retrieved: top.map((item) => item.key),
  };
}
