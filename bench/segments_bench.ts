/**
 * Issue 22's targets for the segmented local index, each a whole process as
 * a user runs it, against the index format before segments in the same run:
 *
 * - a one-file edit, then `wayfinder index`, on the Python standard library
 *   (every `*.py`, about 1,790 files, 35 MB, 67k chunks): wall time and peak
 *   RSS (targets ≤ 1.5 s, ≤ 300 MB);
 * - disk: all files of the index folder ÷ (its vectors + passage text), after
 *   a build, after N one-file edits and after the merge that follows (≤ 1.3×);
 * - a one-file edit published into a 1M-chunk synthetic index (≤ 3 s),
 *   against the full rewrite an edit cost before segments.
 *
 * Embeddings come from a loopback server in its own process that returns
 * hashed vectors (bench/_embed_server.ts), so only wayfinder's costs show.
 *
 *   deno bench -A bench/segments_bench.ts
 *     WAYFINDER_BENCH_BASELINE  a checkout of wayfinder before segments (e.g. `git worktree add
 *                               /tmp/wf-main main`), measured the same way; without it, no baseline
 *     WAYFINDER_BENCH_EDITS     one-file edits before the disk count (default 100)
 *     WAYFINDER_BENCH_ROWS      rows of the synthetic index (default 1,000,000; 0 skips it)
 *
 * Skips, saying why, when python3 or /usr/bin/time is missing.
 */
import { join } from "node:path";
import {
  acquireIndexLock,
  folderBytes,
  LocalStore,
  mergeSegments,
  openIndex,
  readManifest,
  writeGeneration,
} from "../src/store/mod.ts";
import type { Chunk } from "../src/types.ts";
import { formatAmount, median, report, skipped, skipSuite } from "./_report.ts";
import { pythonStdlib } from "./_python_stdlib.ts";
import { BENCH_DIR, syntheticData } from "./_synthetic_index.ts";

const HERE = new URL("..", import.meta.url).pathname;
const BASELINE = Deno.env.get("WAYFINDER_BENCH_BASELINE");
const EDITS = Number(Deno.env.get("WAYFINDER_BENCH_EDITS") ?? 100);
const ROWS = Number(Deno.env.get("WAYFINDER_BENCH_ROWS") ?? 1_000_000);
const DIMENSIONS = 384;
const TIMED_EDITS = 5;

if (!await Deno.stat("/usr/bin/time").catch(() => null)) skipSuite("/usr/bin/time is missing");

/** Every `*.py` of the stdlib (no site-packages, no caches), copied once under the bench folder. */
async function stdlibTree(): Promise<string> {
  const stdlib = await pythonStdlib();
  if ("skip" in stdlib) skipSuite(stdlib.skip);
  const root = join(BENCH_DIR, "stdlib-py");
  if (await Deno.stat(join(root, ".complete")).catch(() => null)) return root;
  await Deno.remove(root, { recursive: true }).catch(() => {});
  const copy = async (from: string, to: string) => {
    for await (const entry of Deno.readDir(from)) {
      if (entry.name === "site-packages" || entry.name === "__pycache__") continue;
      if (entry.isDirectory) await copy(join(from, entry.name), join(to, entry.name));
      else if (entry.isFile && entry.name.endsWith(".py")) {
        await Deno.mkdir(to, { recursive: true });
        await Deno.copyFile(join(from, entry.name), join(to, entry.name));
      }
    }
  };
  await copy(stdlib.root, root);
  // Old times, as a checkout's: an index run records times that are not brand new.
  const old = new Date(Date.now() - 3_600_000);
  const touch = async (dir: string) => {
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) await touch(path);
      else await Deno.utime(path, old, old);
    }
  };
  await touch(root);
  await Deno.writeTextFile(join(root, ".complete"), "");
  await Deno.utime(join(root, ".complete"), old, old);
  return root;
}

