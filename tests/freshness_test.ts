/**
 * `index` on a current tree loads no model; `search` says when the tree may
 * have moved on without walking it (a watcher's state, else folder stats),
 * and exactly when asked (`--check-fresh`, `status`).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openConfiguredCorpus } from "../src/cli/mod.ts";
import { openCorpus, watchCorpus } from "../src/corpus/mod.ts";
import { FOLDERS_FILE } from "../src/corpus/folder_stamps.ts";
import { WATCH_FILE, writeWatchState } from "../src/corpus/watch_state.ts";
import { acquireIndexLock, readIndexLock } from "../src/store/mod.ts";
import { copyTree, REPO, tinyModel, wayfinder } from "./_run.ts";
import { SERVICES, tinyCorpusOptions, tinyEnv } from "./_env.ts";

Deno.test("index of a current bundle returns without loading the model", async () => {
  const root = await copyTree(join(REPO, "fixtures", "okf", "knowledge"));
  const models = await Deno.makeTempDir();
  const model = join(models, "tiny.gguf");
  await Deno.copyFile(tinyModel(), model);
  await Deno.copyFile(
    tinyModel().replace(/\.gguf$/, ".manifest.json"),
    join(models, "tiny.manifest.json"),
  );
  const env = await tinyEnv(model);
  assert.equal((await wayfinder(["index", root], env)).code, 0);
  // Same size, other bytes: loading this file would fail, so success proves it was not loaded.
  const { size } = await Deno.stat(model);
  await Deno.writeFile(model, new Uint8Array(size));
  const again = await wayfinder(["index", root], env);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /is current; nothing to update/);
});

/** The notices of a `--output json` search, which must succeed. */
async function searchNotices(
  root: string,
  env: Record<string, string>,
  ...extra: string[]
): Promise<string[]> {
  const run = await wayfinder(["search", root, ...extra, "--output", "json"], env);
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout).notices;
}

Deno.test("search tells files added or deleted from folder stats; --check-fresh and status count them", async () => {
  const root = await copyTree(SERVICES);
  const env = await tinyEnv();
  assert.equal((await wayfinder(["index", root], env)).code, 0);
  assert.deepEqual(await searchNotices(root, env, "token"), []);
  await Deno.writeTextFile(join(root, "extra.dart"), "void extra() {}\n");
  await Deno.remove(join(root, "payment_service.dart"));
  const cheap = (await searchNotices(root, env, "token", "--mode", "lexical")).join("\n");
  assert.match(
    cheap,
    /the index may be behind the tree: 1 folder changed since it was built \(files added, removed or renamed there\); run 'wayfinder index \S+', or run 'wayfinder status \S+' \(or search with --check-fresh\) for the exact count/,
  );
  const exact = await wayfinder(["search", root, "token", "--check-fresh"], env);
  assert.equal(exact.code, 0, exact.stderr);
  assert.match(
    exact.stderr,
    /^note: the index is behind the tree \(0 changed, 1 added, 1 deleted since it was built\); run 'wayfinder index /m,
  );
  const status = JSON.parse((await wayfinder(["status", root, "--output", "json"], env)).stdout);
  assert.deepEqual([status.stale.added, status.stale.deleted], [
    ["extra.dart"],
    ["payment_service.dart"],
  ]);
  // A run takes them in and records the folders again: the notice goes.
  assert.equal((await wayfinder(["index", root], env)).code, 0);
  assert.deepEqual(await searchNotices(root, env, "token"), []);
});

Deno.test("search walks no tree: an edit in place goes unseen unless a hit cites the file", async () => {
  const root = await copyTree(SERVICES);
  const env = await tinyEnv();
  assert.equal((await wayfinder(["index", root], env)).code, 0);
  const path = join(root, "payment_service.dart");
  await Deno.writeTextFile(path, (await Deno.readTextFile(path)).replace("class", "class  "));
  // Lexical hits for a word only in another file: nothing cites the edited one.
  const elsewhere = await wayfinder(
    ["search", root, "encryptData", "--mode", "lexical", "--limit", "1", "--output", "json"],
    env,
  );
  const answer = JSON.parse(elsewhere.stdout);
  assert.notEqual(answer.matches[0].chunk.sourcePath, "payment_service.dart");
  assert.deepEqual(answer.notices, [], "the folder check cannot see an edit in place");
  // A hit in the edited file says its lines may not match.
  const cited = await searchNotices(
    root,
    env,
    "payment",
    "--mode",
    "lexical",
    "--path",
    "payment_service.dart",
  );
  assert.deepEqual(cited, [
    `1 cited file changed or gone since indexing (payment_service.dart): its lines may not match the hits; run 'wayfinder index ${root}'`,
  ]);
  // The exact walk and status see it.
  assert.match(
    (await searchNotices(root, env, "encryptData", "--mode", "lexical", "--check-fresh")).join(),
    /the index is behind the tree \(1 changed, 0 added, 0 deleted since it was built\)/,
  );
  const status = JSON.parse((await wayfinder(["status", root, "--output", "json"], env)).stdout);
  assert.deepEqual(status.stale.changed, ["payment_service.dart"]);
});

