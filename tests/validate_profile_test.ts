import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { childProfileProject, exampleProject, gitRepo, profileRepo } from "./_profile_repo.ts";
import { wayfinder } from "./_run.ts";
import { dataEnv } from "./_env.ts";

const repo = await profileRepo();
const env = { ...(await dataEnv()), PATH: Deno.env.get("PATH") ?? "" };

interface JsonFinding {
  id: string;
  severity: string;
  location: { path: string; line: number };
  helpUri?: string;
}

async function validateJson(bundle: string) {
  const run = await wayfinder(["validate", bundle, "--output", "json"], env);
  return { code: run.code, stderr: run.stderr, report: JSON.parse(run.stdout || "{}") };
}

const ids = (findings: JsonFinding[]) => findings.map((f) => `${f.severity} ${f.id}`);

Deno.test("bitwild: INCOMPLETE before get, PASS with two notes after get, as the peer's README says", async () => {
  const project = await exampleProject("bitwild", repo.dir);
  const bundle = join(project, "knowledge");
  const before = await validateJson(bundle);
  assert.equal(before.code, 1, before.stderr);
  assert.equal(before.report.gate, "INCOMPLETE");
  assert.deepEqual(ids(before.report.findings), ["advisory wayfinder/profile-unresolved"]);
  assert.equal((await wayfinder(["get", project], env)).code, 0);
  const after = await validateJson(bundle);
  assert.equal(after.code, 0, after.stderr);
  assert.equal(after.report.gate, "PASS");
  assert.deepEqual(ids(after.report.findings), [
    "note wayfinder/project-type",
    "note bitwild-profile/relationship-unresolved",
  ]);
  assert.equal(after.report.findings[0].location.path, "../wayfinder.json");
  assert.deepEqual(after.report.profiles[0].packages, [{
    id: "bitwild-profile",
    release: "2026.3",
  }]);
});

Deno.test("validate reads only the lock and the cache: it passes with the git source gone", async () => {
  const source = await profileRepo();
  const project = await exampleProject("acme-notes", source.dir);
  assert.equal((await wayfinder(["get", project], env)).code, 0);
  await Deno.remove(source.dir, { recursive: true });
  const run = await wayfinder(["validate", join(project, "knowledge")], env);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^Profile acme-notes: acme-notes 1\.0 @ [0-9a-f]{12} applied\nPASS: /m);
});

