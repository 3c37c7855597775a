import assert from "node:assert/strict";
import { pathPrior } from "./path_signals.ts";

Deno.test("pathPrior() lowers tests, examples, stubs and prose unless the query asks for them", () => {
  assert.equal(pathPrior("router.go", "route a request"), 1);
  assert.equal(pathPrior("router_test.go", "route a request"), 0.3);
  assert.equal(pathPrior("tests/router.py", "route a request"), 0.3);
  assert.equal(pathPrior("src/RouterTests.swift", "route a request"), 0.3);
  assert.equal(pathPrior("router_test.go", "tests of routing"), 1);
  // Benchmarks exercise code as tests do, and define nothing a search wants.
  assert.equal(pathPrior("absl/status/statusor_benchmark.cc", "StatusOr errors"), 0.3);
  assert.equal(pathPrior("benches/parse.rs", "parse a header"), 0.3);
  assert.equal(pathPrior("src/JsonBenchmark.java", "parse json"), 0.3);
  assert.equal(pathPrior("src/benchmark.cc", "run a benchmark"), 1, "a benchmark library's core");
  assert.equal(pathPrior("benches/parse.rs", "parse benchmarks"), 1, "asked for");
  assert.equal(pathPrior("examples/basic/main.go", "route a request"), 0.3);
  assert.equal(pathPrior("types/index.d.ts", "route"), 0.7);
  assert.equal(pathPrior("docs/routing.md", "route a request"), 0.5);
  assert.equal(pathPrior("docs/routing.md", "routing docs"), 1);
  assert.equal(pathPrior("latest.go", "x"), 1, "no test in the middle of a word");
  assert.equal(pathPrior("docs/routing.md", "route a request", false), 1, "prose prior off");
  assert.equal(pathPrior("router_test.go", "route a request", false), 0.3);
  assert.equal(pathPrior("src/commands/set.json", "how SET handles NX"), 0.5, "data file");
  assert.equal(pathPrior("src/commands.def", "how SET handles NX"), 0.5, "generated table");
  assert.equal(pathPrior("package.json", "package dependencies"), 1, "asked for");
  assert.equal(pathPrior("config/app.yaml", "default configuration"), 1, "asked for");
});
