import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { validateBundle } from "./mod.ts";

const FIXTURES = fileURLToPath(new URL("../../fixtures/okf/", import.meta.url));

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
  assert.equal(of("area/computation.md").length, 3);
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
