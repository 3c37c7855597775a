import { deepEqual, equal } from "node:assert/strict";
import type { Chunk, RowColumn } from "../types.ts";
import { keptRows, type SearchFilter } from "./match_filter.ts";
import { chunk } from "./testdata/index.ts";

/** A dictionary column over `chunks`' values of `key`. */
function column(chunks: Chunk[], key: "sourcePath" | "type" | "language"): RowColumn {
  const values = [...new Set(chunks.map((c) => c[key]))];
  return { values, ids: Uint32Array.from(chunks, (c) => values.indexOf(c[key])) };
}

Deno.test("keptRows() agrees with and without columns, and runs accept only on what they keep", () => {
  const chunks = [
    chunk("a", "src/auth/login.ts"),
    chunk("b", "docs/guide.md", "heading", "markdown"),
    chunk("c", "src/auth/user.ts", "class"),
    chunk("d", "lib/auth.dart", "method", "dart"),
    chunk("e", "src/authz.ts"),
  ];
  const columns = {
    sourcePath: column(chunks, "sourcePath"),
    type: column(chunks, "type"),
    language: column(chunks, "language"),
  };
  const filters: SearchFilter[] = [
    { paths: ["src/auth"] },
    { paths: ["*.md", "lib/**"] },
    { types: ["class", "method"], languages: ["dart"] },
    { paths: ["src/**"], accept: (c) => c.id !== "a" },
    { paths: ["nowhere"] },
    {},
  ];
  for (const filter of filters) {
    const plain = keptRows({ chunks }, filter);
    let accepted = 0;
    const counted = filter.accept &&
      { ...filter, accept: (c: Chunk) => (accepted++, filter.accept!(c)) };
    deepEqual(keptRows({ chunks, columns }, counted || filter), plain, JSON.stringify(filter));
    if (counted) equal(accepted, 3, "accept sees only the rows under src/");
  }
  deepEqual([...keptRows({ chunks, columns }, { paths: ["src/auth"] })], [1, 0, 1, 0, 0]);
});