Deno.test("a stale lock or an empty cache leaves the gate INCOMPLETE with the reason", async () => {
  const project = await exampleProject("acme-notes", repo.dir);
  assert.equal((await wayfinder(["get", project], env)).code, 0);
  const lockFile = join(project, "wayfinder.lock");
  const lock = JSON.parse(readFileSync(lockFile, "utf8"));
  writeFileSync(lockFile, JSON.stringify({ ...lock, configuration_sha256: "0".repeat(64) }));
  const stale = await validateJson(join(project, "knowledge"));
  assert.equal(stale.code, 1);
  assert.equal(stale.report.gate, "INCOMPLETE");
  assert.match(stale.report.findings[0].message, /wayfinder\.lock is stale: .*run 'wayfinder get /);
  writeFileSync(lockFile, JSON.stringify(lock));
  const emptyCache = await wayfinder(["validate", join(project, "knowledge"), "--output", "json"], {
    ...env,
    ...(await dataEnv()),
  });
  assert.equal(JSON.parse(emptyCache.stdout).gate, "INCOMPLETE");
  const gutted = { ...lock, profiles: { "acme-notes": { source: "/tmp/repo" } } };
  writeFileSync(lockFile, JSON.stringify(gutted));
  const partial = await wayfinder(["validate", join(project, "knowledge")], env);
  assert.equal(partial.code, 2);
  assert.match(
    partial.stderr,
    /^wayfinder: Cannot read lock '.*': profiles\.acme-notes lacks a string 'path'; run 'wayfinder get' to rewrite it\n$/,
  );
  writeFileSync(lockFile, "garbage\n");
  const broken = await wayfinder(["validate", join(project, "knowledge")], env);
  assert.equal(broken.code, 2);
  assert.match(
    broken.stderr,
    /^wayfinder: Cannot read lock '.*wayfinder\.lock': [^\n]+; run 'wayfinder get' to rewrite it\n$/,
  );
});

Deno.test("a child Profile's rules run after its parent's and fail the gate; SARIF links each rule's docs", async () => {
  const project = await childProfileProject(repo.dir);
  assert.equal((await wayfinder(["get", project], env)).code, 0);
  const concept = join(project, "knowledge", "operations", "restart-the-api.md");
  writeFileSync(
    concept,
    readFileSync(concept, "utf8").replace("title: Restart the API", "title: Restart the API."),
  );
  const run = await wayfinder(["validate", join(project, "knowledge"), "--output", "sarif"], env);
  assert.equal(run.code, 1, run.stderr);
  const sarif = JSON.parse(run.stdout);
  const results: { ruleId: string }[] = sarif.runs[0].results;
  const ruleIds = results.map((r) => r.ruleId);
  assert.ok(ruleIds.includes("acme-bitwild/title-without-period"), ruleIds.join());
  assert.ok(ruleIds.includes("bitwild-profile/used-type-registered"), ruleIds.join());
  const rule = sarif.runs[0].tool.driver.rules.find((r: { id: string }) =>
    r.id === "acme-bitwild/title-without-period"
  );
  assert.equal(
    rule.helpUri,
    "https://github.com/btwld/wayfinder/blob/main/examples/profiles/two-rule-child/README.md#title-without-period",
  );
  // The rule's own description, not the first finding's message.
  assert.equal(rule.shortDescription.text, "A concept title MUST NOT end with a period.");
});

Deno.test("validate reports an unknown top-level key of wayfinder.json", async () => {
  const project = await exampleProject("acme-notes", repo.dir);
  const file = join(project, "wayfinder.json");
  writeFileSync(
    file,
    JSON.stringify({ ...JSON.parse(readFileSync(file, "utf8")), embeding: {} }, null, 2),
  );
  const { report } = await validateJson(join(project, "knowledge"));
  const unknown = report.findings.find((f: JsonFinding) => f.id === "wayfinder/config-unknown-key");
  assert.ok(unknown, JSON.stringify(report.findings));
  assert.equal(unknown.location.path, "../wayfinder.json");
  assert.equal(unknown.location.line, 15);
});

Deno.test("a rule whose schema does not compile is unsupported: INCOMPLETE, named, never exit 2", async () => {
  const badRegex = {
    id: "bad-regex",
    severity: "error",
    message: "m",
    check: { subject: "frontmatter", schema: { properties: { title: { pattern: "([" } } } },
  };
  const source = await gitRepo({
    "p/wayfinder-profile.json": JSON.stringify({
      format: 2,
      id: "strict",
      release: "1",
      rules: [badRegex],
    }),
  });
  const project = await exampleProject("acme-notes", source.dir);
  const file = join(project, "wayfinder.json");
  writeFileSync(
    file,
    readFileSync(file, "utf8").replace('"examples/profiles/two-rule"', '"p"').replace(
      '"main"',
      '"HEAD"',
    ),
  );
  assert.equal((await wayfinder(["get", project], env)).code, 0);
  const { code, stderr, report } = await validateJson(join(project, "knowledge"));
  assert.equal(code, 1, stderr);
  assert.equal(report.gate, "INCOMPLETE");
  const [unsupported] = report.findings.filter((f: JsonFinding) =>
    f.id === "wayfinder/rule-unsupported"
  );
  assert.match(
    unsupported.message,
    /^Rule strict\/bad-regex cannot be evaluated: its schema does not compile \(Invalid regular expression: .*\); it was not applied$/,
  );
});

Deno.test("a settings-only wayfinder.json inside the bundle leaves the project's binding in force", async () => {
  const project = await childProfileProject(repo.dir);
  assert.equal((await wayfinder(["get", project], env)).code, 0);
  const bundle = join(project, "knowledge");
  writeFileSync(join(bundle, "wayfinder.json"), '{"search": {"limit": 5}}\n');
  const concept = join(bundle, "operations", "restart-the-api.md");
  writeFileSync(
    concept,
    readFileSync(concept, "utf8").replace("title: Restart the API", "title: Restart the API."),
  );
  const { code, report } = await validateJson(bundle);
  assert.equal(code, 1);
  assert.equal(report.gate, "FAIL");
  assert.equal(report.profiles[0]?.status, "applied", JSON.stringify(report.profiles));
  const failing = report.findings.map((f: JsonFinding) => f.id);
  assert.ok(failing.includes("acme-bitwild/title-without-period"), failing.join());
  // get from inside the bundle resolves the same binding, not the settings file.
  const get = await wayfinder(["get", bundle], env);
  assert.equal(get.code, 0, get.stderr);
  assert.match(get.stdout, /^acme-notes: acme-bitwild /);
});

Deno.test("a hand-edited lock entry that does not match the binding or the chain is not applied", async () => {
  const project = await childProfileProject(repo.dir);
  assert.equal((await wayfinder(["get", project], env)).code, 0);
  const lockFile = join(project, "wayfinder.lock");
  const lock = JSON.parse(readFileSync(lockFile, "utf8"));
  const entry = lock.profiles["acme-notes"];
  const edits = {
    // Another package get cached: the binding names two-rule-child, not bitwild.
    path: { ...entry, path: "profiles/bitwild", parents: [] },
    ref: { ...entry, requested_ref: "v9" },
    parent: { ...entry, parents: [] },
  };
  for (const [what, edited] of Object.entries(edits)) {
    writeFileSync(lockFile, JSON.stringify({ ...lock, profiles: { "acme-notes": edited } }));
    const { code, report } = await validateJson(join(project, "knowledge"));
    assert.equal(code, 1, what);
    assert.equal(report.gate, "INCOMPLETE", what);
    assert.equal(report.profiles[0].status, "unresolved", what);
    const [finding] = report.findings.filter((f: JsonFinding) =>
      f.id === "wayfinder/profile-unresolved"
    );
    assert.match(finding.message, /wayfinder\.lock does not match .*; run 'wayfinder get /, what);
  }
  // get notices too, and puts the lock back as the binding says.
  assert.equal((await wayfinder(["get", project], env)).code, 0);
  assert.deepEqual(JSON.parse(readFileSync(lockFile, "utf8")), lock);
  assert.equal(
    (await validateJson(join(project, "knowledge"))).report.profiles[0].status,
    "applied",
  );
});
