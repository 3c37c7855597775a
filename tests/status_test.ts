/**
 * `status` and `index --events`: every state read from disk without loading
 * a model, and the event stream scripts read. Real index, tiny model.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Embedder } from "../src/mod.ts";
import { openConfiguredCorpus } from "../src/cli/mod.ts";
import { LlamaEmbedder } from "../src/embed/mod.ts";
import { acquireIndexLock } from "../src/store/mod.ts";
import { copyTree, realModel, tinyModel, tinyModelWithBudget, wayfinder } from "./_run.ts";
import { SERVICES, tinyEnv } from "./_env.ts";

/** One line over the tiny model's 512 tokens that no split can shorten. */

async function setup() {
  const root = await copyTree(SERVICES);
  const env = await tinyEnv();
  const status = async (...flags: string[]) => {
    const run = await wayfinder(["status", root, "--output", "json", ...flags], env);
    assert.equal(run.code, 0, run.stderr);
    return JSON.parse(run.stdout);
  };
  return { root, env, status };
}

Deno.test("status warns on stderr about an unknown top-level key of wayfinder.json; --output json stays JSON", async () => {
  const { root, status, env } = await setup();
  await Deno.writeTextFile(
    join(root, "wayfinder.json"),
    JSON.stringify({ embeding: { model: "typo.gguf" }, search: { limit: 3 } }),
  );
  const run = await wayfinder(["status", root, "--output", "json"], env);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(JSON.parse(run.stdout).state, "absent");
  assert.equal(
    run.stderr,
    `wayfinder: warning: Unknown top-level key 'embeding' in '${
      join(root, "wayfinder.json")
    }': wayfinder does not read it; did you mean 'embedding'?\n`,
  );
  assert.equal((await status()).state, "absent");
});

Deno.test("status reports absent, ready and stale with what changed, exit 0 each time", async () => {
  const { root, env, status } = await setup();
  const absent = await wayfinder(["status", root], env);
  assert.equal(absent.code, 0);
  assert.match(absent.stdout, /^absent {2}/);
  assert.match(absent.stdout, new RegExp(`\n  hint {5}run 'wayfinder index ${root}'\n$`));
  assert.equal((await status()).hint, `run 'wayfinder index ${root}'`);

  assert.equal((await wayfinder(["index", root], env)).code, 0);
  const ready = await status();
  assert.equal(ready.state, "ready");
  assert.equal(ready.files, 5);
  assert.ok(ready.chunks > 50);
  assert.equal(ready.model.name, "wayfinder-tiny-test");
  assert.match(ready.generation, /^gen-/);
  assert.ok(ready.diskBytes > 10_000, String(ready.diskBytes));
  assert.ok(Date.now() - Date.parse(ready.updatedAt) < 120_000);

  await Deno.writeTextFile(join(root, "auth_service.dart"), "// rewritten\n", { append: true });
  await Deno.writeTextFile(join(root, "notes.txt"), "new notes\n");
  await Deno.remove(join(root, "payment_service.dart"));
  const stale = await status();
  assert.equal(stale.state, "stale");
  assert.deepEqual(stale.stale.changed, ["auth_service.dart"]);
  assert.deepEqual(stale.stale.added, ["notes.txt"]);
  assert.deepEqual(stale.stale.deleted, ["payment_service.dart"]);
  assert.deepEqual(stale.stale.reasons, []);
  assert.equal(stale.hint, undefined, "a plain index run is the fix: no hint");

  const missing = await wayfinder(["status", join(root, "no-such-folder")], env);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /^wayfinder: '.*no-such-folder' does not exist\n$/);

  const text = await wayfinder(["status", root], env);
  assert.match(text.stdout, /^stale {2}/);
  assert.match(text.stdout, /changed {2}1 \(auth_service\.dart\)/);
});

