import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  childProfileProject,
  commitChange,
  commitFiles,
  exampleProject,
  gitRepo,
  profileRepo,
} from "./_profile_repo.ts";
import { wayfinder } from "./_run.ts";
import { dataEnv } from "./_env.ts";

const repo = await profileRepo();
const env = { ...(await dataEnv()), PATH: Deno.env.get("PATH") ?? "" };

function lockOf(project: string) {
  return JSON.parse(readFileSync(join(project, "wayfinder.lock"), "utf8"));
}

Deno.test("get pins the Profile in wayfinder.lock, caches it and installs its skill", async () => {
  const project = await exampleProject("bitwild", repo.dir);
  const run = await wayfinder(["get", project], env);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^bitwild-profile: bitwild-profile 2026\.3 at profiles\/bitwild @ /);
  const lock = lockOf(project);
  assert.equal(lock.lock_version, 1);
  assert.match(lock.configuration_sha256, /^[0-9a-f]{64}$/);
  assert.deepEqual(lock.profiles["bitwild-profile"], {
    profile_id: "bitwild-profile",
    profile_release: "2026.3",
    source: repo.dir,
    path: "profiles/bitwild",
    resolved_commit: repo.head,
    requested_ref: "main",
    parents: [],
  });
  for (const home of [".claude/skills", ".agents/skills"]) {
    assert.equal(
      readFileSync(join(project, home, "bitwild-profile", "SKILL.md"), "utf8"),
      "# Skill of profiles/bitwild\n",
    );
  }
});

Deno.test("get again with an unchanged binding and lock fetches nothing, even with the source gone", async () => {
  const source = await profileRepo();
  const project = await exampleProject("acme-notes", source.dir);
  const first = await wayfinder(["get", project, "--output", "json"], env);
  assert.equal(first.code, 0, first.stderr);
  assert.deepEqual(JSON.parse(first.stdout).fetched, [source.dir]);
  const lockText = readFileSync(join(project, "wayfinder.lock"), "utf8");
  await Deno.remove(source.dir, { recursive: true });
  const again = await wayfinder(["get", project, "--output", "json"], env);
  assert.equal(again.code, 0, again.stderr);
  const summary = JSON.parse(again.stdout);
  assert.deepEqual(summary.fetched, []);
  assert.equal(summary.lockWritten, false);
  assert.equal(readFileSync(join(project, "wayfinder.lock"), "utf8"), lockText);
  assert.ok(existsSync(join(project, ".claude/skills/acme-notes/SKILL.md")));
});

Deno.test("get --output jsonl prints the record --output json does, on one line", async () => {
  const project = await exampleProject("bitwild", repo.dir);
  const json = await wayfinder(["get", project, "--output", "json"], env);
  assert.equal(json.code, 0, json.stderr);
  const jsonl = await wayfinder(["get", project, "--output", "jsonl"], env);
  assert.equal(jsonl.code, 0, jsonl.stderr);
  const lines = jsonl.stdout.trimEnd().split("\n");
  assert.equal(lines.length, 1, jsonl.stdout);
  const [record, summary] = [JSON.parse(lines[0]!), JSON.parse(json.stdout)];
  assert.deepEqual(Object.keys(record).sort(), Object.keys(summary).sort());
  assert.deepEqual(record.profiles, summary.profiles);
  assert.equal(record.lockFile, summary.lockFile);
});

Deno.test("get follows a parent named without git to the same repository and commit", async () => {
  const project = await childProfileProject(repo.dir);
  const run = await wayfinder(["get", project], env);
  assert.equal(run.code, 0, run.stderr);
  const locked = lockOf(project).profiles["acme-notes"];
  assert.equal(locked.profile_id, "acme-bitwild");
  assert.deepEqual(locked.parents, [{
    profile_id: "bitwild-profile",
    profile_release: "2026.3",
    source: repo.dir,
    path: "profiles/bitwild",
    resolved_commit: repo.head,
  }]);
  assert.ok(existsSync(join(project, ".agents/skills/bitwild-profile/SKILL.md")));
});

