import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { planIndexFixes, validateBundle } from "./mod.ts";

const FIXTURES = fileURLToPath(new URL("../../../fixtures/okf/", import.meta.url));

const where = (f: { id: string; location: { path: string; line: number } }) =>
  `${f.location.path}:${f.location.line} ${f.id}`;

Deno.test("validateBundle() passes a conformant bundle with no findings", async () => {
  const report = await validateBundle(FIXTURES + "valid");
  assert.deepEqual(report.findings, []);
  assert.equal(report.gate, "PASS");
  assert.equal(report.concepts, 4);
});

Deno.test("validateBundle() passes the peer's example bundles", async () => {
  for (const name of ["bitwild", "acme-notes"]) {
    const report = await validateBundle(`${FIXTURES}peer/examples/${name}/knowledge`);
    assert.equal(report.gate, "PASS", name);
    assert.deepEqual(report.findings, [], name);
  }
});

Deno.test("validateBundle() reports each broken rule where it is broken, sorted", async () => {
  const report = await validateBundle(FIXTURES + "invalid");
  assert.deepEqual(report.findings.filter((f) => f.severity === "error").map(where), [
    "area/index.md:1 okf/index-front-matter",
    "area/index.md:7 okf/index-structure",
    "area/index.md:10 okf/index-structure",
    "area/index.md:11 okf/index-structure",
    "bad-yaml.md:4 okf/invalid-front-matter",
    "blank-type.md:3 okf/missing-type",
    "bomb.md:2 okf/invalid-front-matter",
    "index.md:3 okf/index-front-matter",
    "index.md:6 okf/index-structure",
    "latin1.md:3 okf/invalid-utf8",
    "log.md:3 okf/log-structure",
    "log.md:8 okf/log-structure",
    "log.md:11 okf/log-structure",
    "log.md:14 okf/log-structure",
    "log.md:16 okf/log-structure",
    "no-front-matter.md:1 okf/missing-front-matter",
    "no-type.md:1 okf/missing-type",
    "unclosed.md:1 okf/invalid-front-matter",
  ]);
  assert.equal(report.gate, "FAIL");
  assert.equal(report.conformant, false);
});

