import assert from "node:assert/strict";
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { validateProject } from "./validate_project.ts";

const VALID = fileURLToPath(new URL("../../../fixtures/okf/valid", import.meta.url));
const source = { git: "/no/such/repository", ref: "main", path: "p" };

/** A project holding a copy of the valid bundle at knowledge/ and the given binding. */
async function project(profiles: unknown): Promise<string> {
  const dir = await Deno.makeTempDir();
  cpSync(VALID, join(dir, "knowledge"), { recursive: true });
  writeFileSync(join(dir, "wayfinder.json"), JSON.stringify({ version: 1, profiles }, null, 2));
  return dir;
}

const validate = (dir: string) =>
  validateProject(join(dir, "knowledge"), {
    configFile: join(dir, "wayfinder.json"),
    dataRoot: join(dir, "data"),
  });

Deno.test("validateProject() is INCOMPLETE when the bound Profile's applies_to folder does not exist", async () => {
  const dir = await project({ acme: { source, applies_to: ["./knowlege"] } });
  const report = await validate(dir);
  assert.equal(report.gate, "INCOMPLETE");
  assert.deepEqual(report.profiles, [{
    name: "acme",
    status: "unbound",
    reason: "applies_to names no existing folder: ./knowlege",
  }]);
  const summary = report.findings.map((f) =>
    `${f.severity} ${f.id} ${f.location.path}:${f.location.line}:${f.location.column}`
  );
  assert.deepEqual(summary, [
    "note wayfinder/bundle-unbound ../wayfinder.json:3:3",
    "advisory wayfinder/profile-unbound ../wayfinder.json:11:9",
  ]);
  assert.match(
    report.findings[1]!.message,
    /^Profile 'acme' applies_to '\.\/knowlege', which is not a folder/,
  );
});

Deno.test("validateProject() notes a bundle no bound Profile applies to, without failing a project that has one", async () => {
  const dir = await project({ acme: { source, applies_to: ["./other"] } });
  mkdirSync(join(dir, "other"));
  const report = await validate(dir);
  assert.equal(report.gate, "PASS");
  assert.deepEqual(report.profiles, []);
  assert.deepEqual(report.findings.map((f) => `${f.severity} ${f.id}`), [
    "note wayfinder/bundle-unbound",
  ]);
  assert.equal(
    report.findings[0]!.message,
    "No bound Profile applies to this bundle: wayfinder.json binds 'acme' to other",
  );
});