Deno.test("get caches a parent at the repository root after the child nested in it", async () => {
  const profile = (id: string, extra = {}) =>
    JSON.stringify({ format: 2, id, release: "1", rules: [], ...extra });
  const source = await gitRepo({
    "wayfinder-profile.json": profile("base"),
    "child/wayfinder-profile.json": profile("kid", { extends: { path: "." } }),
  });
  const project = await Deno.makeTempDir();
  Deno.mkdirSync(join(project, "kb"));
  writeFileSync(join(project, "kb", "note.md"), "---\ntype: Note\n---\n\nA note.\n");
  writeFileSync(
    join(project, "wayfinder.json"),
    JSON.stringify({
      version: 1,
      profiles: { t: { source: { git: source.dir, path: "child" }, applies_to: ["kb"] } },
    }),
  );
  // A data root of its own: the child is extracted first, then its parent, the folder around it.
  const own = { ...env, ...(await dataEnv()) };
  const run = await wayfinder(["get", project], own);
  assert.equal(run.code, 0, run.stderr);
  const locked = lockOf(project).profiles.t;
  assert.equal(locked.profile_id, "kid");
  assert.deepEqual(locked.parents.map((p: { profile_id: string }) => p.profile_id), ["base"]);
  const validate = await wayfinder(["validate", join(project, "kb")], own);
  assert.equal(validate.code, 0, validate.stdout + validate.stderr);
  assert.match(validate.stdout, /^Profile t: kid 1 extends base 1 @ [0-9a-f]{12} applied$/m);
  // A cache an older get left half filled (the root folder holding only the child) is repaired.
  const cached = join(own.WAYFINDER_DATA_DIR, "profiles", "packages");
  const [key] = [...Deno.readDirSync(cached)].map((e) => e.name);
  Deno.removeSync(join(cached, key!, source.head, "wayfinder-profile.json"));
  const half = await wayfinder(["validate", join(project, "kb"), "--output", "json"], own);
  assert.equal(half.code, 1, half.stderr);
  assert.match(JSON.parse(half.stdout).findings[0].message, /is not in the cache/);
  assert.equal((await wayfinder(["get", project], own)).code, 0);
  assert.equal((await wayfinder(["validate", join(project, "kb")], own)).code, 0);
});

Deno.test("get keeps the locked commit until the binding changes or --update is given", async () => {
  const source = await profileRepo();
  const project = await exampleProject("acme-notes", source.dir);
  assert.equal((await wayfinder(["get", project], env)).code, 0);
  const newer = await commitChange(source.dir);
  assert.equal((await wayfinder(["get", project], env)).code, 0);
  assert.equal(lockOf(project).profiles["acme-notes"].resolved_commit, source.head);
  const updated = await wayfinder(["get", project, "--update"], env);
  assert.equal(updated.code, 0, updated.stderr);
  assert.equal(lockOf(project).profiles["acme-notes"].resolved_commit, newer);
});

Deno.test("get fails with one line and exit 2 on an unreachable source or a bad binding, writing no lock", async () => {
  const project = await exampleProject("acme-notes", "/no/such/repository");
  const unreachable = await wayfinder(["get", project], env);
  assert.equal(unreachable.code, 2);
  assert.match(
    unreachable.stderr,
    /^wayfinder: Cannot fetch Profile source '\/no\/such\/repository': [^\n]+\n$/,
  );
  assert.ok(!existsSync(join(project, "wayfinder.lock")));
  writeFileSync(
    join(project, "wayfinder.json"),
    '{"version": 1, "profiles": {"x": {"source": {}}}}',
  );
  const bad = await wayfinder(["get", project], env);
  assert.equal(bad.code, 2);
  assert.match(
    bad.stderr,
    /^wayfinder: Invalid Profile binding in .*: profiles\.x\.source needs 'git' and 'path' strings\n$/,
  );
  for (const binding of ['{"version": 1, "profiles": {}}', '{"embedding": {}}']) {
    writeFileSync(join(project, "wayfinder.json"), binding);
    const empty = await wayfinder(["get", project], env);
    assert.equal(empty.code, 2);
    assert.match(
      empty.stderr,
      /^wayfinder: '.*wayfinder\.json' binds no Profiles: name one under 'profiles' for get to resolve\n$/,
    );
  }
  const none = await wayfinder(["get", await Deno.makeTempDir()], env);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /^wayfinder: No wayfinder\.json at or above /);
});