Deno.test("validateBundle() makes malformed optional fields advisories, broken links notes", async () => {
  const report = await validateBundle(FIXTURES + "invalid");
  const of = (path: string) =>
    report.findings.filter((f) => f.location.path === path).map((f) => `${f.severity} ${f.id}`);
  assert.deepEqual(of("area/advisories.md"), [
    "advisory okf/invalid-tags",
    "advisory okf/invalid-status",
    "advisory okf/invalid-stale-after",
    "advisory okf/invalid-generated",
    "advisory okf/invalid-verified",
    "advisory okf/invalid-source",
    "advisory okf/timestamp-without-offset",
    "advisory okf/invalid-usage-window",
    "advisory okf/timestamp-without-offset",
    "note okf/broken-link",
    "note okf/broken-link",
  ]);
  const at = (f: { location: { path: string; line: number; column: number } }) =>
    `${f.location.path}:${f.location.line}:${f.location.column}`;
  const computation = report.findings.filter((f) => f.location.path === "area/computation.md");
  assert.deepEqual(computation.map((f) => `${f.severity} ${f.id} ${at(f)} ${f.message}`), [
    "advisory okf/invalid-computation area/computation.md:2:1 An Attested Computation needs a `computation` path or a `# Computation` section",
    "advisory okf/invalid-computation area/computation.md:2:1 An Attested Computation needs a non-empty `runtime`",
    "advisory okf/invalid-computation area/computation.md:2:1 `parameters` should be a list of `{name, type, required}` mappings",
  ]);
  assert.deepEqual(of("index.md")[0], "advisory okf/unsupported-version");
  const link = report.findings.find((f) => f.id === "okf/broken-link")!;
  assert.deepEqual(link.location, { path: "area/advisories.md", line: 16, column: 24 });
  assert.match(link.helpUri!, /SPEC\.md#61-links-between-concepts$/);
});

Deno.test("validateBundle() accepts what §11 says consumers must not reject", async () => {
  const dir = await Deno.makeTempDir();
  // Unknown type and keys, only `type`, a broken link, no index.md anywhere.
  await Deno.writeTextFile(
    `${dir}/a.md`,
    "---\ntype: Something New\nx-owner: me\n---\nSee [b](b.md).\n",
  );
  await Deno.mkdir(`${dir}/deep`);
  await Deno.writeTextFile(`${dir}/deep/b.md`, "---\ntype: T\n---\n");
  const report = await validateBundle(dir);
  assert.equal(report.gate, "PASS");
  assert.deepEqual(report.findings.map((f) => `${f.severity} ${f.id}`), ["note okf/broken-link"]);
});

/** A one-concept bundle holding `text` as `a.md`, and its findings. */
async function findingsOf(text: string, name = "a.md") {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/${name}`, text);
  return (await validateBundle(dir)).findings.map((f) =>
    `${f.severity} ${f.id} ${f.location.path}:${f.location.line}:${f.location.column} ${f.message}`
  );
}

Deno.test("validateBundle() makes a `sources` that is not a list an advisory on its line", async () => {
  assert.deepEqual(await findingsOf("---\ntype: Guide\ntitle: T\nsources: https://x.test\n---\n"), [
    "advisory okf/invalid-sources a.md:4:1 `sources` should be a list, one `- resource: …` entry per source",
  ]);
  const mapping = "---\ntype: Guide\nsources:\n  resource: /a.md\n---\n";
  assert.deepEqual(await findingsOf(mapping), [
    "advisory okf/invalid-sources a.md:3:1 `sources` should be a list, one `- resource: …` entry per source",
  ]);
  assert.deepEqual(await findingsOf("---\ntype: Guide\nsources: []\n---\n"), []);
});

Deno.test("validateBundle() checks an Attested Computation's executor, attester and computation", async () => {
  const ok = "---\ntype: Attested Computation\nruntime: python3\ncomputation: run.py\n" +
    "parameters:\n  - { name: year, type: int, required: true }\n" +
    "executor: { resource: /tools/runner.md }\n---\n";
  assert.deepEqual(await findingsOf(ok), []);
  const bad = "---\nruntime: python3\ntype: Attested Computation\ncomputation: 7\n" +
    "executor: runner\nattester: { by: me }\n---\n";
  assert.deepEqual(await findingsOf(bad), [
    "advisory okf/invalid-computation a.md:3:1 `attester` should be a mapping with a non-empty `resource`",
    "advisory okf/invalid-computation a.md:3:1 `computation` should be a path",
    "advisory okf/invalid-computation a.md:3:1 `executor` should be a mapping with a non-empty `resource`",
  ]);
});

const VALIDATE_JSON = fileURLToPath(new URL("./testdata/validate_json.ts", import.meta.url));
const CONFIG = fileURLToPath(new URL("../../../deno.json", import.meta.url));

Deno.test("validateBundle() reports a markdown file it cannot read as okf/unreadable, and goes on", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/stuck.md`, "---\ntype: Guide\n---\n");
  await Deno.writeTextFile(`${dir}/ok.md`, "---\ntype: Guide\n---\n");
  // A child process denied the file: mode bits stop no root, and a link out of the bundle is no file of it.
  const permissions = ["--allow-read", "--allow-env", `--deny-read=${dir}/stuck.md`];
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--config", CONFIG, ...permissions, VALIDATE_JSON, dir],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const report = JSON.parse(new TextDecoder().decode(out.stdout));
  assert.equal(report.gate, "FAIL");
  assert.equal(report.documents, 1);
  const [unreadable, ...rest] = report.findings;
  assert.deepEqual(rest, []);
  assert.equal(unreadable!.id, "okf/unreadable");
  assert.equal(unreadable!.severity, "error");
  assert.deepEqual(unreadable!.location, { path: "stuck.md", line: 1, column: 1 });
  assert.match(unreadable!.message, /^Cannot read: /);
});