/** The loopback embedding server, in its own process. */
async function embedServer(): Promise<{ url: string; stop(): Promise<void> }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", join(HERE, "bench/_embed_server.ts"), String(DIMENSIONS)],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let url = "";
  while (!url.includes("\n")) url += (await reader.read()).value ?? "";
  reader.releaseLock();
  return {
    url: url.trim(),
    async stop() {
      child.kill();
      await child.status;
    },
  };
}

/** One wayfinder checkout's `index` as a whole process: wall seconds and peak RSS in MB. */
async function indexProcess(
  checkout: string,
  root: string,
  dataDir: string,
  url: string,
): Promise<{ seconds: number; rssMb: number }> {
  const out = join(dataDir, "time.txt");
  const result = await new Deno.Command("/usr/bin/time", {
    args: [
      "-f",
      "%e %M",
      "-o",
      out,
      Deno.execPath(),
      "run",
      "-A",
      "--config",
      join(checkout, "deno.json"),
      join(checkout, "main.ts"),
      "index",
      root,
      "--embedder",
      "ollama",
      "--embedder-url",
      url,
      "--model",
      "hashed",
    ],
    env: { WAYFINDER_DATA_DIR: dataDir },
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!result.success) throw new Error(new TextDecoder().decode(result.stderr));
  const [seconds, kb] = (await Deno.readTextFile(out)).trim().split(/\s+/).slice(-2).map(Number);
  return { seconds: seconds!, rssMb: kb! / 1024 };
}

/** The one index folder under a data root. */
async function indexDirOf(dataDir: string): Promise<string> {
  for await (const entry of Deno.readDir(join(dataDir, "indexes"))) {
    return join(dataDir, "indexes", entry.name);
  }
  throw new Error(`no index under ${dataDir}`);
}

/** All files of the index folder ÷ the live vectors plus passage text it holds. */
async function diskRatio(indexDir: string): Promise<{ ratio: number; mb: number }> {
  const total = await folderBytes(indexDir);
  const manifest = await readManifest(indexDir).catch(() => null);
  let payload = 0;
  if (manifest?.segments) {
    const index = (await openIndex(indexDir, {
      vectors: "lazy",
      verifyChecksums: false,
      lease: false,
    }))!;
    payload = index.chunks.length * index.dimensions * 4;
    for (const segment of index.segments!) {
      const { textOffsets, rows } = segment.table;
      const count = segment.local ? segment.local.length : rows;
      for (let n = 0; n < count; n++) {
        const row = segment.local ? segment.local[n]! : n;
        payload += textOffsets[row + 1]! - textOffsets[row]!;
      }
    }
  } else {
    // The format before segments: one generation folder, whole.
    const live = (await Deno.readTextFile(join(indexDir, "current"))).trim();
    for (const file of ["vectors.f32", "text.bin"]) {
      payload += (await Deno.stat(join(indexDir, live, file))).size;
    }
  }
  return { ratio: total / payload, mb: total / 2 ** 20 };
}

/** Appends a line to the `n`th file of the tree: a one-file edit. */
async function editOne(root: string, files: string[], n: number): Promise<void> {
  const path = join(root, files[(n * 37) % files.length]!);
  await Deno.writeTextFile(path, `\n# edited ${n}\n`, { append: true });
}

async function pyFiles(root: string, dir = root, out: string[] = []): Promise<string[]> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) await pyFiles(root, path, out);
    else if (entry.name.endsWith(".py")) out.push(path.slice(root.length + 1));
  }
  return out.sort();
}

interface Measured {
  build: { seconds: number; rssMb: number };
  built: { ratio: number; mb: number };
  edits: { seconds: number; rssMb: number }[];
  edited?: { ratio: number; mb: number };
  merged?: { ratio: number; mb: number };
}

