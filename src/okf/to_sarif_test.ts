import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { dirname } from "node:path";
import { toSarif, validateBundle } from "./mod.ts";

const INVALID = fileURLToPath(new URL("../../fixtures/okf/invalid", import.meta.url));

// deno-lint-ignore no-explicit-any
type Json = any;

Deno.test("toSarif() writes SARIF 2.1.0 with rules that carry helpUri and repo-relative locations", async () => {
  const report = await validateBundle(INVALID);
  const sarif: Json = toSarif(report, {
    repoRoot: dirname(dirname(INVALID)),
    toolVersion: "1.2.3",
  });
  assert.equal(sarif.version, "2.1.0");
  const run = sarif.runs[0];
  assert.equal(run.tool.driver.name, "wayfinder");
  assert.equal(run.results.length, report.findings.length);
  for (const rule of run.tool.driver.rules) assert.match(rule.helpUri, /^https:\/\//, rule.id);
  const result = run.results.find((r: Json) => r.ruleId === "okf/missing-type");
  assert.equal(run.tool.driver.rules[result.ruleIndex].id, "okf/missing-type");
  assert.equal(result.level, "error");
  assert.deepEqual(result.locations[0].physicalLocation, {
    artifactLocation: { uri: "okf/invalid/blank-type.md" },
    region: { startLine: 3, startColumn: 1 },
  });
  const levels = new Set(run.results.map((r: Json) => r.level));
  assert.deepEqual([...levels].sort(), ["error", "note", "warning"]);
});
