import type { FittedPassage } from "./fit_passage.ts";

/**
 * What fitting had to give up for a chunk:
 * - `oversized_segment_split`: a cut fell inside a run of non-whitespace;
 * - `embedding_context_omitted`: its inputs carry no derived context.
 * Cuts at line breaks and whitespace are ordinary and say nothing.
 */
export type FitDiagnosticCode = "embedding_context_omitted" | "oversized_segment_split";

/** One code's chunks in one file: the lines enclosing them and how many there are. */
export interface FitDiagnostic {
  /** What was done to the passage. */
  code: FitDiagnosticCode;
  /** The file it comes from, relative to the root. */
  sourcePath: string;
  /** Its first line, 1-based. */
  lineStart: number;
  /** Its last line, inclusive. */
  lineEnd: number;
  /** Original chunks affected, each counted once. */
  affectedChunks: number;
}

/** What one original chunk needed, before aggregation. */
export interface FitNote {
  /** What was done to the passage. */
  code: FitDiagnosticCode;
  /** The passage's chunk id. */
  chunkId: string;
  /** The file it comes from, relative to the root. */
  sourcePath: string;
  /** Its first line, 1-based. */
  lineStart: number;
  /** Its last line, inclusive. */
  lineEnd: number;
}

/** The diagnostic codes a fitted passage earns. */
export function diagnosticCodes(fitted: FittedPassage): FitDiagnosticCode[] {
  const codes: FitDiagnosticCode[] = [];
  if (fitted.contextOmitted) codes.push("embedding_context_omitted");
  if (fitted.codePointSplit) codes.push("oversized_segment_split");
  return codes;
}

/**
 * One diagnostic per path and code, enclosing the lines of its chunks and
 * counting each chunk once, sorted by path then code (by code unit, so the
 * order does not depend on the locale).
 */
export function aggregateDiagnostics(notes: Iterable<FitNote>): FitDiagnostic[] {
  const groups = new Map<string, { diagnostic: FitDiagnostic; chunks: Set<string> }>();
  for (const note of notes) {
    const key = JSON.stringify([note.sourcePath, note.code]);
    const group = groups.get(key);
    if (!group) {
      const { code, sourcePath, lineStart, lineEnd } = note;
      const diagnostic = { code, sourcePath, lineStart, lineEnd, affectedChunks: 1 };
      groups.set(key, { diagnostic, chunks: new Set([note.chunkId]) });
      continue;
    }
    const d = group.diagnostic;
    d.lineStart = Math.min(d.lineStart, note.lineStart);
    d.lineEnd = Math.max(d.lineEnd, note.lineEnd);
    group.chunks.add(note.chunkId);
    d.affectedChunks = group.chunks.size;
  }
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...groups.values()].map((g) => g.diagnostic).sort((a, b) =>
    order(a.sourcePath, b.sourcePath) || order(a.code, b.code)
  );
}
