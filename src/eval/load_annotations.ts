import type { QueryGroups } from "./load_groups.ts";
import type { Queries } from "./load_queries.ts";
import { normalisePath, type SpanJudgment, type SpanQrels } from "./load_span_qrels.ts";
import { isRecord, malformed, parseJson, readText } from "./read_json.ts";

/**
 * Queries, judgments and categories read from one file of the public
 * code-search benchmark's annotations (MinishLab/semble,
 * `benchmarks/annotations/<repo>.json`): a list of
 * `{query, relevant, secondary, category}`, each target a path or
 * `{path, start_line, end_line}`.
 */
export interface Annotations {
  /** Query ids are `q1`, `q2`, … in file order. */
  queries: Queries;
  /** Relevant and secondary targets alike, grade 1; paths match by suffix (see `SpanJudgment`). */
  judgments: SpanQrels;
  /** Each query's category: as written, else inferred as the benchmark does. */
  groups: QueryGroups;
}

/**
 * Whether parsed JSON is in the annotation format: a non-empty list whose
 * first item is an object with a `query` and a `relevant` list (the other
 * query formats never have `relevant`); `parseAnnotations` checks the rest.
 */
export function isAnnotations(data: unknown): data is unknown[] {
  if (!Array.isArray(data) || data.length === 0) return false;
  const first = data[0];
  return isRecord(first) && "query" in first && Array.isArray(first.relevant);
}

/**
 * The benchmark's category rule for an unlabelled query: one word is a
 * symbol lookup, a question starting "how " is about architecture, the
 * rest is semantic.
 */
export function inferCategory(query: string): string {
  if (!query.trim().includes(" ")) return "symbol";
  return query.toLowerCase().startsWith("how ") ? "architecture" : "semantic";
}

/** Checks parsed annotation JSON and turns it into queries, span judgments and groups. */
export function parseAnnotations(data: unknown, path: string): Annotations {
  const fail = malformed("annotations", path);
  if (!isAnnotations(data)) {
    fail("expected a list of {query, relevant, secondary, category}");
  }
  const annotations: Annotations = { queries: {}, judgments: {}, groups: {} };
  (data as unknown[]).forEach((raw, i) => {
    const id = `q${i + 1}`;
    if (!isRecord(raw)) fail(`item ${i + 1} is not an object`);
    const item = raw as Record<string, unknown>;
    if (!Array.isArray(item.relevant)) fail(`relevant of item ${i + 1} must be a list`);
    if (typeof item.query !== "string" || item.query.trim() === "") {
      fail(`item ${i + 1} has no query`);
    }
    const query = (item.query as string).trim();
    const secondary = item.secondary ?? [];
    if (!Array.isArray(secondary)) fail(`secondary of item ${i + 1} must be a list`);
    const targets = [...(item.relevant as unknown[]), ...(secondary as unknown[])];
    annotations.queries[id] = query;
    annotations.judgments[id] = targets.map((t, j) => target(t, `item ${i + 1} target ${j + 1}`));
    annotations.groups[id] = typeof item.category === "string" && item.category.trim()
      ? item.category.trim()
      : inferCategory(query);
  });
  return annotations;

  function target(raw: unknown, where: string): SpanJudgment {
    if (typeof raw === "string" && raw.trim()) {
      return { path: normalisePath(raw), grade: 1, suffixMatch: true };
    }
    if (!isRecord(raw) || typeof raw.path !== "string" || raw.path.trim() === "") {
      fail(`${where} must be a path or {path, start_line, end_line}`);
    }
    const t = raw as Record<string, unknown>;
    const judgment: SpanJudgment = {
      path: normalisePath(t.path as string),
      grade: 1,
      suffixMatch: true,
    };
    const start = line(t.start_line, `${where}.start_line`);
    const end = line(t.end_line, `${where}.end_line`);
    // As the benchmark reads it: a span needs both ends, else the target is the whole file.
    if (start !== undefined && end !== undefined) {
      if (end < start) fail(`${where} ends (line ${end}) before it starts (line ${start})`);
      judgment.lineStart = start;
      judgment.lineEnd = end;
    }
    return judgment;
  }

  function line(value: unknown, where: string): number | undefined {
    if (value === undefined || value === null) return undefined;
    const n = typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value) : value;
    if (typeof n !== "number" || !Number.isInteger(n) || n < 1) {
      fail(`${where} must be a line number ≥ 1, got ${JSON.stringify(value)}`);
    }
    return n as number;
  }
}

/**
 * Reads a file of the benchmark's annotations, or returns null when the file
 * is JSON in another shape (a queries file, say).
 *
 * @throws {WayfinderError} "io" when unreadable, "input" when not JSON or
 * when it looks like annotations but a target is malformed.
 *
 * @example Read two annotated queries
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadAnnotations } from "./mod.ts";
 * const path = await Deno.makeTempFile({ suffix: ".json" });
 * await Deno.writeTextFile(path, JSON.stringify([
 *   { query: "Router", relevant: ["src/router.ts"], secondary: [], category: "symbol" },
 *   { query: "how requests are routed", relevant: [{ path: "src/router.ts", start_line: 3, end_line: 9 }] },
 * ]));
 * const annotations = await loadAnnotations(path);
 * assert.deepEqual(annotations?.groups, { q1: "symbol", q2: "architecture" });
 * assert.equal(annotations?.judgments.q2[0].lineStart, 3);
 * ```
 */
export async function loadAnnotations(path: string): Promise<Annotations | null> {
  const text = await readText(path, "queries");
  const trimmed = text.trimStart();
  if (!trimmed.startsWith("[")) return null;
  const data = parseJson(text, path, "queries");
  return isAnnotations(data) ? parseAnnotations(data, path) : null;
}
