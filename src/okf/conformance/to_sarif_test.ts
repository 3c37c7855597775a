import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { dirname } from "node:path";
import { finding } from "./finding.ts";
import { type RuleInfo, toSarif, validateBundle } from "./mod.ts";
import { PROJECT_URL, ruleDocsUri } from "./rule_docs.ts";
import { wayfinderFinding } from "./wayfinder_rules.ts";

const INVALID = fileURLToPath(new URL("../../../fixtures/okf/invalid", import.meta.url));

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
  assert.equal(run.tool.driver.informationUri, PROJECT_URL);
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

Deno.test("toSarif() describes Profile rules from their descriptions and links wayfinder rules", async () => {
  const report = await validateBundle(INVALID);
  const helpUri = "https://example.test/profile/README.md#title-without-period";
  report.findings = [
    finding(
      "acme/title-without-period",
      "error",
      "Title Restart. ends with a period.",
      "a.md",
      2,
      1,
      helpUri,
    ),
    wayfinderFinding(
      "wayfinder/project-type",
      "Project type 'X' is declared…",
      "../wayfinder.json",
    ),
  ];
  const rules = new Map<string, RuleInfo>([["acme/title-without-period", {
    severity: "error",
    summary: "A concept title MUST NOT end with a period.",
    helpUri,
  }]]);
  const sarif: Json = toSarif(report, { repoRoot: dirname(INVALID), toolVersion: "1", rules });
  const rule = (id: string) => sarif.runs[0].tool.driver.rules.find((r: Json) => r.id === id);
  assert.deepEqual(rule("acme/title-without-period").shortDescription, {
    text: "A concept title MUST NOT end with a period.",
  });
  assert.equal(
    rule("acme/title-without-period").help.text,
    `A concept title MUST NOT end with a period. See ${helpUri}`,
  );
  assert.equal(rule("wayfinder/project-type").helpUri, ruleDocsUri("wayfinder/project-type"));
  assert.equal(report.findings[1]!.helpUri, ruleDocsUri("wayfinder/project-type"));
  for (const r of sarif.runs[0].tool.driver.rules) {
    assert.match(r.helpUri, /^https:\/\//, r.id);
    assert.doesNotMatch(r.help.text, /\.\./, r.id);
    assert.match(r.help.text, /[^.]\. See https:\/\//, r.id);
  }
});

Deno.test("toSarif() gives every rule the name and full description GitHub code scanning asks for", async () => {
  const report = await validateBundle(INVALID);
  const sarif: Json = toSarif(report, { repoRoot: dirname(INVALID), toolVersion: "1" });
  const rule = (id: string) => sarif.runs[0].tool.driver.rules.find((r: Json) => r.id === id);
  assert.equal(rule("okf/missing-type").name, "MissingType");
  assert.equal(rule("okf/invalid-utf8").name, "InvalidUtf8");
  assert.equal(
    rule("okf/missing-type").fullDescription.text,
    "A concept's front matter has no non-empty string `type`. " +
      "Severity error: while one stands, the gate is FAIL.",
  );
  assert.match(rule("okf/broken-link").fullDescription.text, /\. Severity note: .*never fails/);
  for (const r of sarif.runs[0].tool.driver.rules) {
    assert.match(r.name, /^[A-Z][A-Za-z0-9]*$/, r.id);
    assert.ok(r.fullDescription.text.startsWith(r.shortDescription.text), r.id);
  }
});

Deno.test("toSarif() gives a file outside the repository root an absolute file URI, never ../", async () => {
  const top = await Deno.makeTempDir();
  const report = await validateBundle(INVALID);
  report.bundle = `${top}/x/y/kb`;
  report.findings = [
    wayfinderFinding("wayfinder/project-type", "Project type 'X' …", "../../../wayfinder.json"),
    finding("okf/missing-type", "error", "No type", "a b.md", 1, 1),
  ];
  const sarif: Json = toSarif(report, { repoRoot: `${top}/x/y`, toolVersion: "1" });
  const uris = sarif.runs[0].results.map((r: Json) => r.locations[0].physicalLocation);
  assert.deepEqual(uris.map((l: Json) => l.artifactLocation.uri), [
    `file://${top}/wayfinder.json`,
    "kb/a%20b.md",
  ]);
});
