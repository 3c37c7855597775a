import assert from "node:assert/strict";
import { z } from "zod";
import { argumentProblem } from "./tool_arguments.ts";

const SHAPE = {
  query: z.string(),
  limit: z.number().int().min(1).optional(),
  mode: z.enum(["dense", "lexical"]).optional(),
  path: z.array(z.string()).optional(),
  governing: z.record(z.string()).optional(),
  asOf: z.string().min(1).optional(),
  expand: z.boolean().optional(),
};

Deno.test("argumentProblem() names the argument and what it takes, on one line", () => {
  const problem = (args: unknown) => argumentProblem("search", SHAPE, args);
  assert.equal(
    problem({ query: "q", limit: "abc" }),
    `wayfinder: search: limit must be a whole number ≥ 1, not "abc"`,
  );
  assert.equal(
    problem({ query: "q", limit: 0 }),
    "wayfinder: search: limit must be a whole number ≥ 1, not 0",
  );
  assert.equal(problem({}), "wayfinder: search needs query: a string");
  assert.equal(problem(undefined), "wayfinder: search needs query: a string");
  assert.equal(
    problem({ query: "q", mode: "fuzzy" }),
    `wayfinder: search: mode must be one of dense, lexical, not "fuzzy"`,
  );
  assert.equal(
    problem({ query: "q", path: [1] }),
    "wayfinder: search: path must be a list, each a string, not [1]",
  );
  assert.equal(
    problem({ query: "q", governing: { a: 1 } }),
    `wayfinder: search: governing must be an object, each value a string, not {"a":1}`,
  );
  assert.equal(
    problem({ query: "q", asOf: "" }),
    `wayfinder: search: asOf must be a non-empty string, not ""`,
  );
  assert.equal(
    problem({ query: "q", expand: null }),
    "wayfinder: search: expand must be true or false, not null",
  );
  assert.equal(
    problem({ query: "q", bogus: 1 }),
    "wayfinder: search has no argument 'bogus'; it takes query, limit, mode, path, governing, asOf, expand",
  );
  assert.equal(problem([1]), "wayfinder: search takes its arguments as an object, not [1]");
  // Several problems: the first, in the order the tool lists its arguments.
  assert.equal(
    problem({ query: 5, limit: "x", bogus: 1 }),
    "wayfinder: search: query must be a string, not 5",
  );
  assert.equal(problem({ query: "q", limit: 3, mode: "dense", path: ["*.ts"] }), null);
});

Deno.test("argumentProblem() keeps what it quotes short and free of control characters", () => {
  const long = argumentProblem("search", SHAPE, { query: "q", limit: "x".repeat(500) })!;
  assert.ok(long.length < 120, long);
  assert.match(long, /\.\.\.$/);
  const hostile = argumentProblem("search", SHAPE, { query: "q", "a\x1b[2J": 1 })!;
  assert.ok(!hostile.includes("\x1b"), hostile);
  assert.equal(hostile.split("\n").length, 1);
});
