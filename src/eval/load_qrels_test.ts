import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { WayfinderError } from "../error.ts";
import { loadGroups } from "./load_groups.ts";
import { parseQrels } from "./load_qrels.ts";
import { loadQueries } from "./load_queries.ts";
import { parseSpanQrels } from "./load_span_qrels.ts";
import { readJson } from "./read_json.ts";
import { validateEvalInput } from "./validate_eval_input.ts";

/** The peer's judged queries and baseline, vendored (see fixtures/ATTRIBUTION.md). */
const PEER = fileURLToPath(new URL("../../fixtures/eval", import.meta.url));

async function write(name: string, data: unknown): Promise<string> {
  const path = join(await Deno.makeTempDir(), name);
  await Deno.writeTextFile(path, typeof data === "string" ? data : JSON.stringify(data));
  return path;
}

function inputError(pattern: RegExp) {
  return (e: unknown) =>
    e instanceof WayfinderError && e.code === "input" && pattern.test(e.message);
}

/** Reads a judgments file the way `loadJudgments` does, for one shape. */
const loadQrels = async (path: string) => parseQrels(await readJson(path, "qrels"), path);
const loadSpanQrels = async (path: string) => parseSpanQrels(await readJson(path, "qrels"), path);

Deno.test("parseQrels() reads grades and rejects bad ones", async () => {
  assert.deepEqual(await loadQrels(await write("r.json", { q1: { a: 3, b: 0 } })), {
    q1: { a: 3, b: 0 },
  });
  await assert.rejects(
    loadQrels(await write("r.json", { q1: { a: -1 } })),
    inputError(/grade of q1\/a must be a number ≥ 0, got -1/),
  );
  await assert.rejects(
    loadQrels(await write("r.json", { q1: { a: "3" } })),
    inputError(/grade of q1\/a/),
  );
  await assert.rejects(
    loadQrels(await write("r.json", { q1: [] })),
    inputError(/'q1' must be an object/),
  );
  await assert.rejects(
    loadQrels(await write("broken.json", "{")),
    inputError(/'.*broken\.json' is not JSON/),
  );
});

Deno.test("parseSpanQrels() reads spans, with or without lines", async () => {
  const path = await write("s.json", {
    q1: [{ path: "./lib/a.dart", lineStart: 3, lineEnd: 9, type: "method", grade: 2 }, {
      path: "docs/b.md",
      grade: 1,
    }],
  });
  assert.deepEqual(await loadSpanQrels(path), {
    q1: [
      { path: "lib/a.dart", lineStart: 3, lineEnd: 9, type: "method", grade: 2 },
      { path: "docs/b.md", grade: 1 },
    ],
  });
  await assert.rejects(
    loadSpanQrels(
      await write("s.json", { q1: [{ path: "a", lineStart: 9, lineEnd: 3, grade: 1 }] }),
    ),
    inputError(/q1\[0\] ends \(line 3\) before it starts \(line 9\)/),
  );
  await assert.rejects(
    loadSpanQrels(await write("s.json", { q1: [{ path: "a", grade: -2 }] })),
    inputError(/grade of q1\[0\]/),
  );
  await assert.rejects(
    loadSpanQrels(await write("s.json", { q1: [{ grade: 1 }] })),
    inputError(/no path/),
  );
});

Deno.test("loadGroups() reads groups and rejects non-strings", async () => {
  assert.deepEqual(await loadGroups(await write("g.json", { q1: "dart" })), { q1: "dart" });
  await assert.rejects(loadGroups(await write("g.json", { q1: 3 })), inputError(/group of 'q1'/));
});

Deno.test("validateEvalInput() names queries and judgments that do not pair up", () => {
  const queries = { q1: "a", q7: "b", q9: "c" };
  assert.throws(
    () => validateEvalInput(queries, { q1: { x: 1 } }),
    inputError(/^Cannot evaluate: queries without judgments: q7, q9$/),
  );
  assert.throws(
    () => validateEvalInput({ q1: "a" }, { q1: { x: 1 }, q2: { y: 1 } }),
    inputError(/judgments for unknown queries: q2/),
  );
  const judged = { q1: { x: 1 }, q7: { x: 1 }, q9: {} };
  assert.throws(
    () => validateEvalInput(queries, judged, { q1: "dart" }),
    inputError(/queries without a group: q7, q9/),
  );
  validateEvalInput(queries, judged, { q1: "dart", q7: "dart", q9: "markdown" });
  const many = Object.fromEntries(Array.from({ length: 13 }, (_, i) => [`q${i}`, "x"]));
  assert.throws(() => validateEvalInput(many, {}), inputError(/q9 and 3 more$/));
});

Deno.test("the peer's queries, qrels, span qrels and groups parse and validate", async () => {
  const queries = await loadQueries(`${PEER}/retrieval_queries.json`);
  const qrels = await loadQrels(`${PEER}/retrieval_qrels.json`);
  const spans = await loadSpanQrels(`${PEER}/span_qrels.json`);
  const groups = await loadGroups(`${PEER}/retrieval_query_groups.json`);
  assert.equal(Object.keys(queries).length, 65);
  assert.equal(queries.q001, "encrypt sensitive data");
  assert.equal(qrels.q001["10d7fcf3aee5548191f69036d9dfd543ba5c7cb5"], 3);
  assert.deepEqual(spans.q001[0], {
    path: "services/data_encryption_service.dart",
    lineStart: 17,
    lineEnd: 30,
    type: "method",
    grade: 3,
  });
  assert.deepEqual([...new Set(Object.values(groups))].sort(), ["dart", "markdown", "typescript"]);
  validateEvalInput(queries, qrels, groups);
  validateEvalInput(queries, spans, groups);
});