const SKILL = "examples/profiles/two-rule/skill/SKILL.md";
const skillOf = (project: string, home: string) => join(project, home, "acme-notes", "SKILL.md");

Deno.test("a get that fails leaves the installed skills as the lock it kept pins them", async () => {
  const source = await profileRepo();
  const project = await exampleProject("acme-notes", source.dir);
  assert.equal((await wayfinder(["get", project], env)).code, 0);
  const oldSkill = readFileSync(skillOf(project, ".claude/skills"), "utf8");
  const lockText = readFileSync(join(project, "wayfinder.lock"), "utf8");
  await commitFiles(source.dir, { [SKILL]: "# A newer skill\n" });
  const file = join(project, "wayfinder.json");
  const binding = JSON.parse(readFileSync(file, "utf8"));
  // Resolved after acme-notes, so acme-notes' new skill is in hand when get fails.
  binding.profiles.broken = { source: { git: "/no/such/repository", path: "p" } };
  writeFileSync(file, JSON.stringify(binding));
  const failed = await wayfinder(["get", project, "--update"], env);
  assert.equal(failed.code, 2, failed.stderr);
  assert.equal(readFileSync(join(project, "wayfinder.lock"), "utf8"), lockText);
  for (const home of [".claude/skills", ".agents/skills"]) {
    assert.equal(readFileSync(skillOf(project, home), "utf8"), oldSkill, home);
  }
});

Deno.test("get --update removes the skills it installed once the package ships none, and only those", async () => {
  const source = await profileRepo();
  const project = await exampleProject("acme-notes", source.dir);
  assert.equal((await wayfinder(["get", project], env)).code, 0);
  assert.ok(existsSync(skillOf(project, ".agents/skills")));
  // The user's own skills, one of them named like a Profile that never shipped a skill.
  for (const name of ["mine", "bitwild-profile"]) {
    mkdirSync(join(project, ".claude/skills", name), { recursive: true });
    writeFileSync(join(project, ".claude/skills", name, "SKILL.md"), "# Mine\n");
  }
  const newer = await commitFiles(source.dir, {}, ["examples/profiles/two-rule/skill"]);
  const run = await wayfinder(["get", project, "--update"], env);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(lockOf(project).profiles["acme-notes"].resolved_commit, newer);
  assert.match(run.stdout, /^Removed skill .*\.claude\/skills\/acme-notes$/m);
  assert.match(run.stdout, /^Removed skill .*\.agents\/skills\/acme-notes$/m);
  for (const home of [".claude/skills", ".agents/skills"]) {
    assert.ok(!existsSync(join(project, home, "acme-notes")), home);
  }
  for (const name of ["mine", "bitwild-profile"]) {
    assert.equal(
      readFileSync(join(project, ".claude/skills", name, "SKILL.md"), "utf8"),
      "# Mine\n",
    );
  }
});

