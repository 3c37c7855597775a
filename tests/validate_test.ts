import assert from "node:assert/strict";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { copyTree, REPO, type RunResult, wayfinder } from "./_run.ts";

const OKF = join(REPO, "fixtures", "okf");

function oneLineError(run: RunResult, code: number): void {
  assert.equal(run.code, code, run.stderr);
  assert.match(run.stderr, /^wayfinder: [^\n]+\n$/);
  assert.doesNotMatch(run.stderr, /\bat .*\.ts:\d+/);
}

/** Every file under `dir` with its text, to prove a run changed nothing. */
async function snapshot(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const e of Deno.readDir(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) { for (const [k, v] of await snapshot(p)) out.set(k, v); }
    else out.set(p, readFileSync(p, "latin1"));
  }
  return out;
}

Deno.test("validate exits 0 on a conformant bundle and prints the gate", async () => {
  const run = await wayfinder(["validate", join(OKF, "valid")]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^PASS: 0 errors, 0 advisories, 0 notes in 9 files \(4 concepts\)\n$/);
});

Deno.test("validate exits 1 on a failing bundle, groups text by file, and writes nothing", async () => {
  const bundle = await copyTree(join(OKF, "invalid"));
  const before = await snapshot(bundle);
  const run = await wayfinder(["validate", bundle], {}, bundle);
  assert.equal(run.code, 1, run.stderr);
  assert.match(
    run.stdout,
    /^log\.md\n {2}3:1 +error +A log entry belongs under .* okf\/log-structure$/m,
  );
  assert.match(run.stdout, /^FAIL: 18 errors, 13 advisories, 2 notes in 11 files \(8 concepts\)$/m);
  assert.deepEqual(await snapshot(bundle), before);
});

Deno.test("validate --output json and jsonl carry every finding with its location", async () => {
  const json = await wayfinder(["validate", join(OKF, "invalid"), "--output", "json"]);
  assert.equal(json.code, 1);
  const report = JSON.parse(json.stdout);
  assert.equal(report.gate, "FAIL");
  assert.deepEqual(Object.keys(report.findings[0]).sort(), [
    "helpUri",
    "id",
    "location",
    "message",
    "severity",
  ]);
  const lines = (await wayfinder(["validate", join(OKF, "invalid"), "-o", "jsonl"])).stdout.trim()
    .split("\n");
  assert.deepEqual(lines.map((l) => JSON.parse(l)), report.findings);
});

Deno.test("validate fails a folder with no Markdown document: a mistyped path is no bundle", async () => {
  const empty = await Deno.makeTempDir({ prefix: "wayfinder-no-bundle-" });
  const code = await Deno.makeTempDir({ prefix: "wayfinder-no-bundle-" });
  writeFileSync(join(code, "auth.ts"), "export const a = 1;\n");
  for (const folder of [empty, code]) {
    const message = `No OKF documents in '${folder}': no Markdown concept, index.md or log.md ` +
      "was found; is this the bundle's folder?";
    const text = await wayfinder(["validate", folder]);
    assert.equal(text.code, 1, text.stderr);
    assert.ok(text.stdout.includes(`error     ${message}  okf/no-documents\n`), text.stdout);
    assert.match(text.stdout, /^FAIL: 1 error, 0 advisories, 0 notes in 0 files \(0 concepts\)$/m);

    const json = await wayfinder(["validate", folder, "--output", "json"]);
    assert.equal(json.code, 1);
    const report = JSON.parse(json.stdout);
    assert.equal(report.gate, "FAIL");
    assert.deepEqual(report.findings.map((f: { id: string }) => f.id), ["okf/no-documents"]);
    assert.equal(report.findings[0].message, message);
    assert.match(report.findings[0].helpUri, /SPEC\.md#3-bundle-structure$/);

    const sarif = await wayfinder(["validate", folder, "--output", "sarif"]);
    assert.equal(sarif.code, 1);
    const [run] = JSON.parse(sarif.stdout).runs;
    assert.deepEqual(
      run.results.map((r: { ruleId: string; level: string }) => [r.ruleId, r.level]),
      [
        ["okf/no-documents", "error"],
      ],
    );
    assert.ok(run.tool.driver.rules.some((r: { id: string }) => r.id === "okf/no-documents"));
  }
  // A bundle of concepts without index.md is accepted, as OKF allows.
  const loose = await Deno.makeTempDir({ prefix: "wayfinder-loose-bundle-" });
  mkdirSync(join(loose, "guides"));
  writeFileSync(join(loose, "guides", "a.md"), "---\ntype: Guide\n---\n\nRead me.\n");
  const run = await wayfinder(["validate", loose]);
  assert.equal(run.code, 0, run.stdout);
  assert.match(run.stdout, /^PASS: 0 errors, 0 advisories, 0 notes in 1 file \(1 concept\)$/m);
});

Deno.test("validate --output sarif uses paths relative to the git checkout", async () => {
  // A checkout of its own, so the test holds in a copy of this repository without .git too.
  const repo = await Deno.makeTempDir();
  await new Deno.Command("git", { args: ["init", "-q", repo] }).output();
  const bundle = join(repo, "docs", "kb");
  await Deno.mkdir(join(repo, "docs"));
  await new Deno.Command("cp", { args: ["-R", join(OKF, "invalid"), bundle] }).output();
  const run = await wayfinder(["validate", bundle, "--output", "sarif"], {
    PATH: Deno.env.get("PATH") ?? "",
  });
  assert.equal(run.code, 1);
  const sarif = JSON.parse(run.stdout);
  const uris = sarif.runs[0].results.map((
    r: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] },
  ) => r.locations[0]!.physicalLocation.artifactLocation.uri);
  assert.ok(uris.includes("docs/kb/log.md"), uris.join());
});

