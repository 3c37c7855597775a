import assert from "node:assert/strict";
import { aggregateDiagnostics, diagnosticCodes, type FitNote } from "./fit_diagnostics.ts";

function note(
  sourcePath: string,
  code: FitNote["code"],
  chunkId: string,
  lines: [number, number],
): FitNote {
  return { code, sourcePath, chunkId, lineStart: lines[0], lineEnd: lines[1] };
}

Deno.test("aggregateDiagnostics() gives one diagnostic per path and code, enclosing its chunks' lines", () => {
  const diagnostics = aggregateDiagnostics([
    note("b.md", "oversized_segment_split", "b1", [40, 42]),
    note("b.md", "oversized_segment_split", "b2", [3, 9]),
    note("b.md", "embedding_context_omitted", "b2", [3, 9]),
  ]);
  assert.deepEqual(diagnostics, [
    {
      code: "embedding_context_omitted",
      sourcePath: "b.md",
      lineStart: 3,
      lineEnd: 9,
      affectedChunks: 1,
    },
    {
      code: "oversized_segment_split",
      sourcePath: "b.md",
      lineStart: 3,
      lineEnd: 42,
      affectedChunks: 2,
    },
  ]);
});

Deno.test("aggregateDiagnostics() counts each chunk once per code", () => {
  const [diagnostic] = aggregateDiagnostics([
    note("a.txt", "oversized_segment_split", "same", [1, 1]),
    note("a.txt", "oversized_segment_split", "same", [1, 1]),
  ]);
  assert.equal(diagnostic!.affectedChunks, 1);
});

Deno.test("aggregateDiagnostics() sorts by path, then code, by code unit", () => {
  const diagnostics = aggregateDiagnostics([
    note("src/z.ts", "embedding_context_omitted", "1", [1, 1]),
    note("b.md", "oversized_segment_split", "2", [1, 1]),
    note("B.md", "oversized_segment_split", "3", [1, 1]),
    note("b.md", "embedding_context_omitted", "4", [1, 1]),
  ]);
  assert.deepEqual(diagnostics.map((d) => `${d.sourcePath} ${d.code}`), [
    "B.md oversized_segment_split",
    "b.md embedding_context_omitted",
    "b.md oversized_segment_split",
    "src/z.ts embedding_context_omitted",
  ]);
});

Deno.test("diagnosticCodes() is silent for ordinary cuts", () => {
  const fitted = { fits: true, fragments: [], contextOmitted: false, codePointSplit: false };
  assert.deepEqual(diagnosticCodes(fitted), []);
  assert.deepEqual(
    diagnosticCodes({ ...fitted, contextOmitted: true, codePointSplit: true }),
    ["embedding_context_omitted", "oversized_segment_split"],
  );
});
