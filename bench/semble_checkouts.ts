/**
 * Brings the code-search benchmark's repositories to a folder of checkouts, each at the
 * revision its `repos.json` pins, with git: `git init`, `git fetch --depth 1 <url> <rev>`
 * (a full fetch where the host refuses a revision by id), `git checkout --detach`.
 * A checkout already at its revision is left as it is. Where a repository cannot be
 * brought (no network, no such revision) it says so in one line and goes on; it exits 2
 * when any repository is missing. It never builds or runs what it fetches: no submodules,
 * no hooks, no LFS smudging.
 *
 *   deno run -A bench/semble_checkouts.ts <repos.json> <folder> [--only name,name]
 */
import { join } from "node:path";
import { parseArgs } from "node:util";

export interface RepoSpec {
  name: string;
  language: string;
  url: string;
  revision: string;
  benchmarkRoot?: string;
}

export type CheckoutOutcome =
  | { name: string; status: "ready"; revision: string; fetched: boolean }
  | { name: string; status: "missing"; reason: string };

/** Reads `repos.json`'s list of `{name, language, url, revision, benchmark_root?}`. */
export function parseRepos(text: string): RepoSpec[] {
  const raw: unknown = JSON.parse(text);
  if (!Array.isArray(raw)) throw new Error("repos.json is not a list");
  return raw.map((entry, at) => {
    const { name, language, url, revision, benchmark_root } = entry ?? {};
    for (const [key, value] of Object.entries({ name, language, url, revision })) {
      if (typeof value !== "string" || value === "") {
        throw new Error(`repos.json entry ${at} has no ${key}`);
      }
    }
    // The name becomes a folder of the target: one plain path segment only.
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name) || name.includes("..")) {
      throw new Error(`repos.json entry ${at} has a name unfit for a folder: ${name}`);
    }
    if (!/^[0-9a-f]{7,40}$/.test(revision)) {
      throw new Error(`repos.json entry ${at} (${name}) pins no commit id: ${revision}`);
    }
    return benchmark_root ? { name, language, url, revision, benchmarkRoot: benchmark_root } : {
      name,
      language,
      url,
      revision,
    };
  });
}

interface GitResult {
  ok: boolean;
  out: string;
  err: string;
}

async function git(cwd: string, ...args: string[]): Promise<GitResult> {
  const out = await new Deno.Command("git", {
    // No hooks, no submodules, no LFS filters, no prompts for credentials.
    args: ["-c", "core.hooksPath=/dev/null", "-c", "submodule.recurse=false", ...args],
    cwd,
    env: { GIT_TERMINAL_PROMPT: "0", GIT_LFS_SKIP_SMUDGE: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes).trim();
  return { ok: out.success, out: text(out.stdout), err: text(out.stderr) };
}

function lastLine(text: string): string {
  return text.split("\n").filter((line) => line.trim() !== "").at(-1) ?? "git failed";
}

async function headOf(dir: string): Promise<string | undefined> {
  try {
    await Deno.stat(join(dir, ".git"));
  } catch {
    return undefined;
  }
  const head = await git(dir, "rev-parse", "HEAD");
  return head.ok ? head.out : undefined;
}

/** Brings one repository to `<folder>/<name>` at its pinned revision. */
export async function checkout(spec: RepoSpec, folder: string): Promise<CheckoutOutcome> {
  const dir = join(folder, spec.name);
  const matches = (head: string | undefined) =>
    head !== undefined && head.startsWith(spec.revision);
  if (matches(await headOf(dir))) {
    return { name: spec.name, status: "ready", revision: spec.revision, fetched: false };
  }
  try {
    const entries = [...Deno.readDirSync(dir)];
    if (entries.length > 0 && !entries.some((entry) => entry.name === ".git")) {
      return { name: spec.name, status: "missing", reason: `${dir} exists and is not a checkout` };
    }
  } catch {
    Deno.mkdirSync(dir, { recursive: true });
  }
  const init = await git(dir, "init", "--quiet");
  if (!init.ok) return { name: spec.name, status: "missing", reason: lastLine(init.err) };
  let target = "FETCH_HEAD";
  const shallow = await git(dir, "fetch", "--quiet", "--depth", "1", spec.url, spec.revision);
  if (!shallow.ok) {
    // Some hosts serve only advertised refs: fetch the branches, then look for the revision.
    const full = await git(dir, "fetch", "--quiet", spec.url, "+refs/heads/*:refs/remotes/src/*");
    if (!full.ok) {
      return {
        name: spec.name,
        status: "missing",
        reason: `cannot fetch ${spec.url}: ${lastLine(full.err)}`,
      };
    }
    target = spec.revision;
  }
  const checkedOut = await git(dir, "checkout", "--quiet", "--detach", target);
  const head = await headOf(dir);
  if (!checkedOut.ok || !matches(head)) {
    return {
      name: spec.name,
      status: "missing",
      reason: `${spec.url} has no revision ${spec.revision}: ${lastLine(checkedOut.err)}`,
    };
  }
  return { name: spec.name, status: "ready", revision: head!, fetched: true };
}

/** One line a repository, for a person reading the run. */
export function describe(outcome: CheckoutOutcome): string {
  if (outcome.status === "missing") return `${outcome.name}: cannot bring it: ${outcome.reason}`;
  const how = outcome.fetched ? "fetched" : "already there";
  return `${outcome.name}: ready at ${outcome.revision.slice(0, 12)} (${how})`;
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    options: { only: { type: "string" } },
    allowPositionals: true,
  });
  if (positionals.length !== 2) {
    console.error(
      "wayfinder: usage: bench/semble_checkouts.ts <repos.json> <folder> [--only name,name]",
    );
    return 2;
  }
  const [reposPath, folder] = positionals;
  let specs: RepoSpec[];
  try {
    specs = parseRepos(Deno.readTextFileSync(reposPath));
  } catch (error) {
    console.error(`wayfinder: ${reposPath}: ${(error as Error).message}`);
    return 2;
  }
  if (values.only !== undefined) {
    const wanted = new Set(values.only.split(",").map((name) => name.trim()));
    const unknown = [...wanted].filter((name) => !specs.some((spec) => spec.name === name));
    if (unknown.length > 0) {
      console.error(`wayfinder: --only names repositories not in ${reposPath}: ${unknown}`);
      return 2;
    }
    specs = specs.filter((spec) => wanted.has(spec.name));
  }
  Deno.mkdirSync(folder, { recursive: true });
  let missing = 0;
  for (const spec of specs) {
    const outcome = await checkout(spec, folder);
    if (outcome.status === "missing") missing++;
    console.log(describe(outcome));
  }
  console.log(`${specs.length - missing} of ${specs.length} repositories ready in ${folder}`);
  return missing === 0 ? 0 : 2;
}

if (import.meta.main) Deno.exit(await main());
