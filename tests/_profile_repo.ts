/**
 * Test helpers for Profiles: a local git repository laid out like the
 * peer's (fixtures/okf/peer) to serve as a Profile source, and project
 * copies whose wayfinder.json points at it.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { copyTree, REPO } from "./_run.ts";

export const PEER = join(REPO, "fixtures", "okf", "peer");

async function git(cwd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.email=test@example.test", "-c", "user.name=test", ...args],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).trim();
}

/** A git repository holding the peer's Profiles, each with a small skill; returns its path and HEAD. */
export async function profileRepo(): Promise<{ dir: string; head: string }> {
  const dir = await copyTree(PEER);
  for (const pkg of ["profiles/bitwild", "examples/profiles/two-rule"]) {
    mkdirSync(join(dir, pkg, "skill"), { recursive: true });
    writeFileSync(join(dir, pkg, "skill", "SKILL.md"), `# Skill of ${pkg}\n`);
  }
  await git(dir, "init", "-q", "-b", "main");
  await git(dir, "add", "-A");
  await git(dir, "commit", "-q", "-m", "profiles");
  return { dir, head: await git(dir, "rev-parse", "HEAD") };
}

/** Adds a commit to the repository and returns the new HEAD. */
export async function commitChange(dir: string): Promise<string> {
  writeFileSync(join(dir, "CHANGES.md"), `changed ${Date.now()}\n`);
  await git(dir, "add", "-A");
  await git(dir, "commit", "-q", "-m", "change");
  return await git(dir, "rev-parse", "HEAD");
}

/** A git repository holding `files` (path → text) in one commit; returns its path and HEAD. */
export async function gitRepo(
  files: Record<string, string>,
): Promise<{ dir: string; head: string }> {
  const dir = await Deno.makeTempDir({ prefix: "wayfinder-source-" });
  await git(dir, "init", "-q", "-b", "main");
  return { dir, head: await commitFiles(dir, files) };
}

/** Writes `files` (path → text) into the repository, removes `remove`, commits, returns HEAD. */
export async function commitFiles(
  dir: string,
  files: Record<string, string>,
  remove: string[] = [],
): Promise<string> {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  for (const path of remove) await git(dir, "rm", "-q", "-r", "--", path);
  await git(dir, "add", "-A");
  await git(dir, "commit", "-q", "-m", "change");
  return await git(dir, "rev-parse", "HEAD");
}

/** A copy of a peer example project whose Profile source is the local repository `source`. */
export async function exampleProject(name: string, source: string): Promise<string> {
  const project = await copyTree(join(PEER, "examples", name));
  const file = join(project, "wayfinder.json");
  const binding = readFileSync(file, "utf8").replace("https://github.com/btwld/wayfinder", source);
  writeFileSync(file, binding);
  return project;
}

/** `exampleProject("acme-notes", source)` bound to the two-rule Profile's child instead of itself. */
export async function childProfileProject(source: string): Promise<string> {
  const project = await exampleProject("acme-notes", source);
  const file = join(project, "wayfinder.json");
  const binding = readFileSync(file, "utf8")
    .replace("examples/profiles/two-rule", "examples/profiles/two-rule-child");
  writeFileSync(file, binding);
  return project;
}