Deno.test("get replaces a corrupt or other-version lock instead of asking for itself", async () => {
  const project = await exampleProject("acme-notes", repo.dir);
  assert.equal((await wayfinder(["get", project], env)).code, 0);
  const lockFile = join(project, "wayfinder.lock");
  const good = readFileSync(lockFile, "utf8");
  const gutted = { ...JSON.parse(good), profiles: { "acme-notes": { source: "/tmp/repo" } } };
  const other = { ...JSON.parse(good), lock_version: 2 };
  for (const bad of ["garbage\n", JSON.stringify(other), JSON.stringify(gutted)]) {
    writeFileSync(lockFile, bad);
    const run = await wayfinder(["get", project], env);
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stderr,
      /^wayfinder: warning: Replaced unreadable lock '.*wayfinder\.lock' \([^\n]+\)\n$/,
    );
    assert.match(run.stdout, /^Wrote /m);
    assert.equal(readFileSync(lockFile, "utf8"), good);
  }
});

Deno.test("get reports an unknown top-level key of wayfinder.json", async () => {
  const project = await exampleProject("acme-notes", repo.dir);
  const file = join(project, "wayfinder.json");
  const binding = JSON.parse(readFileSync(file, "utf8"));
  writeFileSync(
    file,
    JSON.stringify({ ...binding, embeding: { model: "typo" }, search: { limit: 3 } }),
  );
  const run = await wayfinder(["get", project], env);
  assert.equal(run.code, 0, run.stderr);
  // Once: main.ts warns for every command; get adds no second line.
  assert.equal(run.stderr.match(/warning: Unknown top-level key 'embeding'/g)?.length, 1);
  assert.doesNotMatch(run.stderr, /'search'/);
});

Deno.test("get refuses a folder of the user's own where a skill goes, before writing anything", async () => {
  const source = await profileRepo();
  const project = await exampleProject("acme-notes", source.dir);
  const mine = join(project, ".claude/skills/acme-notes");
  mkdirSync(mine, { recursive: true });
  writeFileSync(join(mine, "MINE.md"), "my notes\n");
  const fresh = await wayfinder(["get", project], env);
  assert.equal(fresh.code, 2, fresh.stderr);
  assert.match(
    fresh.stderr,
    /^wayfinder: '.*\.claude\/skills\/acme-notes' is in the way of Profile 'acme-notes''s skill .*move that folder away[^\n]*\n$/,
  );
  assert.deepEqual(Deno.readDirSync(mine).toArray().map((e) => e.name), ["MINE.md"]);
  assert.ok(!existsSync(join(project, "wayfinder.lock")));
  assert.ok(!existsSync(join(project, ".agents/skills/acme-notes")));
  // Once get has installed the skills, a user's folder in the way keeps the lock and them.
  Deno.removeSync(mine, { recursive: true });
  assert.equal((await wayfinder(["get", project], env)).code, 0);
  const lockText = readFileSync(join(project, "wayfinder.lock"), "utf8");
  const agents = readFileSync(skillOf(project, ".agents/skills"), "utf8");
  Deno.removeSync(mine, { recursive: true });
  mkdirSync(mine);
  writeFileSync(join(mine, "MINE.md"), "my notes\n");
  await commitFiles(source.dir, { [SKILL]: "# A newer skill\n" });
  const update = await wayfinder(["get", project, "--update"], env);
  assert.equal(update.code, 2, update.stderr);
  assert.equal(readFileSync(join(mine, "MINE.md"), "utf8"), "my notes\n");
  assert.equal(readFileSync(join(project, "wayfinder.lock"), "utf8"), lockText);
  assert.equal(readFileSync(skillOf(project, ".agents/skills"), "utf8"), agents);
});

/** A project bound to a one-package repository whose skill folder `setUp` lays out. */
async function skillProject(setUp: (pkg: string) => void) {
  const files = {
    "pkg/wayfinder-profile.json": JSON.stringify({ format: 2, id: "s", skill: "skill" }),
    "pkg/README.md": "# s\n",
  };
  const source = await gitRepo(files);
  setUp(join(source.dir, "pkg"));
  await commitFiles(source.dir, {});
  const project = await Deno.makeTempDir();
  writeFileSync(
    join(project, "wayfinder.json"),
    JSON.stringify({ version: 1, profiles: { s: { source: { git: source.dir, path: "pkg" } } } }),
  );
  return project;
}