Deno.test("an index without a folder record is checked the exact way", async () => {
  const root = await copyTree(SERVICES);
  const env = await tinyEnv();
  assert.equal((await wayfinder(["index", root], env)).code, 0);
  const status = JSON.parse((await wayfinder(["status", root, "--output", "json"], env)).stdout);
  await Deno.remove(join(status.indexDir, FOLDERS_FILE));
  const path = join(root, "payment_service.dart");
  await Deno.writeTextFile(path, `${await Deno.readTextFile(path)}\n`);
  assert.match(
    (await searchNotices(root, env, "encryptData", "--mode", "lexical")).join(),
    /the index is behind the tree \(1 changed, 0 added, 0 deleted since it was built\)/,
  );
  // status found it stale, so it vouches for nothing; a run records the folders again.
  assert.equal((await wayfinder(["index", root], env)).code, 0);
  assert.ok(await Deno.stat(join(status.indexDir, FOLDERS_FILE)));
  // So does an exact check that finds the tree current.
  await Deno.remove(join(status.indexDir, FOLDERS_FILE));
  assert.deepEqual(await searchNotices(root, env, "encryptData", "--mode", "lexical"), []);
  assert.ok(await Deno.stat(join(status.indexDir, FOLDERS_FILE)));
});

Deno.test("Corpus.search checks exactly with { checkFresh: true }", async () => {
  const root = await copyTree(SERVICES);
  const corpus = await openCorpus(root, await tinyCorpusOptions());
  try {
    await corpus.index();
    await Deno.writeTextFile(join(root, "extra.dart"), "void extra() {}\n");
    const cheap = await corpus.search("token", { mode: "lexical" });
    assert.match(
      cheap.notices.join(),
      /may be behind the tree: 1 folder changed since it was built/,
    );
    const exact = await corpus.search("token", { mode: "lexical", checkFresh: true });
    assert.match(exact.notices.join(), /is behind the tree \(0 changed, 1 added, 0 deleted/);
  } finally {
    await corpus.close();
  }
});

Deno.test("a live watcher's state answers for the tree; a stale one is ignored", async () => {
  const root = await copyTree(SERVICES);
  const corpus = await openCorpus(root, await tinyCorpusOptions());
  const indexDir = (corpus as unknown as { indexDir: string }).indexDir;
  try {
    await corpus.index();
    const generation = (await Deno.readTextFile(join(indexDir, "current"))).trim();
    // This process takes the lock as a watcher does and says changes wait.
    const lock = await acquireIndexLock(indexDir, root);
    const since = readIndexLock(indexDir)!.since;
    try {
      await writeWatchState(indexDir, { pid: Deno.pid, since, generation, waiting: 2 });
      await Deno.writeTextFile(join(root, "extra.dart"), "void extra() {}\n");
      assert.deepEqual((await corpus.search("token", { mode: "lexical" })).notices, [
        `the index may be behind the tree: watch (pid ${Deno.pid}) is updating it (2 changed paths not taken in yet)`,
      ]);
      // Up to date: the folder that moved is the watcher's business, not the search's.
      await writeWatchState(indexDir, { pid: Deno.pid, since, generation, waiting: 0 });
      assert.deepEqual((await corpus.search("token", { mode: "lexical" })).notices, []);
      // A state whose lock record differs (a dead watcher's, a reused pid) is not trusted.
      await writeWatchState(indexDir, { pid: Deno.pid, since: "then", generation, waiting: 0 });
      assert.match(
        (await corpus.search("token", { mode: "lexical" })).notices.join(),
        /may be behind the tree: 1 folder changed/,
      );
    } finally {
      await lock.release();
    }
  } finally {
    await corpus.close();
  }
});

Deno.test("watchCorpus() keeps its state while it watches and removes it when it stops", async () => {
  const root = await copyTree(SERVICES);
  const corpus = await openConfiguredCorpus(root, await tinyCorpusOptions());
  const stop = new AbortController();
  let updates = 0;
  const watcher = watchCorpus(corpus, { signal: stop.signal, onUpdate: () => updates++ });
  const state = () =>
    Deno.readTextFile(join(corpus.indexDir, WATCH_FILE)).then(JSON.parse, () => null);
  const until = async (ok: () => Promise<boolean>) => {
    const deadline = Date.now() + 20_000;
    while (!await ok()) {
      assert.ok(Date.now() < deadline, "timed out");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  try {
    await until(async () => (await state())?.waiting === 0 && updates > 0);
    const live = (await Deno.readTextFile(join(corpus.indexDir, "current"))).trim();
    assert.equal((await state()).generation, live);
    assert.deepEqual((await corpus.search("token", { mode: "lexical" })).notices, []);
    await Deno.writeTextFile(join(root, "extra.dart"), "void extra() {}\n");
    await until(async () => (await state())?.generation !== live && (await state()).waiting === 0);
    assert.deepEqual((await corpus.search("extra", { mode: "lexical" })).notices, []);
  } finally {
    stop.abort();
    await watcher;
    await corpus.close();
  }
  assert.equal(await state(), null);
});