/** Builds, times one-file edits and counts disk, for one checkout on its own copy of the tree. */
async function measure(checkout: string, label: string, url: string, many: boolean) {
  const root = await Deno.makeTempDir({ prefix: `wayfinder-${label}-tree-` });
  const dataDir = await Deno.makeTempDir({ prefix: `wayfinder-${label}-data-` });
  try {
    await new Deno.Command("cp", { args: ["-a", `${await stdlibTree()}/.`, root] }).output();
    const files = await pyFiles(root);
    console.log(`${label}: building the index of ${files.length} files…`);
    const build = await indexProcess(checkout, root, dataDir, url);
    const indexDir = await indexDirOf(dataDir);
    const measured: Measured = { build, built: await diskRatio(indexDir), edits: [] };
    for (let n = 0; n < TIMED_EDITS; n++) {
      await editOne(root, files, n);
      measured.edits.push(await indexProcess(checkout, root, dataDir, url));
    }
    if (many) {
      console.log(`${label}: ${EDITS} one-file edits…`);
      for (let n = TIMED_EDITS; n < EDITS; n++) {
        await editOne(root, files, n);
        await indexProcess(checkout, root, dataDir, url);
      }
      measured.edited = await diskRatio(indexDir);
      if (label === "segments") {
        const lock = await acquireIndexLock(indexDir);
        try {
          await mergeSegments(indexDir, { all: true });
        } finally {
          await lock.release();
        }
        measured.merged = await diskRatio(indexDir);
      }
    }
    return measured;
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(dataDir, { recursive: true });
  }
}

/** A one-file edit published into a synthetic index of `rows` rows, in a fresh process. */
async function syntheticEdit(
  rows: number,
): Promise<{ editSeconds: number; rewriteSeconds: number }> {
  const dir = join(BENCH_DIR, `segments-${rows}x${DIMENSIONS}`);
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  const data = syntheticData(rows, DIMENSIONS);
  // What an edit cost before segments: the whole generation written again.
  const lock = await acquireIndexLock(dir);
  const started = performance.now();
  await writeGeneration(dir, data);
  const rewriteSeconds = (performance.now() - started) / 1000;
  await lock.release();
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", join(HERE, "bench/segments_bench.ts"), "--edit-child", dir],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  const { editSeconds } = JSON.parse(new TextDecoder().decode(out.stdout));
  await Deno.remove(dir, { recursive: true });
  return { editSeconds, rewriteSeconds };
}

/** The child of `syntheticEdit`: one file of a synthetic index replaced through `LocalStore`. */
async function editChild(dir: string): Promise<void> {
  const started = performance.now();
  const store = new LocalStore(dir);
  const lock = await store.lock();
  const manifest = (await store.manifest())!;
  const [path, record] = Object.entries(manifest.files)[0]!;
  const chunks: Chunk[] = record.chunkIds.map((id, i) => ({
    id: `${id}-edited`,
    sourcePath: path,
    lineStart: i * 10 + 1,
    lineEnd: i * 10 + 9,
    startOffset: i * 400,
    endOffset: i * 400 + 30,
    type: "function",
    language: "typescript",
    content: `export function edited${i}() {}`,
    metadata: {},
  }));
  const { formatVersion: _f, createdAt: _c, dimensions: _d, chunkCount: _n, ...rest } = manifest;
  const { checksums: _s, segments: _g, pending: _p, files: _files, ...input } = rest;
  await store.publish({
    manifest: input,
    removed: [],
    changed: [{
      path,
      record: { ...record, hash: "edited", chunkIds: chunks.map((c) => c.id) },
      chunks,
      vectors: chunks.map(() => new Float32Array(DIMENSIONS).fill(0.05)),
    }],
  });
  await lock.release();
  console.log(JSON.stringify({ editSeconds: (performance.now() - started) / 1000 }));
}

if (Deno.args[0] === "--edit-child") {
  await editChild(Deno.args[1]!);
  Deno.exit(0);
}