Deno.test("status names another model from its manifest without loading it", async () => {
  const { root, env, status } = await setup();
  assert.equal((await wayfinder(["index", root], env)).code, 0);
  // Garbage weights with a manifest that matches their size: loading them would fail.
  const dir = await Deno.makeTempDir();
  const model = join(dir, "other.gguf");
  await Deno.writeFile(model, new Uint8Array(1000).fill(7));
  await Deno.writeTextFile(
    join(dir, "other.manifest.json"),
    JSON.stringify({ name: "other-model", sha256: "ab".repeat(32), bytes: 1000 }),
  );
  const other = await status("--model", model);
  assert.equal(other.state, "stale");
  assert.deepEqual(other.stale.reasons, [
    "model wayfinder-tiny-test → other-model (other weights)",
  ]);
  // Only a rebuild mends another model: the hint is the one search and index name.
  assert.equal(other.hint, `run 'wayfinder index ${root} --model ${model} --rebuild'`);
  const policy = await status("--long-input", "truncate", "--max-chunk-chars", "700");
  assert.deepEqual(policy.stale.reasons, [
    "maxChunkChars 1000 → 700",
    "longInput reject → truncate",
  ]);
  assert.equal(
    policy.hint,
    `run 'wayfinder index ${root} --long-input truncate --max-chunk-chars 700 --rebuild'`,
  );
  const rebuild = `run 'wayfinder index ${root} --long-input truncate --rebuild'`;
  const search = await wayfinder(["search", root, "token", "--long-input", "truncate"], env);
  assert.ok(search.stderr.trimEnd().endsWith(`; ${rebuild}`), search.stderr);
  const text = await wayfinder(["status", root, "--long-input", "truncate"], env);
  assert.ok(text.stdout.endsWith(`\n  hint     ${rebuild}\n`), text.stdout);
  const broken = join(dir, "missing.gguf");
  const missing = await status("--model", broken);
  assert.match(missing.stale.reasons[0], /^model missing: .*missing\.gguf/);
  assert.equal(missing.hint, undefined, "a rebuild cannot load a missing model");

  // The same weights under a manifest with another token budget load another way.
  const budget = await tinyModelWithBudget(64);
  const setUp = await status("--model", budget);
  assert.deepEqual(setUp.stale.reasons, [
    `model wayfinder-tiny-test with the manifest beside ${budget} loads another way (maxTokens 512 → 64)`,
  ]);
  assert.equal(setUp.hint, `run 'wayfinder index ${root} --model ${budget} --rebuild'`);
  const refused = await wayfinder(["index", root, "--model", budget], env);
  assert.match(refused.stderr, /was set up another way when it was built \(maxTokens 512 → 64\)/);
});

Deno.test("status reports a failed run until a later run succeeds, and a damaged format as stale", async () => {
  const { root, env, status } = await setup();
  assert.equal((await wayfinder(["index", root], env)).code, 0);
  // Another long-input policy than the index was built with: the run fails inside the writer.
  await Deno.writeTextFile(join(root, "new.dart"), "void added() {}\n");
  const failedRun = await wayfinder(["index", root, "--long-input", "truncate"], env);
  assert.equal(failedRun.code, 2);
  const failed = await status();
  assert.equal(failed.state, "failed");
  assert.equal(failed.failure.code, "stale_index");
  assert.match(failed.failure.message, /--rebuild/);
  assert.equal(failed.files, 5, "the previous generation is still the live one");

  assert.equal((await wayfinder(["index", root], env)).code, 0);
  assert.equal((await status()).state, "ready");

  const live = (await Deno.readTextFile(join(failed.indexDir, "current"))).trim();
  const manifest = join(failed.indexDir, live, "manifest.json");
  const json = JSON.parse(await Deno.readTextFile(manifest));
  await Deno.writeTextFile(manifest, JSON.stringify({ ...json, formatVersion: 99 }));
  const format = await status();
  assert.equal(format.state, "stale");
  assert.match(format.stale.reasons[0], /built by format 99/);
});