Deno.test("validate --fix writes the generated indexes once; a second --fix writes nothing", async () => {
  const bundle = await copyTree(join(OKF, "valid"));
  writeFileSync(join(bundle, "tables", "index.md"), "# Stale\n\n* [Old](old.md)\n");
  await Deno.remove(join(bundle, "playbooks", "index.md"));
  const dry = await wayfinder(["validate", bundle, "--fix", "--dry-run"], {}, bundle);
  assert.equal(dry.code, 1);
  assert.match(dry.stdout, /^--- \/dev\/null\n\+\+\+ b\/playbooks\/index\.md$/m);
  assert.match(dry.stdout, /^-\* \[Old\]\(old\.md\)$/m);
  assert.equal(await Deno.stat(join(bundle, "playbooks", "index.md")).catch(() => null), null);
  const lines = await wayfinder(
    ["validate", bundle, "--fix", "--dry-run", "--output", "jsonl"],
    {},
    bundle,
  );
  assert.equal(lines.code, 1);
  const planned = lines.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(planned.map((c) => `${c.action} ${c.path}`), [
    "create playbooks/index.md",
    "update tables/index.md",
  ]);
  const fixed = await wayfinder(["validate", bundle, "--fix"], {}, bundle);
  assert.equal(fixed.code, 0, fixed.stderr);
  assert.match(fixed.stderr, /Created playbooks\/index\.md\nUpdated tables\/index\.md\n/);
  assert.equal(
    readFileSync(join(bundle, "tables", "index.md"), "utf8"),
    readFileSync(join(OKF, "valid", "tables", "index.md"), "utf8"),
  );
  const before = await snapshot(bundle);
  const again = await wayfinder(["validate", bundle, "--fix"], {}, bundle);
  assert.equal(again.code, 0);
  assert.match(again.stderr, /nothing written/);
  assert.deepEqual(await snapshot(bundle), before);
  const dryAgain = await wayfinder(["validate", bundle, "--fix", "--dry-run"], {}, bundle);
  assert.equal(dryAgain.code, 0);
  assert.equal(dryAgain.stdout, "");
});

Deno.test("validate --fix leaves a symlinked index.md alone and says so", async () => {
  const dir = await Deno.makeTempDir();
  mkdirSync(join(dir, "kb", "a"), { recursive: true });
  writeFileSync(join(dir, "kb", "a", "x.md"), "---\ntype: Note\ntitle: A\n---\n");
  writeFileSync(join(dir, "outside.md"), "precious content\n");
  symlinkSync(join(dir, "outside.md"), join(dir, "kb", "a", "index.md"));
  const run = await wayfinder(["validate", "kb", "--fix"], {}, dir);
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stderr,
    /^Left kb\/a\/index\.md alone: it is a symlink, and --fix never writes through one\n/,
  );
  assert.equal(readFileSync(join(dir, "outside.md"), "utf8"), "precious content\n");
});

