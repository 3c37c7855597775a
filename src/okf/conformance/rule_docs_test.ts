import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { RuleInfo } from "./finding.ts";
import { OKF_RULES } from "./okf_rules.ts";
import { headingAnchor, ruleDocsUri, RULES_DOCS } from "./rule_docs.ts";
import { WAYFINDER_RULES } from "./wayfinder_rules.ts";

const DOCS = readFileSync(
  fileURLToPath(new URL("../../../docs/rules.md", import.meta.url)),
  "utf8",
);
const flat = (text: string) => text.replace(/\s+/g, " ");

Deno.test("headingAnchor() gives the anchors GitHub gives headings", () => {
  assert.equal(headingAnchor("wayfinder/profile-unresolved"), "wayfinderprofile-unresolved");
  assert.equal(headingAnchor("5.5 Lifecycle: `stale_after`"), "55-lifecycle-stale_after");
  assert.equal(headingAnchor("OKF rules"), "okf-rules");
  assert.equal(ruleDocsUri("wayfinder/project-type"), `${RULES_DOCS}#wayfinderproject-type`);
});

Deno.test("docs/rules.md lists every OKF rule with its severity, summary and spec link", () => {
  const rows = DOCS.split("\n").filter((line) => line.startsWith("| `okf/"));
  assert.equal(rows.length, Object.keys(OKF_RULES).length);
  for (const [id, rule] of Object.entries<RuleInfo>(OKF_RULES)) {
    const row = rows.find((r) => r.startsWith(`| \`${id}\` `));
    assert.ok(row, id);
    const cells = row.split(" | ").map((c) => c.trim());
    assert.equal(cells[1], rule.severity, id);
    assert.equal(cells[2], rule.summary.replaceAll("|", "\\|"), id);
    assert.ok(cells[3]!.includes(`(${rule.helpUri})`), id);
  }
});

Deno.test("every wayfinder rule links to its own section of docs/rules.md, which explains it", () => {
  const sections = DOCS.split(/^### /m).slice(1);
  const anchors = sections.map((s) => headingAnchor(s.slice(0, s.indexOf("\n"))));
  for (const [id, rule] of Object.entries<RuleInfo>(WAYFINDER_RULES)) {
    assert.ok(rule.helpUri.startsWith(`${RULES_DOCS}#`), id);
    const at = anchors.indexOf(rule.helpUri.slice(RULES_DOCS.length + 1));
    assert.notEqual(at, -1, `${id}: no heading for ${rule.helpUri}`);
    assert.ok(flat(sections[at]!).includes(`${rule.severity}. ${flat(rule.summary)}.`), id);
  }
  assert.equal(sections.length, Object.keys(WAYFINDER_RULES).length);
});
