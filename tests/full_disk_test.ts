/**
 * A disk that fills while a generation is written: the previous generation
 * stays live and searchable, the half-written one is removed, and the error
 * is one line that says the disk is full. Once on a real tiny tmpfs (when
 * this machine lets us mount one), once in process with the kernel's own
 * ENOSPC from /dev/full.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openConfiguredCorpus } from "../src/cli/mod.ts";
import { liveIndex } from "../src/corpus/mod.ts";
import { copyTree, wayfinder } from "./_run.ts";
import { SERVICES, tinyCorpusOptions, tinyEnv } from "./_env.ts";

/** Mounts a tmpfs of `size` at a new folder, or returns null where mounting is not allowed. */
async function tinyDisk(size: string): Promise<string | null> {
  if (Deno.build.os !== "linux") return null;
  const dir = await Deno.makeTempDir({ prefix: "wayfinder-tmpfs-" });
  const mount = await new Deno.Command("mount", {
    args: ["-t", "tmpfs", "-o", `size=${size},mode=0700`, "tmpfs", dir],
    stdout: "null",
    stderr: "null",
  }).output().catch(() => null);
  if (mount?.success) return dir;
  await Deno.remove(dir);
  return null;
}

async function unmount(dir: string): Promise<void> {
  await new Deno.Command("umount", { args: [dir] }).output();
  await Deno.remove(dir);
}

/** Paragraphs enough to need more room than the small disk has left. */
function bulky(words: number): string {
  return Array.from({ length: words / 10 }, (_, i) => `Paragraph ${i} about topic${i} and more.\n`)
    .join("\n");
}

// Probe once (mount and unmount at once), so a filtered-out test leaves nothing mounted.
const probe = await tinyDisk("64k");
if (probe) await unmount(probe);

Deno.test({
  name: "a full tmpfs while publishing: exit 2, one line naming ENOSPC, the previous index live",
  ignore: probe === null,
  async fn() {
    const disk = await tinyDisk("384k");
    assert.ok(disk, "mounted once, so mounts again");
    const root = await copyTree(SERVICES);
    const indexDir = join(disk, "index");
    const env = await tinyEnv();
    try {
      const first = await wayfinder(["index", root, "--index-dir", indexDir], env);
      assert.equal(first.code, 0, first.stderr);
      const live = await Deno.readTextFile(join(indexDir, "current"));
      await Deno.writeTextFile(join(root, "bulk.md"), bulky(40_000));
      const full = await wayfinder(["index", root, "--index-dir", indexDir], env);
      assert.equal(full.code, 2);
      assert.match(
        full.stderr,
        /^wayfinder: Cannot update the index of .*: no space left on device \(ENOSPC\) writing .*; the previous index stays live\n$/,
      );
      assert.equal(await Deno.readTextFile(join(indexDir, "current")), live);
      const gens = [...Deno.readDirSync(indexDir)].filter((e) => e.name.startsWith("gen-"));
      assert.equal(gens.length, 1, "the half-written generation is gone");
      const found = await wayfinder(
        [
          "search",
          root,
          "refresh token",
          "--index-dir",
          indexDir,
          "--mode",
          "lexical",
          "-o",
          "json",
        ],
        env,
      );
      assert.equal(found.code, 0, found.stderr);
      assert.ok(JSON.parse(found.stdout).matches.length > 0);
    } finally {
      await unmount(disk);
    }
  },
});

Deno.test({
  name: "ENOSPC from the kernel mid-publish leaves the live generation and is recorded",
  // /dev/full, whose writes fail with ENOSPC, is Linux's.
  ignore: Deno.build.os !== "linux",
  fn: enospcInProcess,
});

async function enospcInProcess() {
  const root = await copyTree(SERVICES);
  const corpus = await openConfiguredCorpus(root, await tinyCorpusOptions());
  const open = Deno.open;
  try {
    await corpus.index();
    const live = await liveIndex(corpus);
    await Deno.writeTextFile(join(root, "extra.md"), "# Extra\n\nA new page about quasars.\n");
    // The vectors of the next generation go to /dev/full: the real write fails with ENOSPC.
    // Only writes are redirected: opening the live index reads its vectors through Deno.open too.
    Deno.open = ((path: string | URL, options?: Deno.OpenOptions) =>
      options?.write && /\/seg-[^/]+\/vectors\.f32$/.test(String(path))
        ? open("/dev/full", { write: true })
        : open(path, options)) as typeof Deno.open;
    await assert.rejects(corpus.index(), {
      code: "io",
      message: /no space left on device \(ENOSPC\) writing .*; the previous index stays live$/,
    });
    Deno.open = open;
    assert.equal((await liveIndex(corpus)).generation, live.generation);
    const status = await corpus.status();
    assert.equal(status.state, "failed");
    assert.match(status.failure!.message, /ENOSPC/);
    assert.deepEqual(status.stale?.added, ["extra.md"]);
    const gens = [...Deno.readDirSync(corpus.indexDir)].filter((e) =>
      e.name.startsWith("gen-")
    );
    assert.deepEqual(gens.map((e) => e.name), [live.generation]);

    await corpus.index();
    assert.equal((await corpus.status()).state, "ready", "a good run clears the failure");
    const hits = await corpus.search("quasars", { mode: "lexical", limit: 1 });
    assert.equal(hits.matches[0]!.chunk.sourcePath, "extra.md");
  } finally {
    Deno.open = open;
    await corpus.close();
  }
}