Deno.test("status reports indexing with the running writer's progress", async () => {
  const root = await copyTree(SERVICES);
  const dataDir = await Deno.makeTempDir();
  const real = await LlamaEmbedder.create({ modelPath: tinyModel(), threads: 1 });
  const observer = await openConfiguredCorpus(root, { dataDir, embedder: { model: tinyModel() } });
  const seen: string[] = [];
  // An embedder that looks at the status from outside while the writer waits on it.
  const watching: Embedder = {
    identity: real.identity,
    countTokens: (text, kind) => real.countTokens(text, kind),
    embedQuery: (text) => real.embedQuery(text),
    async embedDocuments(texts) {
      for (let i = 0; i < 250 && seen.length === 0; i++) {
        const status = await observer.status();
        if (status.state === "indexing") seen.push(`${status.progress!.phase} ${status.lock?.pid}`);
        else await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return real.embedDocuments(texts);
    },
    close: () => Promise.resolve(),
  };
  const writer = await openConfiguredCorpus(root, { dataDir, embedder: watching });
  try {
    await writer.index();
    assert.equal(seen.length, 1, "status saw the run");
    assert.match(seen[0]!, new RegExp(`^(walk|chunk|embed) ${Deno.pid}$`));
    const after = await observer.status();
    assert.equal(after.state, "ready");
    assert.equal(after.progress, undefined, "the progress file is gone");
  } finally {
    await real.close();
  }
});

Deno.test("index --events writes started, file, batch and published; failed on error", async () => {
  const { root, env } = await setup();
  const parse = (stderr: string) =>
    stderr.trim().split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
  const first = await wayfinder(["index", root, "--events"], env);
  assert.equal(first.code, 0, first.stderr);
  const events = parse(first.stderr);
  assert.equal(events.length, first.stderr.trim().split("\n").length, "stderr is only events");
  assert.equal(events[0].event, "started");
  assert.equal(events.at(-1).event, "published");
  assert.match(events.at(-1).generation, /^gen-/);
  assert.equal(events.filter((e) => e.event === "file" && e.status === "added").length, 5);
  const batches = events.filter((e) => e.event === "batch");
  assert.ok(batches.length >= 1);
  assert.equal(batches.at(-1).done, batches.at(-1).total);
  for (const e of events) assert.ok(!Number.isNaN(Date.parse(e.time)), JSON.stringify(e));

  await Deno.writeTextFile(join(root, "auth_service.dart"), "// edited\n", { append: true });
  const second = parse((await wayfinder(["index", root, "--events"], env)).stderr);
  assert.deepEqual(
    second.filter((e) => e.event === "file").map((e) => `${e.status} ${e.path}`),
    ["changed auth_service.dart"],
  );
  const current = parse((await wayfinder(["index", root, "--events"], env)).stderr);
  assert.deepEqual(current.map((e) => e.event), ["started", "published"]);
  assert.equal(current[1].current, true);

  const failing = await wayfinder(["index", root, "--events", "--long-input", "truncate"], env);
  assert.equal(failing.code, 2);
  const failed = parse(failing.stderr).at(-1);
  assert.equal(failed.event, "failed");
  assert.equal(failed.code, "stale_index");
  assert.match(failing.stderr.trim().split("\n").at(-1)!, /^wayfinder: /);
});

Deno.test("a no-op index reports the walk's skipped files and the published fields a writing run does", async () => {
  const { root, env } = await setup();
  await Deno.writeFile(join(root, "logo.png"), new Uint8Array([0x89, 0x50, 0x00, 0x01]));
  await Deno.writeFile(join(root, "latin1.txt"), new Uint8Array([0x63, 0x61, 0x66, 0xe9]));
  await Deno.symlink(root, join(root, "loop"));
  const run = async () => {
    const result = await wayfinder(["index", root, "--events", "-o", "json"], env);
    assert.equal(result.code, 0, result.stderr);
    const events = result.stderr.trim().split("\n").filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l));
    const skips = events.filter((e) => e.event === "file" && e.status === "skipped")
      .map((e) => `${e.reason} ${e.path}`);
    const published = events.find((e) => e.event === "published");
    return { summary: JSON.parse(result.stdout), skips, published };
  };
  const written = await run();
  const current = await run();
  assert.equal(current.summary.current, true);
  assert.deepEqual(written.skips, ["not_utf8 latin1.txt", "binary logo.png", "symlink_loop loop"]);
  assert.deepEqual(current.skips, written.skips);
  assert.deepEqual(current.summary.files, { seen: 5, changed: 0, deleted: 0, skipped: 3 });
  assert.equal(written.summary.files.skipped, 3);
  assert.deepEqual(Object.keys(current.published).sort(), Object.keys(written.published).sort());
  assert.equal(written.published.truncatedChunks, 0);
  const text = await wayfinder(["index", root], env);
  assert.match(text.stderr, /^Skipped 3 files: 1 not utf8, 1 binary, 1 symlink loop$/m);
});

