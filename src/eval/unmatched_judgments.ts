import type { Qrels } from "./load_qrels.ts";
import { normalisePath, type SpanJudgment, type SpanQrels } from "./load_span_qrels.ts";
import { type QrelsMatch, spanCovers } from "./score_query.ts";

/** A chunk of the evaluated corpus, as far as matching judgments goes. */
export interface JudgeableChunk {
  id: string;
  sourcePath: string;
  lineStart: number;
  lineEnd: number;
}

/**
 * A relevant judgment no chunk of the corpus satisfies: its query and the
 * chunk id, or the span as `path` or `path:lineStart-lineEnd`.
 */
export interface UnmatchedJudgment {
  query: string;
  judgment: string;
}

/**
 * The relevant judgments (grade > 0) that no chunk in the corpus matches: a
 * chunk id the index does not hold, or a span over a file it does not hold
 * or past that file's chunks. Scoring counts each as a miss, so a renamed or
 * excluded file would lower every run's score without a word.
 */
export function unmatchedJudgments(
  judgments: Qrels | SpanQrels,
  match: QrelsMatch,
  chunks: readonly JudgeableChunk[],
): UnmatchedJudgment[] {
  const unmatched: UnmatchedJudgment[] = [];
  if (match === "stable-id") {
    const ids = new Set(chunks.map((c) => c.id));
    for (const [query, grades] of Object.entries(judgments as Qrels)) {
      for (const [id, grade] of Object.entries(grades)) {
        if (grade > 0 && !ids.has(id)) unmatched.push({ query, judgment: id });
      }
    }
    return unmatched;
  }
  const all = chunks.map((c) => ({ ...c, path: normalisePath(c.sourcePath) }));
  const byPath = Map.groupBy(all, (c) => c.path);
  for (const [query, spans] of Object.entries(judgments as SpanQrels)) {
    for (const span of spans) {
      const candidates = span.suffixMatch ? all : byPath.get(span.path);
      const covered = candidates?.some((chunk) => spanCovers(span, chunk));
      if (span.grade > 0 && !covered) unmatched.push({ query, judgment: describeSpan(span) });
    }
  }
  return unmatched;
}

function describeSpan(span: SpanJudgment): string {
  if (span.lineStart === undefined && span.lineEnd === undefined) return span.path;
  return `${span.path}:${span.lineStart ?? 1}-${span.lineEnd ?? "end"}`;
}
