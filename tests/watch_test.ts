/**
 * `watch`: native file events, debounced into incremental updates through
 * one open corpus; unchanged saves publish nothing; SIGTERM and SIGINT stop
 * it cleanly with the lock released. Real tree-sitter, real index, tiny model.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type ConfiguredCorpus, openConfiguredCorpus } from "../src/cli/mod.ts";
import { watchCorpus, type WatchUpdate } from "../src/corpus/mod.ts";
import { ollamaServer } from "./_ollama_server.ts";
import { copyTree, tinyModel, wayfinder, wayfinderCommand } from "./_run.ts";
import { dataEnv, SERVICES, tinyEnv } from "./_env.ts";

/** Collects updates and lets a test wait for the next one. */
function updateLog() {
  const updates: WatchUpdate[] = [];
  let wake: (() => void) | null = null;
  return {
    updates,
    onUpdate(update: WatchUpdate) {
      updates.push(update);
      wake?.();
    },
    async next(count: number, timeoutMs = 20_000): Promise<WatchUpdate> {
      const deadline = Date.now() + timeoutMs;
      while (updates.length < count) {
        assert.ok(Date.now() < deadline, `no update #${count} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 100);
        });
      }
      return updates[count - 1]!;
    },
  };
}

/**
 * Watches a copy of the services fixture through one open corpus for the
 * length of `body`, then stops the watcher and closes the corpus.
 */
async function watching(
  options: {
    dataDir?: (root: string) => string;
    debounceMs?: number;
    maxWaitMs?: number;
    /** Changes the tree before watching starts. */
    prepare?: (root: string) => Promise<void>;
  },
  body: (
    root: string,
    corpus: ConfiguredCorpus,
    log: ReturnType<typeof updateLog>,
  ) => Promise<void>,
): Promise<ConfiguredCorpus> {
  const root = await copyTree(SERVICES);
  await options.prepare?.(root);
  const corpus = await openConfiguredCorpus(root, {
    dataDir: options.dataDir?.(root) ?? await Deno.makeTempDir(),
    embedder: { model: tinyModel(), threads: 1 },
  });
  const stop = new AbortController();
  const log = updateLog();
  const watcher = watchCorpus(corpus, {
    signal: stop.signal,
    onUpdate: log.onUpdate,
    debounceMs: options.debounceMs,
    maxWaitMs: options.maxWaitMs,
  });
  try {
    await body(root, corpus, log);
  } finally {
    stop.abort();
    await watcher;
    await corpus.close();
  }
  return corpus;
}

async function live(corpus: ConfiguredCorpus): Promise<string> {
  return (await Deno.readTextFile(join(corpus.indexDir, "current"))).trim();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test("watchCorpus() coalesces a rename-then-write, skips unchanged saves and drops deleted files", async () => {
  const corpus = await watching({}, async (root, corpus, log) => {
    const first = await log.next(1);
    assert.equal(first.trigger, "initial");
    assert.ok(first.summary!.embeddedChunks > 0);
    const afterFirst = await live(corpus);

    // An editor's save: write a temporary file, then rename it over the original.
    const target = join(root, "auth_service.dart");
    const text = await Deno.readTextFile(target);
    await Deno.writeTextFile(`${target}.tmp`, text + "\n// refreshes the session cookie\n");
    await Deno.rename(`${target}.tmp`, target);
    const edit = await log.next(2);
    assert.equal(edit.error, undefined);
    assert.equal(edit.summary!.files.changed, 1, "one update for the rename and the write");
    assert.ok(edit.paths.includes("auth_service.dart"), edit.paths.join());
    assert.ok(edit.summary!.reusedChunks > 0, "the update is incremental");
    const afterEdit = await live(corpus);
    assert.notEqual(afterEdit, afterFirst);
    const hits = await corpus.search("session cookie", { mode: "lexical", limit: 1 });
    assert.equal(hits.matches[0]!.chunk.sourcePath, "auth_service.dart");

    // Same bytes written again: an update runs, finds nothing, publishes nothing.
    await Deno.writeTextFile(target, await Deno.readTextFile(target));
    const unchanged = await log.next(3);
    assert.equal(unchanged.summary!.current, true);
    assert.equal(await live(corpus), afterEdit, "no generation for an unchanged save");

    await Deno.remove(join(root, "payment_service.dart"));
    const removal = await log.next(4);
    assert.equal(removal.summary!.files.deleted, 1);
    assert.equal(log.updates.length, 4, "one update per burst");
  });
  await assert.rejects(Deno.stat(join(corpus.indexDir, "lock")), Deno.errors.NotFound);
});

Deno.test("watchCorpus() survives files created and deleted while it reads them", async () => {
  await watching({ debounceMs: 20 }, async (root, corpus, log) => {
    await log.next(1);
    // Short-lived files, some of them vanishing between the walk and the read.
    for (let i = 0; i < 60; i++) {
      const path = join(root, `scratch-${i % 7}.ts`);
      await Deno.writeTextFile(path, `export const scratch${i} = ${i};\n`);
      if (i % 3 !== 0) await Deno.remove(path);
      await sleep(5);
    }
    for (let i = 0; i < 7; i++) await Deno.remove(join(root, `scratch-${i}.ts`)).catch(() => {});
    // Wait until the tree is quiet and the last update has run.
    let seen = -1;
    while (seen !== log.updates.length) {
      seen = log.updates.length;
      await sleep(800);
    }
    assert.deepEqual(log.updates.filter((u) => u.error).map((u) => u.error!.message), []);
    const status = await corpus.status();
    assert.equal(status.state, "ready", JSON.stringify(status.stale));
    assert.equal(status.files, 5);
  });
});

Deno.test("watchCorpus() with its data folder inside the tree does not wake itself", async () => {
  await watching(
    { dataDir: (root) => join(root, ".wayfinder"), debounceMs: 50 },
    async (root, corpus, log) => {
      await log.next(1);
      await Deno.writeTextFile(join(root, "notes.md"), "# Notes\n\nRotate the keys.\n");
      const update = await log.next(2);
      assert.deepEqual(update.paths, ["notes.md"], "the index's own writes are not events");
      await sleep(1500);
      assert.equal(log.updates.length, 2, "publishing does not start another update");
      assert.equal((await corpus.status()).files, 6);
    },
  );
});

/** The inodes this process's inotify watches are on (Linux: one line per watch in fdinfo). */
async function watchedInodes(): Promise<Set<number>> {
  const inodes = new Set<number>();
  for await (const fd of Deno.readDir("/proc/self/fdinfo")) {
    const info = await Deno.readTextFile(`/proc/self/fdinfo/${fd.name}`).catch(() => "");
    for (const [, ino] of info.matchAll(/^inotify wd:\S+ ino:([0-9a-f]+)/gm)) {
      inodes.add(parseInt(ino!, 16));
    }
  }
  return inodes;
}

const inode = async (path: string) => (await Deno.stat(path)).ino!;

Deno.test({
  name:
    "watchCorpus() does not watch through a symlink out of the tree, and watches folders made later",
  ignore: Deno.build.os !== "linux",
  async fn() {
    // A link to / or a home folder would put the whole outside tree under watch.
    const outside = await Deno.makeTempDir();
    await Deno.mkdir(join(outside, "inner"));
    await watching(
      { debounceMs: 50, prepare: (root) => Deno.symlink(outside, join(root, "elsewhere")) },
      async (root, _corpus, log) => {
        await log.next(1);
        let watched = await watchedInodes();
        assert.ok(watched.has(await inode(root)));
        assert.ok(!watched.has(await inode(outside)), "the link's target is not watched");
        assert.ok(!watched.has(await inode(join(outside, "inner"))));

        await Deno.mkdir(join(root, "docs", "keys"), { recursive: true });
        await Deno.writeTextFile(join(root, "docs", "keys", "rotate.md"), "# Rotate\n");
        const made = await log.next(2);
        assert.equal(made.summary!.files.changed, 1, JSON.stringify(made.paths));
        watched = await watchedInodes();
        assert.ok(
          watched.has(await inode(join(root, "docs", "keys"))),
          "watched since that update",
        );
        await Deno.writeTextFile(join(root, "docs", "keys", "rotate.md"), "# Rotate yearly\n");
        const edit = await log.next(3);
        assert.deepEqual(edit.paths, ["docs/keys/rotate.md"]);
        assert.equal(edit.summary!.files.changed, 1);
      },
    );
  },
});

Deno.test({
  name:
    "watchCorpus() does not watch folders the walk never enters, until an ignore file lets it in",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const prepare = async (root: string) => {
      await Deno.mkdir(join(root, "node_modules", "left-pad"), { recursive: true });
      await Deno.mkdir(join(root, "reports"));
      await Deno.writeTextFile(join(root, ".gitignore"), "node_modules/\nreports/\n");
    };
    await watching({ debounceMs: 50, prepare }, async (root, _corpus, log) => {
      await log.next(1);
      let watched = await watchedInodes();
      assert.ok(!watched.has(await inode(join(root, "node_modules"))), "git-ignored");
      assert.ok(!watched.has(await inode(join(root, "node_modules", "left-pad"))));
      assert.ok(!watched.has(await inode(join(root, "reports"))), "git-ignored");

      await Deno.writeTextFile(join(root, ".gitignore"), "node_modules/\n");
      await log.next(2);
      watched = await watchedInodes();
      assert.ok(watched.has(await inode(join(root, "reports"))), "watched once no longer ignored");
      await Deno.writeTextFile(join(root, "reports", "notes.md"), "# Report notes\n");
      assert.deepEqual((await log.next(3)).paths, ["reports/notes.md"]);
    });
  },
});

Deno.test({
  name: "watchCorpus() goes on after an event on a name that is not UTF-8, which the update skips",
  // Such names are a POSIX thing; macOS refuses them.
  ignore: Deno.build.os !== "linux",
  async fn() {
    await watching({ debounceMs: 50 }, async (root, _corpus, log) => {
      await log.next(1);
      const made = await new Deno.Command("sh", {
        args: ["-c", `printf 'x\\n' > "$(printf 'caf\\351.txt')"`],
        cwd: root,
      }).output();
      assert.equal(made.code, 0, new TextDecoder().decode(made.stderr));
      const update = await log.next(2);
      assert.equal(update.error, undefined);
      assert.deepEqual(update.summary!.skipped, [{
        path: "caf\\xe9.txt",
        reason: "non_utf8_name",
      }]);
      await Deno.writeTextFile(join(root, "notes.md"), "# Notes\n");
      assert.deepEqual((await log.next(3)).paths, ["notes.md"]);
    });
  },
});

Deno.test("watch and status refuse / as index does", async () => {
  for (const command of ["watch", "status"]) {
    const run = await wayfinder([command, "/"], await dataEnv());
    assert.equal(run.code, 2, run.stderr);
    assert.equal(run.stderr, "wayfinder: '/' is the filesystem root, not a project directory\n");
  }
});

/** Writes to `path` every `everyMs` for `forMs`; `busy()` says whether it still does. */
function keepWriting(path: string, everyMs: number, forMs: number) {
  let busy = true;
  const done = (async () => {
    const end = Date.now() + forMs;
    for (let i = 0; Date.now() < end; i++) {
      await Deno.writeTextFile(path, `line ${i}\n`, { append: true });
      await sleep(everyMs);
    }
    busy = false;
  })();
  return { busy: () => busy, done };
}

Deno.test("watchCorpus() does not let writes to ignored files hold an update back", async () => {
  await watching(
    {
      debounceMs: 300,
      maxWaitMs: 60_000,
      prepare: (root) => Deno.writeTextFile(join(root, ".gitignore"), "app.log\n"),
    },
    async (root, _corpus, log) => {
      await log.next(1);
      const logging = keepWriting(join(root, "app.log"), 200, 6000);
      await sleep(400);
      await Deno.writeTextFile(join(root, "notes.md"), "# Notes\n\nRotate the keys.\n");
      const update = await log.next(2, 10_000);
      assert.ok(logging.busy(), "the update ran while the ignored log was still being written");
      assert.deepEqual(update.paths, ["notes.md"]);
      await logging.done;
      await sleep(1000);
      assert.equal(log.updates.length, 2, "the log's writes start no update of their own");
    },
  );
});

Deno.test("watchCorpus() updates within its maximum wait while changes keep coming", async () => {
  await watching({ debounceMs: 300, maxWaitMs: 1000 }, async (root, _corpus, log) => {
    await log.next(1);
    const writing = keepWriting(join(root, "notes.md"), 100, 6000);
    const update = await log.next(2, 10_000);
    assert.ok(writing.busy(), "an update ran while the file was still being written");
    assert.deepEqual(update.paths, ["notes.md"]);
    assert.equal(update.error, undefined);
    await writing.done;
  });
});

/** Starts `wayfinder watch` and reads its JSON lines as they come. */
function spawnWatch(root: string, env: Record<string, string>) {
  const args = ["watch", root, "--output", "jsonl", "--debounce-ms", "100"];
  const child = wayfinderCommand(args, env).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  return {
    child,
    async nextEvent(): Promise<Record<string, unknown>> {
      while (!buffer.includes("\n")) {
        const { value, done } = await lines.read();
        if (done) throw new Error(`watch ended early; buffered: ${buffer}`);
        buffer += value;
      }
      const at = buffer.indexOf("\n");
      const line = buffer.slice(0, at);
      buffer = buffer.slice(at + 1);
      return JSON.parse(line);
    },
    async finish() {
      lines.releaseLock();
      await child.stdout.cancel().catch(() => {});
      const stderr = await new Response(child.stderr).text();
      return { status: await child.status, stderr };
    },
  };
}

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  Deno.test(`wayfinder watch stops cleanly on ${signal} and releases its lock`, async () => {
    const root = await copyTree(SERVICES);
    const env = await tinyEnv();
    const dataDir = env.WAYFINDER_DATA_DIR;
    const watch = spawnWatch(root, env);
    const first = await watch.nextEvent();
    assert.equal(first.event, "watching");
    const [indexDir] = await Array.fromAsync(Deno.readDir(join(dataDir, "indexes")));
    const lock = join(dataDir, "indexes", indexDir!.name, "lock");
    assert.ok((await Deno.stat(lock)).isFile, "the watcher holds the lock");

    await Deno.writeTextFile(join(root, "notes.md"), "# Notes\n\nRotate the signing keys.\n");
    const update = await watch.nextEvent();
    assert.equal(update.event, "updated");
    assert.deepEqual(update.paths, ["notes.md"]);

    watch.child.kill(signal);
    const { status, stderr } = await watch.finish();
    assert.equal(status.code, 0, stderr);
    assert.match(stderr, /Stopped watching/);
    await assert.rejects(Deno.stat(lock), Deno.errors.NotFound);
  });
}

Deno.test("wayfinder watch says when its root is gone and watches it again once it is back", async () => {
  const root = await copyTree(SERVICES);
  const watch = spawnWatch(root, await tinyEnv());
  assert.equal((await watch.nextEvent()).event, "watching");
  await Deno.remove(root, { recursive: true });
  const lost = await watch.nextEvent();
  assert.deepEqual([lost.event, lost.root], ["lost", root], JSON.stringify(lost));

  await Deno.mkdir(root);
  await new Deno.Command("cp", { args: ["-R", `${SERVICES}/.`, root] }).output();
  const back = await watch.nextEvent();
  assert.equal(back.event, "rearmed", JSON.stringify(back));
  await Deno.writeTextFile(join(root, "notes.md"), "# Notes\n\nRotate the signing keys.\n");
  const update = await watch.nextEvent();
  assert.equal(update.event, "updated", "the new watch hears changes");
  assert.deepEqual(update.paths, ["notes.md"]);

  watch.child.kill("SIGTERM");
  const { status, stderr } = await watch.finish();
  assert.equal(status.code, 0, stderr);
});

Deno.test("wayfinder watch whose catch-up fails keeps the live generation and watches on", async () => {
  const remote = ollamaServer();
  try {
    const root = await copyTree(SERVICES);
    const env = {
      ...(await dataEnv()),
      WAYFINDER_EMBEDDER: "ollama",
      WAYFINDER_EMBEDDER_URL: remote.url,
      WAYFINDER_EMBEDDING_MODEL: "fake-embed",
    };
    assert.equal((await wayfinder(["index", root], env)).code, 0);
    // A change made while watch was not running, and an embedder failing just then.
    await Deno.writeTextFile(join(root, "notes.md"), "# Notes\n\nRotate the signing keys.\n");
    remote.failing(true);
    const watch = spawnWatch(root, env);
    const failed = await watch.nextEvent();
    assert.deepEqual([failed.event, failed.code], ["failed", "embedder"], JSON.stringify(failed));

    remote.failing(false);
    await Deno.writeTextFile(join(root, "notes.md"), "# Notes\n\nRotate the keys yearly.\n");
    const update = await watch.nextEvent();
    assert.equal(update.event, "updated", JSON.stringify(update));
    assert.deepEqual(update.paths, ["notes.md"]);

    watch.child.kill("SIGTERM");
    const { status, stderr } = await watch.finish();
    assert.equal(status.code, 0, stderr);
    assert.match(
      stderr,
      /^\d\d:\d\d:\d\d failed: Cannot embed .*HTTP 400.*; the last index stays live$/m,
    );
  } finally {
    await remote.server.shutdown();
  }
});

Deno.test("wayfinder watch exits 2 when its catch-up fails with nothing published to serve", async () => {
  const remote = ollamaServer();
  try {
    remote.failing(true);
    const run = await wayfinder(["watch", await copyTree(SERVICES)], {
      ...(await dataEnv()),
      WAYFINDER_EMBEDDER: "ollama",
      WAYFINDER_EMBEDDER_URL: remote.url,
      WAYFINDER_EMBEDDING_MODEL: "fake-embed",
    });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /^wayfinder: Cannot embed .*HTTP 400/);
  } finally {
    await remote.server.shutdown();
  }
});