Deno.test("validate refuses bad input with one line and exit 2", async () => {
  oneLineError(await wayfinder(["validate", "/no/such/bundle"]), 2);
  oneLineError(await wayfinder(["validate", join(REPO, "main.ts")]), 2);
  oneLineError(await wayfinder(["validate", join(OKF, "valid"), "--dry-run"]), 2);
  oneLineError(await wayfinder(["validate", join(OKF, "valid"), "--output", "xml"]), 2);
  const sarifDiff = await wayfinder(
    ["validate", join(OKF, "valid"), "--fix", "--dry-run", "--output", "sarif"],
  );
  oneLineError(sarifDiff, 2);
  assert.equal(sarifDiff.stdout, "");
  const project = await Deno.makeTempDir();
  await Deno.mkdir(join(project, "knowledge"));
  writeFileSync(join(project, "wayfinder.json"), "{ not json");
  oneLineError(await wayfinder(["validate", join(project, "knowledge")]), 2);
  writeFileSync(
    join(project, "wayfinder.json"),
    '{"version": 1, "profiles": {"p": {"source": "x"}}}',
  );
  oneLineError(await wayfinder(["validate", join(project, "knowledge")]), 2);
  const source = { git: "/no/such/repository", path: "p" };
  writeFileSync(
    join(project, "wayfinder.json"),
    JSON.stringify({ version: 1, profiles: { p: { source, "applies-to": ["./knowledge"] } } }),
  );
  const typo = await wayfinder(["validate", join(project, "knowledge")]);
  oneLineError(typo, 2);
  assert.match(
    typo.stderr,
    /profiles\.p has an unknown key 'applies-to'; did you mean 'applies_to'/,
  );
});

Deno.test("validate does not PASS when the bound Profile's applies_to names no folder", async () => {
  const project = await copyTree(join(OKF, "peer", "examples", "acme-notes"));
  const file = join(project, "wayfinder.json");
  writeFileSync(file, readFileSync(file, "utf8").replace('"./knowledge"', '"./knowlege"'));
  const run = await wayfinder(["validate", join(project, "knowledge")]);
  assert.equal(run.code, 1, run.stderr);
  assert.match(
    run.stdout,
    /advisory +Profile 'acme-notes' applies_to '\.\/knowlege', which is not a folder/,
  );
  assert.match(
    run.stdout,
    /^Profile acme-notes: not applied \(wayfinder\/profile-unbound\)\nINCOMPLETE: /m,
  );
});

Deno.test("validate survives a YAML bomb and a 50 MB concept", async () => {
  const bundle = await Deno.makeTempDir();
  writeFileSync(join(bundle, "bomb.md"), readFileSync(join(OKF, "invalid", "bomb.md")));
  const big = `---\ntype: Guide\n---\n${
    "A line of knowledge with a [link](nowhere.md).\n".repeat(1_200_000)
  }`;
  writeFileSync(join(bundle, "big.md"), big);
  const started = performance.now();
  const run = await wayfinder(["validate", bundle], {}, bundle);
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stdout, /^bomb\.md\n {2}2:1 +error +.*alias.* okf\/invalid-front-matter$/m);
  // Broken links are notes, capped per file so the report stays readable.
  assert.match(run.stdout, /^FAIL: 1 error, 0 advisories, 51 notes in 2 files/m);
  assert.match(run.stdout, /1199950 more broken links in this file are not listed/);
  assert.ok(performance.now() - started < 20_000);
});

Deno.test("validate text output shows control characters in names and values escaped", async () => {
  const dir = await Deno.makeTempDir();
  writeFileSync(join(dir, "c\x1b[31mx.md"), "---\ntitle: t\n---\n# Body\n");
  writeFileSync(join(dir, "d.md"), '---\ntype: Note\nstatus: "\u202ebad"\n---\n# Body\n');
  const run = await wayfinder(["validate", dir]);
  assert.equal(run.code, 1, run.stderr);
  assert.ok(!run.stdout.includes("\x1b") && !run.stdout.includes("\u202e"), run.stdout);
  assert.match(run.stdout, /c\\x1b\[31mx\.md/);
  assert.match(run.stdout, /\\u202ebad/);
});