Deno.test({
  name: "a file that cannot be read now is reported unreadable, not deleted, and keeps its chunks",
  // Root reads whatever the mode says.
  ignore: Deno.build.os === "windows" || Deno.uid() === 0,
  async fn() {
    const { root, env, status } = await setup();
    assert.equal((await wayfinder(["index", root], env)).code, 0);
    const locked = join(root, "payment_service.dart");
    const before = await status();
    await Deno.chmod(locked, 0o000);
    try {
      const now = await status();
      assert.equal(now.state, "ready", JSON.stringify(now.stale));
      assert.deepEqual(now.unreadable, ["payment_service.dart"]);
      assert.equal(now.chunks, before.chunks);

      // A run that writes (another file changed) carries the locked file's chunks over.
      await Deno.writeTextFile(join(root, "auth_service.dart"), "// edited\n", { append: true });
      const run = await wayfinder(["index", root, "-o", "json"], env);
      assert.equal(run.code, 0, run.stderr);
      const summary = JSON.parse(run.stdout);
      assert.deepEqual(summary.files, { seen: 4, changed: 1, deleted: 0, skipped: 1 });
      assert.match(run.stderr, /Skipped 1 file: 1 unreadable/);
      const after = await status();
      assert.equal(after.files, 5);
      assert.deepEqual(after.unreadable, ["payment_service.dart"]);
      const hits = await wayfinder(
        ["search", root, "payment", "--mode", "lexical", "-o", "json"],
        env,
      );
      const paths = JSON.parse(hits.stdout).matches.map((m: { chunk: { sourcePath: string } }) =>
        m.chunk.sourcePath
      );
      assert.ok(paths.includes("payment_service.dart"), paths.join());
    } finally {
      await Deno.chmod(locked, 0o644);
    }
    const readable = await status();
    assert.equal(readable.state, "ready", JSON.stringify(readable.stale));
    assert.equal(readable.unreadable, undefined);
  },
});

Deno.test({
  name: "a lock and progress left under a pid now held by an older process are not a writer",
  // Process start times come from /proc.
  ignore: Deno.build.os !== "linux",
  async fn() {
    const { root, env, status } = await setup();
    const built = await wayfinder(["index", root, "--output", "json"], env);
    assert.equal(built.code, 0, built.stderr);
    const indexDir = JSON.parse(built.stdout).index;
    // Written before the machine booted, so pid 1 (init, running since boot) never wrote them.
    const since = "2000-01-01T00:00:00.000Z";
    await Deno.writeTextFile(join(indexDir, "lock"), JSON.stringify({ pid: 1, since, token: "t" }));
    await Deno.writeTextFile(
      join(indexDir, "progress.json"),
      JSON.stringify({
        pid: 1,
        startedAt: since,
        updatedAt: since,
        phase: "embed",
        filesDone: 5,
        filesTotal: 5,
        chunksDone: 1,
        chunksTotal: 9,
      }),
    );
    const left = await status();
    assert.equal(left.state, "ready");
    assert.equal(left.lock, undefined);
    assert.equal(left.progress, undefined);
    await Deno.writeTextFile(join(root, "auth_service.dart"), "// edited\n", { append: true });
    const run = await wayfinder(["index", root], env);
    assert.equal(run.code, 0, run.stderr);
    assert.equal((await status()).state, "ready");
  },
});

Deno.test("a model or embedder that fails to open is a failed run: started and failed events, status failed", async () => {
  const { root, env, status } = await setup();
  const garbage = join(await Deno.makeTempDir(), "bogus.gguf");
  await Deno.writeTextFile(garbage, "not a gguf\n");
  const cases = [
    { flags: ["--model", garbage], code: "model", message: /^Cannot load model/ },
    { flags: ["--model", `${garbage}.missing`], code: "no_model", message: /does not exist/ },
    {
      flags: ["--embedder", "openai", "--embedder-url", "http://127.0.0.1:9", "--model", "m"],
      code: "embedder",
      message: /^Cannot embed with openai/,
    },
  ];
  for (const { flags, code, message } of cases) {
    const run = await wayfinder(["index", root, "--events", ...flags], env);
    assert.equal(run.code, 2, run.stderr);
    const lines = run.stderr.trim().split("\n");
    const events = lines.slice(0, -1).map((line) => JSON.parse(line));
    assert.deepEqual(events.map((e) => e.event), ["started", "failed"], run.stderr);
    assert.equal(events[1].code, code);
    assert.match(events[1].message, message);
    assert.equal(lines.at(-1), `wayfinder: ${events[1].message}`);
    const failed = await status(...flags);
    assert.equal(failed.state, "failed");
    assert.equal(failed.failure.message, events[1].message);
  }
  assert.equal((await wayfinder(["index", root], env)).code, 0);
  assert.equal((await status()).state, "ready", "a run that succeeds clears the failure");
});

