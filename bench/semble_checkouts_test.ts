import assert from "node:assert/strict";
import { join } from "node:path";
import { checkout, describe, parseRepos } from "./semble_checkouts.ts";

async function git(cwd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main", ...args],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).trim();
}

/** A local repository with two commits; returns its path and both commit ids. */
async function sourceRepo(root: string): Promise<{ url: string; first: string; second: string }> {
  const url = join(root, "source");
  Deno.mkdirSync(url);
  await git(url, "init", "--quiet");
  Deno.writeTextFileSync(join(url, "mux.go"), "package chi // first\n");
  await git(url, "add", ".");
  await git(url, "commit", "--quiet", "-m", "first");
  const first = await git(url, "rev-parse", "HEAD");
  Deno.writeTextFileSync(join(url, "mux.go"), "package chi // second\n");
  await git(url, "commit", "--quiet", "-am", "second");
  return { url, first, second: await git(url, "rev-parse", "HEAD") };
}

Deno.test("checkout() brings the pinned revision, not the newest, and keeps it on a rerun", async () => {
  const root = Deno.makeTempDirSync();
  try {
    const { url, first, second } = await sourceRepo(root);
    const folder = join(root, "checkouts");
    for (const revision of [first, second]) {
      const name = revision === first ? "old" : "new";
      const spec = { name, language: "go", url, revision };
      const fetched = await checkout(spec, folder);
      assert.deepEqual(fetched, { name, status: "ready", revision, fetched: true });
      const text = Deno.readTextFileSync(join(folder, name, "mux.go"));
      assert.equal(text, `package chi // ${revision === first ? "first" : "second"}\n`);
      const again = await checkout(spec, folder);
      assert.equal(again.status === "ready" && again.fetched, false);
      assert.match(describe(again), new RegExp(`^${name}: ready at ${revision.slice(0, 12)} `));
    }
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("checkout() says in one line why a repository cannot be brought", async () => {
  const root = Deno.makeTempDirSync();
  try {
    const { url } = await sourceRepo(root);
    const folder = join(root, "checkouts");
    const gone = await checkout(
      { name: "gone", language: "go", url: join(root, "nowhere"), revision: "a".repeat(40) },
      folder,
    );
    assert.equal(gone.status, "missing");
    assert.match(describe(gone), /^gone: cannot bring it: cannot fetch .*nowhere/);
    assert.doesNotMatch(describe(gone), /\n/);

    const noRevision = await checkout(
      { name: "chi", language: "go", url, revision: "b".repeat(40) },
      folder,
    );
    assert.equal(noRevision.status, "missing");
    assert.match(describe(noRevision), /has no revision b{40}/);

    Deno.mkdirSync(join(folder, "taken"));
    Deno.writeTextFileSync(join(folder, "taken", "notes.txt"), "mine\n");
    const taken = await checkout(
      { name: "taken", language: "go", url, revision: "c".repeat(40) },
      folder,
    );
    assert.match(describe(taken), /exists and is not a checkout/);
    assert.equal(Deno.readTextFileSync(join(folder, "taken", "notes.txt")), "mine\n");
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("parseRepos() reads the benchmark's list and refuses unsafe names and loose pins", () => {
  const entry = { name: "chi", language: "go", url: "u", revision: "a54874f0e2f1" };
  assert.deepEqual(parseRepos(JSON.stringify([{ ...entry, benchmark_root: "src" }])), [
    { ...entry, benchmarkRoot: "src" },
  ]);
  assert.deepEqual(parseRepos(JSON.stringify([{ ...entry, benchmark_root: null }])), [entry]);
  assert.throws(
    () => parseRepos(JSON.stringify([{ ...entry, name: "../x" }])),
    /unfit for a folder/,
  );
  assert.throws(
    () => parseRepos(JSON.stringify([{ ...entry, revision: "main" }])),
    /pins no commit/,
  );
  assert.throws(() => parseRepos(JSON.stringify([{ ...entry, url: "" }])), /has no url/);
  assert.throws(() => parseRepos("{}"), /not a list/);
});