Deno.test("validateBundle() tells an oversized front matter block from an unclosed one", async () => {
  const big = `x: "${"a".repeat(1 << 20)}"`;
  assert.deepEqual(await findingsOf(`---\n${big}\n---\n# Body\n`), [
    "error okf/invalid-front-matter a.md:1:1 Front matter is over 1 MiB (it closes on line 3); it is refused unparsed",
  ]);
  assert.deepEqual(await findingsOf(`---\n${big}\n# Body\n`), [
    "error okf/invalid-front-matter a.md:1:1 Front matter opened with '---' has no closing '---' line",
  ]);
});

Deno.test("validateBundle() quotes at most 200 characters of a broken link's target", async () => {
  // The 200th UTF-16 unit is the first half of an emoji: the cut falls before it.
  const target = `${"😀".repeat(99)}a😀${"x".repeat(800_000)}.md`;
  const [note] = await findingsOf(`---\ntype: Guide\n---\n[long](${target})\n`);
  assert.equal(
    note,
    `note okf/broken-link a.md:4:8 Link target '${"😀".repeat(99)}a…' is not in the bundle (yet)`,
  );
  const short = await findingsOf(`---\ntype: Guide\n---\n[b](${"y".repeat(197)}.md)\n`);
  assert.match(short[0]!, new RegExp(`'${"y".repeat(197)}\\.md' is not in the bundle`));
});

Deno.test("validateBundle() names a repeated log date as a repeat, not as dates out of order", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(
    `${dir}/log.md`,
    "# Log\n\n## 2026-05-22\n* one\n\n## 2026-05-22\n* two\n\n## 2026-05-21\n* three\n\n" +
      "## 2026-05-22\n* four\n",
  );
  const report = await validateBundle(dir);
  assert.deepEqual(report.findings.map((f) => `${where(f)} ${f.severity}: ${f.message}`), [
    "log.md:6 okf/log-structure error: Date 2026-05-22 appears more than once (first on line 3); " +
    "group its entries under one heading",
    "log.md:12 okf/log-structure error: Date 2026-05-22 appears more than once (first on line 3); " +
    "group its entries under one heading",
  ]);
});

Deno.test("validateBundle() names a file or folder whose name is not UTF-8; --fix says it lists neither", async () => {
  const dir = await Deno.makeTempDir();
  const concept = "---\ntype: Guide\n---\n# A\n";
  await Deno.writeTextFile(`${dir}/ok.md`, concept);
  // Deno takes no such name: a shell makes them, as a latin-1 tool would.
  const script = `cd "$1" && printf '%s' "$2" > "$(printf 'bad\\377name.md')" && ` +
    `mkdir "$(printf 'dir_\\377')" && printf '%s' "$2" > "$(printf 'dir_\\377')/a.md"`;
  const made = await new Deno.Command("sh", { args: ["-c", script, "sh", dir, concept] }).output();
  assert.ok(made.success);
  const report = await validateBundle(dir);
  assert.deepEqual(report.findings.map((f) => `${f.location.path} ${f.id} ${f.message}`), [
    "bad\\xffname.md okf/non-utf8-name The file's name is not UTF-8, so it cannot be read; rename it (its bytes that are not UTF-8 are shown as \\xNN)",
    "dir_\\xff okf/non-utf8-name The folder's name is not UTF-8, so nothing in it was read; rename it (its bytes that are not UTF-8 are shown as \\xNN)",
  ]);
  assert.equal(report.gate, "FAIL");
  const plan = planIndexFixes(dir);
  assert.deepEqual(plan.leftAlone.map((l) => l.path), ["bad\\xffname.md", "dir_\\xff"]);
  assert.match(plan.leftAlone[0]!.reason, /name is not UTF-8, so no index\.md lists it/);
  assert.deepEqual(plan.changes.map((c) => c.path), ["index.md"]);
});