Deno.test("status tells a GGUF without a manifest by hashing it and reading its header, not loading it", async () => {
  const { root, env, status } = await setup();
  assert.equal((await wayfinder(["index", root], env)).code, 0);
  const dir = await Deno.makeTempDir();
  // Other weights, no manifest: the hash tells them apart.
  const other = join(dir, "m2.gguf");
  await Deno.copyFile(realModel(), other);
  const weights = await status("--model", other);
  assert.equal(weights.state, "stale");
  assert.deepEqual(weights.stale.reasons, ["model wayfinder-tiny-test → m2.gguf (other weights)"]);
  // The same weights without their manifest load without its query prefix.
  const bare = join(dir, "tiny-bare.gguf");
  await Deno.copyFile(tinyModel(), bare);
  const setupOnly = await status("--model", bare);
  assert.equal(setupOnly.state, "stale");
  assert.match(
    setupOnly.stale.reasons[0],
    /^model wayfinder-tiny-test without a manifest beside .*tiny-bare\.gguf loads another way \(queryPrefix "query: " → ""\)$/,
  );
  for (const model of [other, bare]) {
    const refused = await wayfinder(["index", root, "--model", model], env);
    assert.match(refused.stderr, /--rebuild/, "index agrees");
  }

  // Built with the bare model, it is ready, and index says current without loading it.
  const bareEnv = { ...env, WAYFINDER_EMBEDDING_MODEL: bare };
  assert.equal((await wayfinder(["index", root, "--rebuild"], bareEnv)).code, 0);
  const ready = await wayfinder(["status", root, "--output", "json"], bareEnv);
  assert.equal(JSON.parse(ready.stdout).state, "ready", ready.stdout);
  const current = await wayfinder(["index", root], bareEnv);
  assert.match(current.stdout, /is current; nothing to update/);
});

Deno.test("status and index tell the same weights under an edited manifest, as search does", async () => {
  const { root, env, status } = await setup();
  assert.equal((await wayfinder(["index", root], env)).code, 0);
  const dir = await Deno.makeTempDir();
  const model = join(dir, "edited.gguf");
  await Deno.copyFile(tinyModel(), model);
  const manifest = JSON.parse(
    await Deno.readTextFile(tinyModel().replace(/\.gguf$/, ".manifest.json")),
  );
  // Same weights and size, so the manifest is trusted; only the query prefix differs.
  await Deno.writeTextFile(
    join(dir, "edited.manifest.json"),
    JSON.stringify({ ...manifest, queryPrefix: "search: " }),
  );
  const edited = await status("--model", model);
  assert.equal(edited.state, "stale");
  assert.match(
    edited.stale.reasons[0],
    /^model wayfinder-tiny-test with the manifest beside .*edited\.gguf loads another way \(queryPrefix "query: " → "search: "\)$/,
  );
  for (const command of ["index", "search"]) {
    const args = command === "search" ? ["search", root, "hello"] : ["index", root];
    const refused = await wayfinder([...args, "--model", model], env);
    assert.equal(refused.code, 2, `${command} refuses too`);
    assert.match(refused.stderr, /--rebuild/);
  }
});

Deno.test("an unreadable manifest, a 'current' naming no generation or an older format: named with the real root, rebuilt by a plain index", async () => {
  const { root, env, status } = await setup();
  assert.equal((await wayfinder(["index", root], env)).code, 0);
  const indexDir = (await status()).indexDir;
  const live = async () => (await Deno.readTextFile(join(indexDir, "current"))).trim();
  const manifest = async () => join(indexDir, await live(), "manifest.json");
  const fix = `run 'wayfinder index ${root}' to rebuild it`;
  const damage = {
    "its manifest is not JSON": async () => Deno.writeTextFile(await manifest(), "{ torn"),
    "'current' names no generation": () => Deno.writeTextFile(join(indexDir, "current"), "junk\n"),
    "built by format 1, this wayfinder reads 4": async () => {
      const path = await manifest();
      const old = { ...JSON.parse(await Deno.readTextFile(path)), formatVersion: 1 };
      await Deno.writeTextFile(path, JSON.stringify(old));
    },
  };
  for (const [reason, apply] of Object.entries(damage)) {
    await apply();
    assert.ok((await status()).stale.reasons[0].endsWith(`${reason}; ${fix}`), reason);
    const search = await wayfinder(["search", root, "token"], env);
    assert.equal(search.code, 2, search.stderr);
    assert.ok(search.stderr.trimEnd().endsWith(`${reason}; ${fix}`), search.stderr);
    const index = await wayfinder(["index", root], env);
    assert.equal(index.code, 0, index.stderr);
    assert.ok(
      index.stderr.includes(`Rebuilt the index: the live one was unusable (${reason})`),
      index.stderr,
    );
    assert.equal((await status()).state, "ready", reason);
  }
});

