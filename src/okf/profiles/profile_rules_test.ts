import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { OKF_FRONTMATTER_KEYS, type ProfileRule, readProfilePackage, runRuleTests } from "./mod.ts";

const PEER = fileURLToPath(new URL("../../../fixtures/okf/peer/", import.meta.url));
const PACKAGES = [
  "profiles/bitwild",
  "examples/profiles/two-rule",
  "examples/profiles/two-rule-child",
];
const BASE_SLOTS = { "okf.frontmatterKeys": OKF_FRONTMATTER_KEYS };

Deno.test("every Profile rule's own tests.valid pass and tests.invalid fail", () => {
  let tested = 0;
  for (const path of PACKAGES) {
    const pkg = readProfilePackage(PEER + path);
    for (const rule of pkg.rules) {
      assert.deepEqual(runRuleTests(rule, pkg.defs, BASE_SLOTS), [], `${pkg.id}/${rule.id}`);
      if (rule.tests) tested++;
    }
  }
  // Bitwild ships 24 rules with tests, the two small packages 1 and 2.
  assert.equal(tested, 27);
});

Deno.test("runRuleTests() reports an example that contradicts its rule", () => {
  const pkg = readProfilePackage(PEER + "examples/profiles/two-rule");
  const rule: ProfileRule = structuredClone(pkg.rules.find((r) => r.id === "known-type")!);
  rule.tests = {
    slots: { "profile.types": ["Runbook"] },
    valid: [{ type: "Memo" }],
    invalid: [{ type: "Runbook" }],
  };
  assert.deepEqual(runRuleTests(rule, pkg.defs, BASE_SLOTS), [
    'known-type: valid example failed: {"type":"Memo"}',
    'known-type: invalid example passed: {"type":"Runbook"}',
  ]);
});

Deno.test("readProfilePackage() refuses a package whose skill folder climbs out of it", async () => {
  const dir = await Deno.makeTempDir();
  const pkg = { format: 2, id: "p", release: "1", skill: "../../elsewhere", rules: [] };
  await Deno.writeTextFile(`${dir}/wayfinder-profile.json`, JSON.stringify(pkg));
  assert.throws(() => readProfilePackage(dir), /'skill' must be a folder inside the package/);
  await Deno.writeTextFile(
    `${dir}/wayfinder-profile.json`,
    JSON.stringify({ ...pkg, skill: "skill", format: 1 }),
  );
  assert.throws(() => readProfilePackage(dir), /'format' must be 2, not 1/);
});
