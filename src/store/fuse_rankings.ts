/**
 * Reciprocal rank fusion of a dense and a lexical ranking, as every store's
 * `hybrid` fuses them: a hit scores Σ 1 / (k + rank + 1) over the rankings
 * that hold it, and keeps each ranking's own score beside the sum.
 */

/** The k of reciprocal rank fusion when a query names none. */
export const RRF_K = 60;

/** A hit's fused score and the scores of the rankings that held it. */
export interface FusedScores {
  fused: number;
  dense?: number;
  lexical?: number;
}

/**
 * Fuses two rankings, each best first, of hits named by `key`.
 * @returns Each hit's scores by key, in no particular order: callers rank them.
 */
export function fuseRankings<K>(
  rankings: { dense: { key: K; score: number }[]; lexical: { key: K; score: number }[] },
  k: number = RRF_K,
): Map<K, FusedScores> {
  const fused = new Map<K, FusedScores>();
  for (const part of ["dense", "lexical"] as const) {
    rankings[part].forEach(({ key, score }, rank) => {
      const entry = fused.get(key) ?? { fused: 0 };
      entry.fused += 1 / (k + rank + 1);
      entry[part] = score;
      fused.set(key, entry);
    });
  }
  return fused;
}