Deno.test("a flipped byte in the live generation: status says damaged, a plain index rebuilds it", async () => {
  const { root, env, status } = await setup();
  assert.equal((await wayfinder(["index", root], env)).code, 0);
  const { indexDir, generation } = await status();
  const { segments } = JSON.parse(
    await Deno.readTextFile(join(indexDir, generation, "manifest.json")),
  );
  const segment = segments[0].name;
  const vectors = join(indexDir, segment, "vectors.f32");
  const bytes = await Deno.readFile(vectors);
  bytes[100]! ^= 0x40;
  await Deno.writeFile(vectors, bytes);

  const damaged = await status();
  assert.equal(damaged.state, "stale");
  assert.deepEqual(damaged.stale.reasons, [
    `the index is damaged (${segment}/vectors.f32 fails its checksum); run 'wayfinder index ${root}' to rebuild it`,
  ]);
  const run = await wayfinder(["index", root], env);
  assert.equal(run.code, 0, run.stderr);
  assert.doesNotMatch(run.stdout, /is current/);
  assert.match(run.stdout, /5 changed, 0 deleted/);
  assert.match(
    run.stderr,
    /Rebuilt the index: the live one was unusable \(seg-\d+-[0-9a-f]+\/vectors\.f32 fails its checksum\)/,
  );
  const mended = await status();
  assert.equal(mended.state, "ready");
  assert.notEqual(mended.generation, generation);
  const search = await wayfinder(["search", root, "payment"], env);
  assert.equal(search.code, 0, search.stderr);
});

Deno.test("a manifest whose chunk count was edited: status says damaged, a plain index rebuilds it", async () => {
  const { root, env, status } = await setup();
  assert.equal((await wayfinder(["index", root], env)).code, 0);
  const { indexDir, generation, chunks } = await status();
  const path = join(indexDir, generation, "manifest.json");
  const text = await Deno.readTextFile(path);
  // Valid JSON, every data file untouched: only the sizes the count implies disagree.
  await Deno.writeTextFile(
    path,
    text.replace(`"chunkCount":${chunks}`, `"chunkCount":${chunks + 1}`),
  );

  const damaged = await status();
  assert.equal(damaged.state, "stale");
  assert.match(
    damaged.stale.reasons[0],
    /^the index is damaged \(its segments hold \d+ live chunks/,
  );
  const run = await wayfinder(["index", root], env);
  assert.equal(run.code, 0, run.stderr);
  assert.doesNotMatch(run.stdout, /is current/);
  assert.match(run.stderr, /Rebuilt the index: the live one was unusable \(its segments hold/);
  assert.equal((await status()).state, "ready");
  const search = await wayfinder(["search", root, "payment"], env);
  assert.equal(search.code, 0, search.stderr);
});

Deno.test("status is indexing while a first run holds the lock before it reports progress", async () => {
  const { root, env } = await setup();
  const corpus = await openConfiguredCorpus(root, {
    dataDir: env.WAYFINDER_DATA_DIR,
    embedder: { model: tinyModel(), threads: 1 },
  });
  try {
    assert.equal((await corpus.status()).state, "absent");
    const lock = await acquireIndexLock(corpus.indexDir, root);
    const starting = await corpus.status();
    await lock.release();
    assert.equal(starting.state, "indexing");
    assert.equal(starting.progress, undefined, "no numbers before the run reports any");
    assert.equal(starting.lock?.pid, Deno.pid);
    assert.equal((await corpus.status()).state, "absent", "released: nothing runs");
    // Over a live index the holder may be a watcher with nothing to do: the index stays ready.
    await corpus.index();
    const watching = await acquireIndexLock(corpus.indexDir, root);
    const held = await corpus.status();
    await watching.release();
    assert.equal(held.state, "ready");
    assert.equal(held.lock?.pid, Deno.pid);
  } finally {
    await corpus.close();
  }
});
