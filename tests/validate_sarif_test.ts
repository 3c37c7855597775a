/**
 * `validate --output sarif` checked as a user's CI would before uploading it
 * to GitHub code scanning: with Microsoft's SARIF Multitool and the rules of
 * GitHub's ingestion (`validate --rule-kind Gh;Sarif`).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { copyTree, REPO, wayfinder } from "./_run.ts";
import { MULTITOOL, sarifMultitool, validateSarif } from "./_sarif_multitool.ts";

const OKF = join(REPO, "fixtures", "okf");
const tool = await sarifMultitool();
const skip = "reason" in tool ? tool.reason : null;
const path = "path" in tool ? tool.path : "";
if (skip) console.error(`validate_sarif_test: skipping the ${MULTITOOL} check: ${skip}`);

Deno.test({
  name:
    `the SARIF of a broken bundle and of an unfetched Profile passes GitHub's rules in ${MULTITOOL}` +
    (skip ? ` (skipped: ${skip})` : ""),
  ignore: skip !== null,
  async fn() {
    const data = await Deno.makeTempDir({ prefix: "wayfinder-data-" });
    const env = { WAYFINDER_DATA_DIR: data, PATH: Deno.env.get("PATH") ?? "" };
    const broken = await wayfinder(["validate", join(OKF, "invalid"), "--output", "sarif"], env);
    assert.equal(broken.code, 1, broken.stderr);
    // A bound Profile not fetched yet: a wayfinder/* finding on wayfinder.json.
    const project = await copyTree(join(OKF, "peer", "examples", "bitwild"));
    const unfetched = await wayfinder(
      ["validate", join(project, "knowledge"), "--output", "sarif"],
      env,
    );
    assert.equal(unfetched.code, 1, unfetched.stderr);
    assert.match(unfetched.stdout, /"ruleId": "wayfinder\/profile-unresolved"/);
    // The broken bundle's run without what GitHub asks for: proof the check can fail.
    const [log, second, stripped] = [broken, unfetched, broken].map((r) => JSON.parse(r.stdout));
    delete stripped.runs[0].tool.driver.informationUri;
    for (const rule of stripped.runs[0].tool.driver.rules) delete rule.fullDescription;
    log.runs.push(second.runs[0], stripped.runs[0]);
    const problems = await validateSarif(path, log);
    const of = (run: number) => problems.filter((p) => p.run === run).map((p) => p.rule);
    assert.deepEqual(of(0), [], "the broken bundle's SARIF");
    assert.deepEqual(of(1), [], "the unfetched Profile's SARIF");
    const rules = stripped.runs[0].tool.driver.rules.length;
    assert.deepEqual(of(2), [...Array(rules).fill("GH2012"), "SARIF2005"]);
    assert.equal(problems.length, rules + 1, JSON.stringify(problems, null, 2));
  },
});
