import assert from "node:assert/strict";
import type { Chunk } from "../types.ts";
import { pathPrior, queriedIdentifiers, rankCode } from "./code_ranking.ts";

function chunk(sourcePath: string, content = "", symbol?: string): Chunk {
  return {
    id: `${sourcePath}:${content}`,
    sourcePath,
    lineStart: 1,
    lineEnd: 1,
    startOffset: 0,
    endOffset: 0,
    type: "function",
    language: "go",
    content,
    symbol,
    metadata: {},
  };
}

/** Ranks chunks given with their retrieval scores; returns their paths:contents best first. */
function ranked(rows: [Chunk, number][], query: string, steps = {}): string[] {
  const out = rankCode(
    rows.map(([, score], row) => ({ row, score })),
    (row) => rows[row]![0],
    query,
    steps,
  );
  return out.map(({ row }) =>
    `${rows[row]![0].sourcePath}${rows[row]![0].content ? `:${rows[row]![0].content}` : ""}`
  );
}

const ONLY = (step: string) =>
  Object.fromEntries(
    ["pathPriors", "fileCoherence", "definitions", "fileSaturation"].map((s) => [s, s === step]),
  );

Deno.test("pathPrior() lowers tests, examples, stubs and prose unless the query asks for them", () => {
  assert.equal(pathPrior("router.go", "route a request"), 1);
  assert.equal(pathPrior("router_test.go", "route a request"), 0.3);
  assert.equal(pathPrior("tests/router.py", "route a request"), 0.3);
  assert.equal(pathPrior("src/RouterTests.swift", "route a request"), 0.3);
  assert.equal(pathPrior("router_test.go", "tests of routing"), 1);
  assert.equal(pathPrior("examples/basic/main.go", "route a request"), 0.3);
  assert.equal(pathPrior("types/index.d.ts", "route"), 0.7);
  assert.equal(pathPrior("docs/routing.md", "route a request"), 0.5);
  assert.equal(pathPrior("docs/routing.md", "routing docs"), 1);
  assert.equal(pathPrior("latest.go", "x"), 1, "no test in the middle of a word");
});

Deno.test("queriedIdentifiers() tells a bare or qualified name from identifiers inside a sentence", () => {
  assert.deepEqual(queriedIdentifiers("Mux"), { names: ["Mux"], whole: true });
  assert.deepEqual(queriedIdentifiers("field_validator"), {
    names: ["field_validator"],
    whole: true,
  });
  assert.deepEqual(queriedIdentifiers("Sinatra::Base"), {
    names: ["Base", "Sinatra::Base"],
    whole: true,
  });
  assert.deepEqual(queriedIdentifiers("response"), { names: [], whole: false });
  assert.deepEqual(queriedIdentifiers("how safeParse reports a ZodError"), {
    names: ["safeParse", "ZodError"],
    whole: false,
  });
});

Deno.test("rankCode() puts a test below the code it tests, and keeps the order without priors", () => {
  const rows: [Chunk, number][] = [[chunk("mux_test.go"), 10], [chunk("mux.go"), 8]];
  assert.deepEqual(ranked(rows, "route", ONLY("pathPriors")), ["mux.go", "mux_test.go"]);
  assert.deepEqual(ranked(rows, "route", ONLY("none")), ["mux_test.go", "mux.go"]);
});

Deno.test("rankCode() lifts the chunk that defines the queried name, most in the file named after it", () => {
  const rows: [Chunk, number][] = [
    [chunk("server.go", "m := NewMux()"), 10],
    [chunk("tree.go", "type Mux struct {"), 5],
    [chunk("mux.go", "type Mux struct {"), 5],
  ];
  assert.deepEqual(ranked(rows, "Mux", ONLY("definitions")), [
    "mux.go:type Mux struct {",
    "tree.go:type Mux struct {",
    "server.go:m := NewMux()",
  ]);
  // A sentence without an identifier boosts nothing.
  assert.deepEqual(ranked(rows, "the mux", ONLY("definitions"))[0], "server.go:m := NewMux()");
});

Deno.test("rankCode() lifts a file with several strong chunks, and spreads ranks over files", () => {
  const rows: [Chunk, number][] = [
    [chunk("a.go", "1"), 10],
    [chunk("b.go", "1"), 9.5],
    [chunk("b.go", "2"), 9],
    [chunk("a.go", "2"), 8],
    [chunk("c.go", "1"), 7],
  ];
  // Coherence: b.go's three chunks (sum 27.5) lift its best, 9.5 + .2 × 10 = 11.5, over
  // a.go's lone 10 + .2 × 10 × 10 / 27.5 = 10.73.
  const spread: [Chunk, number][] = [
    [chunk("a.go", "1"), 10],
    [chunk("b.go", "1"), 9.5],
    [chunk("b.go", "2"), 9.5],
    [chunk("b.go", "3"), 8.5],
  ];
  assert.equal(ranked(spread, "x", ONLY("fileCoherence"))[0], "b.go:1");
  assert.equal(ranked(spread, "x", ONLY("none"))[0], "a.go:1");
  // Saturation: the second chunk of a.go (8 × .5) falls below c.go (7).
  assert.deepEqual(ranked(rows, "x", ONLY("fileSaturation")), [
    "a.go:1",
    "b.go:1",
    "c.go:1",
    "b.go:2",
    "a.go:2",
  ]);
});
