import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadLock, readLock } from "./lock_file.ts";

const COMMIT = "0123456789abcdef0123456789abcdef01234567";
const pkg = {
  profile_id: "p",
  profile_release: "1",
  source: "/tmp/repo",
  path: "profiles/p",
  resolved_commit: COMMIT,
};

async function lockFile(profiles: unknown): Promise<string> {
  const file = join(await Deno.makeTempDir(), "wayfinder.lock");
  writeFileSync(
    file,
    JSON.stringify({ lock_version: 1, configuration_sha256: "0".repeat(64), profiles }),
  );
  return file;
}

Deno.test("readLock() reads a well-formed lock, with or without parents", async () => {
  const profiles = { x: { ...pkg, requested_ref: "main", parents: [pkg] } };
  assert.deepEqual(readLock(await lockFile(profiles))?.profiles, profiles);
  const { parents: _, ...orphan } = profiles.x;
  assert.ok(readLock(await lockFile({ x: orphan })));
  assert.equal(readLock("/no/such/wayfinder.lock"), null);
});

Deno.test("readLock() names the entry and field a malformed lock lacks, on one line", async () => {
  const cases: [unknown, string][] = [
    [{ x: { source: "/tmp/repo" } }, "profiles.x lacks a string 'path'"],
    [{ x: { ...pkg, path: 7 } }, "profiles.x lacks a string 'path'"],
    [{ x: { ...pkg, resolved_commit: "../../etc" } }, "profiles.x lacks a 'resolved_commit'"],
    [{ x: { ...pkg, profile_release: undefined } }, "profiles.x lacks a string 'profile_release'"],
    [{ x: { ...pkg } }, "profiles.x lacks a string 'requested_ref'"],
    [{ x: { ...pkg, requested_ref: "main", parents: {} } }, "profiles.x.parents is not a list"],
    [
      { x: { ...pkg, requested_ref: "main", parents: [pkg, { ...pkg, source: "" }] } },
      "profiles.x.parents[1] lacks a string 'source'",
    ],
    [{ x: null }, "profiles.x is not an object"],
    [[], "not a lock_version 1 file"],
  ];
  for (const [profiles, problem] of cases) {
    const file = await lockFile(profiles);
    const read = loadLock(file);
    assert.ok(!read.ok && read.problem.startsWith(problem), `${problem}: ${JSON.stringify(read)}`);
    assert.throws(
      () => readLock(file),
      (e: Error) =>
        e.name === "WayfinderError" &&
        e.message.startsWith(`Cannot read lock '${file}': ${problem}`) &&
        !e.message.includes("\n"),
    );
  }
});
