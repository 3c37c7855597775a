import { checkGrade, isRecord, malformed } from "./read_json.ts";

/** A judged region of a file. Without lines it covers the whole file. */
export interface SpanJudgment {
  /** Path relative to the corpus root, forward slashes. */
  path: string;
  /** 1-based, inclusive; absent means from the first line. */
  lineStart?: number;
  /** 1-based, inclusive; absent means to the last line. */
  lineEnd?: number;
  /** Informational (e.g. "method"); matching ignores it. */
  type?: string;
  grade: number;
  /**
   * The path is relative to a repository whose subfolder may be the corpus
   * (the benchmark's annotations): it matches a chunk path when either ends
   * with the other at a `/`. Otherwise paths must be equal.
   */
  suffixMatch?: boolean;
}

/** Span judgments by query id. */
export type SpanQrels = Record<string, SpanJudgment[]>;

function line(value: unknown, fail: (reason: string) => never, where: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    fail(`${where} must be a line number ≥ 1, got ${JSON.stringify(value)}`);
  }
  return value as number;
}

/** Checks parsed JSON against the span qrels shape and normalises paths. */
export function parseSpanQrels(data: unknown, path: string): SpanQrels {
  const fail = malformed("span qrels", path);
  if (!isRecord(data)) fail("expected an object of {queryId: [{path, lineStart, lineEnd, grade}]}");
  const qrels: SpanQrels = {};
  for (const [qid, spans] of Object.entries(data as Record<string, unknown>)) {
    if (!Array.isArray(spans)) fail(`judgments of '${qid}' must be a list`);
    qrels[qid] = (spans as unknown[]).map((span, i) => {
      const where = `${qid}[${i}]`;
      if (!isRecord(span)) fail(`${where} is not an object`);
      const s = span as Record<string, unknown>;
      if (typeof s.path !== "string" || s.path.trim() === "") fail(`${where} has no path`);
      const lineStart = line(s.lineStart, fail, `${where}.lineStart`);
      const lineEnd = line(s.lineEnd, fail, `${where}.lineEnd`);
      if (lineStart !== undefined && lineEnd !== undefined && lineEnd < lineStart) {
        fail(`${where} ends (line ${lineEnd}) before it starts (line ${lineStart})`);
      }
      const judgment: SpanJudgment = {
        path: normalisePath(s.path as string),
        grade: checkGrade(s.grade, path, "span qrels", where),
      };
      if (lineStart !== undefined) judgment.lineStart = lineStart;
      if (lineEnd !== undefined) judgment.lineEnd = lineEnd;
      if (typeof s.type === "string") judgment.type = s.type;
      return judgment;
    });
  }
  return qrels;
}

/** Forward slashes, no leading "./", as chunk source paths are written. */
export function normalisePath(path: string): string {
  return path.trim().replace(/\\/g, "/").replace(/^(\.\/)+/, "");
}