const server = await embedServer();
try {
  const segments = await measure(HERE, "segments", server.url, EDITS > TIMED_EDITS);
  // Before segments every publish kept the previous generation: two copies whatever the edits,
  // so the baseline is not edited a hundred times (at ~10 s an edit).
  const before = BASELINE ? await measure(BASELINE, "before", server.url, false) : null;
  const editSeconds = median(segments.edits.map((e) => e.seconds));
  const editRss = Math.max(...segments.edits.map((e) => e.rssMb));
  const rows: [string, string, string, string][] = [];
  const row = (what: string, now: string, was: string, target: string) =>
    rows.push([what, now, was, target]);
  if (before) {
    const wasSeconds = median(before.edits.map((e) => e.seconds));
    const wasRss = Math.max(...before.edits.map((e) => e.rssMb));
    report(
      "one-file edit, 67k chunks: index wall",
      { label: "segments", amount: editSeconds, unit: "s" },
      { label: "before segments", amount: wasSeconds },
      "target ≤ 1.5 s absolute",
    );
    report(
      "one-file edit, 67k chunks: peak RSS",
      { label: "segments", amount: editRss, unit: "MB" },
      { label: "before segments", amount: wasRss },
      "target ≤ 300 MB absolute",
    );
    row(
      "one-file edit wall (median of 5)",
      `${editSeconds.toFixed(2)} s`,
      `${wasSeconds.toFixed(2)} s`,
      "≤ 1.5 s",
    );
    row(
      "one-file edit peak RSS (max of 5)",
      `${editRss.toFixed(0)} MB`,
      `${wasRss.toFixed(0)} MB`,
      "≤ 300 MB",
    );
    row(
      "disk ÷ (vectors + text), after a build",
      `${segments.built.ratio.toFixed(2)}×`,
      `${before.built.ratio.toFixed(2)}×`,
      "≤ 1.3×",
    );
    if (segments.edited) {
      // The baseline is not edited a hundred times: it keeps two copies whatever the count.
      row(`disk ratio after ${EDITS} edits`, `${segments.edited.ratio.toFixed(2)}×`, "-", "≤ 1.3×");
    }
  } else {
    skipped("baseline", "WAYFINDER_BENCH_BASELINE names no checkout before segments");
    row("one-file edit wall (median of 5)", `${editSeconds.toFixed(2)} s`, "-", "≤ 1.5 s");
    row("one-file edit peak RSS (max of 5)", `${editRss.toFixed(0)} MB`, "-", "≤ 300 MB");
    row(
      "disk ÷ (vectors + text), after a build",
      `${segments.built.ratio.toFixed(2)}×`,
      "-",
      "≤ 1.3×",
    );
    if (segments.edited) {
      row(`disk ratio after ${EDITS} edits`, `${segments.edited.ratio.toFixed(2)}×`, "-", "≤ 1.3×");
    }
  }
  if (segments.merged) {
    row("disk ratio after the merge", `${segments.merged.ratio.toFixed(2)}×`, "-", "≤ 1.3×");
  }
  if (ROWS > 0) {
    console.log(`a one-file edit of a ${formatAmount(ROWS)}-chunk synthetic index…`);
    const { editSeconds: big, rewriteSeconds } = await syntheticEdit(ROWS);
    report(
      `one-file edit, ${formatAmount(ROWS)} chunks: publish wall`,
      { label: "segment edit", amount: big, unit: "s" },
      { label: "full rewrite (before segments)", amount: rewriteSeconds },
      "target ≤ 3 s absolute",
    );
    row(
      `one-file edit, ${formatAmount(ROWS)} synthetic chunks`,
      `${big.toFixed(2)} s`,
      `${rewriteSeconds.toFixed(2)} s (full rewrite)`,
      "≤ 3 s",
    );
  }
  const width = [0, 1, 2, 3].map((c) =>
    Math.max(...[["what", "segments", "before", "target"], ...rows].map((r) => r[c]!.length))
  );
  const line = (r: string[]) => r.map((cell, c) => cell.padEnd(width[c]!)).join("  ");
  console.log(`\n${line(["what", "segments", "before", "target"])}`);
  for (const r of rows) console.log(line(r));
  console.log(
    `(build: ${segments.build.seconds.toFixed(1)} s, ${segments.build.rssMb.toFixed(0)} MB${
      before
        ? `; before: ${before.build.seconds.toFixed(1)} s, ${before.build.rssMb.toFixed(0)} MB`
        : ""
    })`,
  );
} finally {
  await server.stop();
}
