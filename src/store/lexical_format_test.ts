import { deepEqual, equal, throws } from "node:assert/strict";
import {
  decodeLexical,
  encodeLexical,
  type LexicalData,
  PostingsWriter,
  readPostings,
} from "./lexical_format.ts";

function postingsOf(data: LexicalData, term: number, field: number): [number, number][] {
  // A posting takes at least one byte.
  const size = data.starts[term * 3 + field + 1]! - data.starts[term * 3 + field]!;
  const rows = new Uint32Array(size);
  const counts = new Uint32Array(size);
  const n = readPostings(data, term, field, rows, counts);
  return Array.from({ length: n }, (_, i) => [rows[i]!, counts[i]!]);
}

const NONE = { values: [], ids: new Uint32Array(0) };
// Gaps and counts across every varint length: 1 to 5 bytes.
const WIDE: [number, number][] = [[0, 1], [1, 2], [130, 3], [20_000, 70_000], [2 ** 22, 1], [
  2 ** 29 + 1,
  2 ** 31,
]];

Deno.test("encodeLexical() and decodeLexical() round-trip postings, lengths, terms and columns", () => {
  const single = new PostingsWriter();
  single.add(7, 1);
  const bytes = encodeLexical({
    rows: 3,
    lengths: Uint32Array.from([5, 0, 9, 1, 1, 1, 2, 2, 3]),
    // Term 0 only in field 1, term 1 in fields 0 and 2.
    terms: ["alpha", "ünïcode"],
    postings: [undefined, single, undefined, single, undefined, single],
    columns: {
      // One empty string must not read back as no strings at all.
      type: { values: [""], ids: Uint32Array.from([0, 0, 0]) },
      language: { values: ["dart", "typescript"], ids: Uint32Array.from([1, 0, 1]) },
      sourcePath: { values: ["a b/c.ts", "d.ts", "ë.md"], ids: Uint32Array.from([2, 1, 0]) },
    },
  });
  // Row 7 of 3 is out of range: rows are checked per posting, not here.
  const data = decodeLexical(bytes);
  equal(data.rows, 3);
  deepEqual([...data.lengths], [5, 0, 9, 1, 1, 1, 2, 2, 3]);
  deepEqual(data.terms, ["alpha", "ünïcode"]);
  deepEqual(data.columns.type.values, [""]);
  deepEqual(data.columns.language.values, ["dart", "typescript"]);
  deepEqual([...data.columns.sourcePath.ids], [2, 1, 0]);
  deepEqual(postingsOf(data, 0, 0), []);
  throws(() => postingsOf(data, 0, 1), /a posting names row 7 of 3/);
});

Deno.test("PostingsWriter and readPostings agree on gaps and counts of every varint length", () => {
  const wide = new PostingsWriter();
  for (const [row, count] of WIDE) wide.add(row, count);
  const data = decodeLexical(encodeLexical({
    rows: 0,
    lengths: new Uint32Array(0),
    terms: [],
    postings: [],
    columns: { type: NONE, language: NONE, sourcePath: NONE },
  }));
  // Only the postings and their bounds matter here; a real file of 2^29 rows would take gigabytes.
  const big = {
    ...data,
    rows: 2 ** 30,
    starts: Uint32Array.from([0, wide.length]),
    postings: wide.bytes,
  };
  deepEqual(postingsOf(big, 0, 0), WIDE);
});

Deno.test("decodeLexical() round-trips an empty index", () => {
  const data = decodeLexical(encodeLexical({
    rows: 0,
    lengths: new Uint32Array(0),
    terms: [],
    postings: [],
    columns: { type: NONE, language: NONE, sourcePath: NONE },
  }));
  equal(data.rows, 0);
  deepEqual(data.terms, []);
  deepEqual(data.columns.sourcePath.values, []);
});

Deno.test("decodeLexical() refuses a column id past its dictionary", () => {
  const one = (value: string, id: number) => ({ values: [value], ids: Uint32Array.from([id]) });
  const bytes = encodeLexical({
    rows: 1,
    lengths: new Uint32Array(3),
    terms: [],
    postings: [],
    columns: { type: one("t", 0), language: one("l", 1), sourcePath: one("p", 0) },
  });
  throws(() => decodeLexical(bytes), /its language column is damaged/);
});

Deno.test("decodeLexical() reads a file that is not 4-byte aligned in memory", () => {
  const postings = new PostingsWriter();
  postings.add(1, 3);
  const bytes = encodeLexical({
    rows: 2,
    lengths: Uint32Array.from([4, 3, 0, 1, 2, 2]),
    terms: ["gamma"],
    postings: [postings, undefined, undefined],
    columns: {
      type: { values: ["t"], ids: Uint32Array.from([0, 0]) },
      language: { values: ["l", "m"], ids: Uint32Array.from([1, 0]) },
      sourcePath: { values: ["p"], ids: Uint32Array.from([0, 0]) },
    },
  });
  const shifted = new Uint8Array(bytes.length + 1);
  shifted.set(bytes, 1);
  const data = decodeLexical(shifted.subarray(1));
  deepEqual([...data.lengths], [4, 3, 0, 1, 2, 2]);
  deepEqual([...data.columns.language.ids], [1, 0]);
  deepEqual(postingsOf(data, 0, 0), [[1, 3]]);
  deepEqual(data, decodeLexical(bytes));
});
