import assert from "node:assert/strict";
import { fileSimilarity } from "./file_similarity.ts";
import { chunk, makeIndex } from "./testdata/index.ts";

const close = (a: number | undefined, b: number) =>
  assert.ok(Math.abs(a! - b) < 1e-6, `${a} ≈ ${b}`);

Deno.test("fileSimilarity: the cosine of the query and the unit mean of a file's vectors", () => {
  const index = makeIndex(
    [chunk("a1", "a.ts"), chunk("b1", "b.ts"), chunk("a2", "a.ts")],
    [[1, 0], [0, 1], [0, 1]],
  );
  const similarity = fileSimilarity(index, new Float32Array([1, 0]));
  // a.ts: mean of (1,0) and (0,1) is (½,½), unit (√½,√½); its cosine with (1,0) is √½.
  close(similarity("a.ts"), Math.SQRT1_2);
  close(similarity("b.ts"), 0);
  assert.equal(similarity("missing.ts"), undefined);
  // The means are kept with the index: a second query reuses them.
  close(fileSimilarity(index, new Float32Array([0, 1]))("a.ts"), Math.SQRT1_2);
});

Deno.test("fileSimilarity: rows still to embed take no part; a file with none has no similarity", () => {
  const index = {
    ...makeIndex(
      [chunk("a1", "a.ts"), chunk("a2", "a.ts"), chunk("b1", "b.ts")],
      [[1, 0], [0, 1], [0, 1]],
    ),
    pending: [[1, 3]] as [number, number][],
  };
  const similarity = fileSimilarity(index, new Float32Array([1, 0]));
  close(similarity("a.ts"), 1);
  assert.equal(similarity("b.ts"), undefined);
});

Deno.test("fileSimilarity: reads paths from the path column when the index keeps one", () => {
  const base = makeIndex([chunk("x", "wrong.ts"), chunk("y", "wrong.ts")], [[1, 0], [0, 1]]);
  const index = {
    ...base,
    columns: {
      sourcePath: { values: ["a.ts", "b.ts"], ids: new Uint32Array([0, 1]) },
      type: { values: ["function"], ids: new Uint32Array([0, 0]) },
      language: { values: ["typescript"], ids: new Uint32Array([0, 0]) },
    },
  };
  const similarity = fileSimilarity(index, new Float32Array([0, 1]));
  close(similarity("b.ts"), 1);
  assert.equal(similarity("wrong.ts"), undefined);
});