Deno.test("validateBundle() says when --fix rewrites a broken index or creates a missing one", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.mkdir(`${dir}/runbooks`);
  await Deno.mkdir(`${dir}/decisions`);
  await Deno.mkdir(`${dir}/empty`);
  await Deno.writeTextFile(
    `${dir}/index.md`,
    "# Subdirectories\n\n* [decisions](decisions/index.md)\n* [empty](empty/index.md)\n" +
      "* [runbooks](runbooks/index.md)\n",
  );
  await Deno.writeTextFile(`${dir}/runbooks/index.md`, "# Runbook\n\nSome prose.\n");
  await Deno.writeTextFile(`${dir}/runbooks/restart.md`, "---\ntype: Runbook\n---\n");
  await Deno.writeTextFile(`${dir}/decisions/adr.md`, "---\ntype: Decision\n---\n");
  // A folder without concepts gets no index from --fix: its own is left as written.
  await Deno.writeTextFile(`${dir}/empty/notes.txt`, "x\n");
  await Deno.writeTextFile(`${dir}/empty/index.md`, "Prose.\n");
  const report = await validateBundle(dir);
  assert.deepEqual(report.findings.map((f) => `${where(f)} ${f.message}`), [
    "empty/index.md:1 okf/index-structure An index holds only '# ' section headings and " +
    "'* [Title](target)' entries",
    "index.md:3 okf/broken-link Link target 'decisions/index.md' is not in the bundle yet; " +
    "run 'wayfinder validate --fix' to create it",
    "runbooks/index.md:3 okf/index-structure An index holds only '# ' section headings and " +
    "'* [Title](target)' entries; run 'wayfinder validate --fix' to rewrite it from its folder's concepts",
  ]);
  await Deno.remove(`${dir}/decisions/adr.md`);
  const unwritten = await validateBundle(dir);
  assert.match(
    unwritten.findings[1]!.message,
    /^Link target 'decisions\/index\.md' is not in the bundle \(yet\)$/,
  );
});

Deno.test("validateBundle() names a single `verified` mapping's time `verified.at`, a list's by index", async () => {
  const mapping = "---\ntype: Guide\nverified: { by: alice, at: 2025-04-02T10:00:00 }\n---\n";
  assert.deepEqual(await findingsOf(mapping), [
    "advisory okf/timestamp-without-offset a.md:3:1 `verified.at` has a time of day but no UTC " +
    "offset (add Z or ±hh:mm)",
  ]);
  const list = "---\ntype: Guide\nverified:\n  - { by: a, at: 2025-04-02T10:00:00Z }\n" +
    "  - { by: b, at: 2025-04-03T10:00:00 }\n---\n";
  assert.match((await findingsOf(list))[0]!, /`verified\[1\]\.at` has a time of day/);
});

Deno.test("validateBundle() says how to fix a missing type and a file that is not UTF-8", async () => {
  assert.deepEqual(await findingsOf("---\ntitle: T\n---\n"), [
    "error okf/missing-type a.md:1:1 Front matter has no `type`; add one naming the kind of " +
    "concept, e.g. `type: Guide`",
  ]);
  const dir = await Deno.makeTempDir();
  await Deno.writeFile(`${dir}/a.md`, new Uint8Array([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0x0a]));
  const [latin1] = (await validateBundle(dir)).findings;
  assert.equal(
    latin1!.message,
    "Not valid UTF-8: the first invalid byte is here; save the file as UTF-8",
  );
});

Deno.test("validateBundle() fails a folder without Markdown, not one whose Markdown fails to read", async () => {
  const empty = await Deno.makeTempDir();
  await Deno.writeTextFile(`${empty}/notes.txt`, "not a concept\n");
  const report = await validateBundle(empty);
  assert.equal(report.gate, "FAIL");
  assert.deepEqual(report.findings.map(where), [".:1 okf/no-documents"]);
  const latin1 = await Deno.makeTempDir();
  await Deno.writeFile(`${latin1}/caf.md`, new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  assert.deepEqual((await validateBundle(latin1)).findings.map(where), [
    "caf.md:1 okf/invalid-utf8",
  ]);
});