Deno.test("get installs no skill that is a link or holds one leading out of it, and writes through none", async () => {
  const host = await Deno.makeTempDir({ prefix: "wayfinder-host-" });
  writeFileSync(join(host, "secret.txt"), "host\n");
  const cases: [string, (pkg: string) => void, RegExp][] = [
    [
      "a linked skill folder",
      (pkg) => Deno.symlinkSync(host, join(pkg, "skill")),
      /leads out of the package/,
    ],
    ["a link inside to the host", (pkg) => {
      mkdirSync(join(pkg, "skill"));
      writeFileSync(join(pkg, "skill", "SKILL.md"), "# s\n");
      Deno.symlinkSync(host, join(pkg, "skill", "host"));
    }, /skill holds a link leading out of it \('.*skill\/host'\)/],
    ["a marker linked to a host file", (pkg) => {
      mkdirSync(join(pkg, "skill"));
      Deno.symlinkSync(join(host, "secret.txt"), join(pkg, "skill", ".wayfinder-skill"));
    }, /skill holds a link leading out of it/],
  ];
  for (const [what, setUp, message] of cases) {
    const project = await skillProject(setUp);
    const run = await wayfinder(["get", project], env);
    assert.equal(run.code, 2, `${what}: ${run.stderr}`);
    assert.match(run.stderr, message, what);
    assert.ok(!existsSync(join(project, ".claude/skills/s")), what);
    assert.ok(!existsSync(join(project, "wayfinder.lock")), what);
    assert.deepEqual(Deno.readDirSync(host).toArray().map((e) => e.name), ["secret.txt"], what);
    assert.equal(readFileSync(join(host, "secret.txt"), "utf8"), "host\n", what);
  }
  // A link that stays inside the skill is copied as that link, not as what it points to.
  const project = await skillProject((pkg) => {
    mkdirSync(join(pkg, "skill"));
    writeFileSync(join(pkg, "skill", "SKILL.md"), "# s\n");
    Deno.symlinkSync("SKILL.md", join(pkg, "skill", "README.md"));
  });
  const run = await wayfinder(["get", project], env);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(Deno.readLinkSync(join(project, ".claude/skills/s/README.md")), "SKILL.md");
});

Deno.test("get with no Profile bound any more removes the lock and the skills it installed", async () => {
  const project = await exampleProject("acme-notes", repo.dir);
  assert.equal((await wayfinder(["get", project], env)).code, 0);
  mkdirSync(join(project, ".claude/skills/mine"));
  writeFileSync(join(project, ".claude/skills/mine/SKILL.md"), "# Mine\n");
  writeFileSync(join(project, "wayfinder.json"), '{"version": 1, "profiles": {}}');
  const run = await wayfinder(["get", project], env);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^wayfinder\.json binds no Profiles\nRemoved .*wayfinder\.lock\n/);
  assert.match(run.stdout, /^Removed skill .*\.claude\/skills\/acme-notes$/m);
  assert.match(run.stdout, /^Removed skill .*\.agents\/skills\/acme-notes$/m);
  assert.ok(!existsSync(join(project, "wayfinder.lock")));
  assert.ok(!existsSync(join(project, ".agents/skills/acme-notes")));
  assert.ok(existsSync(join(project, ".claude/skills/mine/SKILL.md")));
  const validate = await wayfinder(["validate", join(project, "knowledge")], env);
  assert.equal(validate.code, 0, validate.stdout + validate.stderr);
  // Nothing left to remove: get has nothing to do, as on a project that never bound one.
  const again = await wayfinder(["get", project], env);
  assert.equal(again.code, 2);
  assert.match(again.stderr, /binds no Profiles: name one under 'profiles'/);
});
