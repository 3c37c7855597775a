import assert from "node:assert/strict";
import { appendFileSync, copyFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  copyTree,
  REPO,
  tinyModel,
  tinyModelWithBudget,
  wayfinder,
  wayfinderCommand,
} from "./_run.ts";
import { CORPUS, tinyEnv } from "./_env.ts";

async function setup() {
  const root = await copyTree(CORPUS);
  const env = await tinyEnv();
  const data = env.WAYFINDER_DATA_DIR;
  return { root, data, env };
}

async function indexJson(root: string, env: Record<string, string>, extra: string[] = []) {
  const run = await wayfinder(["index", root, "--output", "json", ...extra], env);
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout);
}

Deno.test("index embeds a tree once, then only what changed", async () => {
  const { root, env } = await setup();
  const first = await indexJson(root, env);
  assert.equal(first.files.seen, 20);
  assert.equal(first.files.changed, 20);
  assert.equal(first.current, false);
  assert.ok(first.embeddedChunks > 100, `embedded ${first.embeddedChunks}`);
  assert.equal(first.reusedChunks, 0);
  for (
    const key of [
      "root",
      "index",
      "files",
      "embeddedChunks",
      "reusedChunks",
      "removedChunks",
      "elapsedMs",
      "current",
    ]
  ) {
    assert.ok(key in first, `summary has ${key}`);
  }

  const again = await wayfinder(["index", root], env);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(again.stdout.trim(), `Index for ${root} is current; nothing to update.`);

  appendFileSync(
    join(root, "utils", "logger.dart"),
    "\nString shout(String message) {\n  return message.toUpperCase();\n}\n",
  );
  const edited = await indexJson(root, env);
  assert.equal(edited.files.changed, 1);
  assert.ok(
    edited.embeddedChunks >= 1 && edited.embeddedChunks <= 3,
    `embedded ${edited.embeddedChunks}`,
  );
  assert.equal(
    edited.reusedChunks,
    first.embeddedChunks - edited.removedChunks,
    "every untouched chunk keeps its vector",
  );

  rmSync(join(root, "models", "payment.dart"));
  const deleted = await indexJson(root, env);
  assert.equal(deleted.files.deleted, 1);
  assert.equal(deleted.embeddedChunks, 0);
  assert.ok(deleted.removedChunks > 0);

  const found = await wayfinder([
    "search",
    root,
    "payment",
    "--output",
    "json",
    "--limit",
    "50",
    "--path",
    "models/**",
  ], env);
  assert.equal(found.code, 0, found.stderr);
  const paths = JSON.parse(found.stdout).matches.map((m: { chunk: { sourcePath: string } }) =>
    m.chunk.sourcePath
  );
  assert.ok(!paths.includes("models/payment.dart"), "chunks of a deleted file are gone");
});

Deno.test("index refuses to mix models and names the fix; the same bytes elsewhere reuse vectors", async () => {
  const { root, data, env } = await setup();
  await indexJson(root, env);

  const copy = join(data, "same-bytes.gguf");
  copyFileSync(tinyModel(), copy);
  copyFileSync(
    tinyModel().replace(/\.gguf$/, ".manifest.json"),
    copy.replace(/\.gguf$/, ".manifest.json"),
  );
  const reuse = await wayfinder(["index", root], { ...env, WAYFINDER_EMBEDDING_MODEL: copy });
  assert.equal(reuse.code, 0, reuse.stderr);
  assert.match(reuse.stdout, /is current; nothing to update/);

  const other = join(data, "other.gguf");
  const bytes = Deno.readFileSync(tinyModel());
  bytes[bytes.length - 1] ^= 0xff; // a different model: same shape, other weights
  Deno.writeFileSync(other, bytes);
  for (const command of [["index", root], ["search", root, "token"]]) {
    const run = await wayfinder(command, { ...env, WAYFINDER_EMBEDDING_MODEL: other });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^wayfinder: .*model.*--rebuild/);
    assert.equal(run.stderr.trim().split("\n").length, 1);
  }
  const rebuilt = await indexJson(root, { ...env, WAYFINDER_EMBEDDING_MODEL: other }, [
    "--rebuild",
  ]);
  assert.equal(rebuilt.reusedChunks, 0);
});

Deno.test("index fails fast with 'index is busy' while another run holds the corpus", async () => {
  const { root, env } = await setup();
  const summary = await indexJson(root, env);
  const holder = new Deno.Command("sleep", { args: ["30"] }).spawn();
  try {
    writeFileSync(
      join(summary.index, "lock"),
      JSON.stringify({ pid: holder.pid, startedAt: new Date().toISOString() }),
    );
    appendFileSync(join(root, "main.dart"), "\n// touched\n");
    const run = await wayfinder(["index", root], env);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /index is busy/);
  } finally {
    holder.kill("SIGKILL");
    await holder.status;
  }
  // A lock left by a dead process is taken over.
  const after = await wayfinder(["index", root], env);
  assert.equal(after.code, 0, after.stderr);
});

Deno.test("a killed index run leaves the previous index searchable", async () => {
  const { root, env } = await setup();
  await indexJson(root, env);
  const before = await wayfinder(["search", root, "encrypt data", "--output", "json"], env);
  assert.equal(before.code, 0, before.stderr);

  for (const [n, delayMs] of [150, 400, 700, 1000, 1400].entries()) {
    writeFileSync(join(root, `added_${n}.dart`), `class Added${n} {\n  int value() => ${n};\n}\n`);
    appendFileSync(join(root, "main.dart"), `\n// edit ${n}\n`);
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", join(REPO, "main.ts"), "index", root, "--rebuild"],
      env: { ...env, WAYFINDER_THREADS: "1" },
      stdout: "null",
      stderr: "null",
    }).spawn();
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    try {
      child.kill("SIGKILL");
    } catch { /* already finished */ }
    await child.status;
    const after = await wayfinder(["search", root, "encrypt data", "--output", "json"], env);
    assert.equal(after.code, 0, `search after kill at ${delayMs} ms: ${after.stderr}`);
    assert.ok(JSON.parse(after.stdout).matches.length > 0);
  }
  const finished = await wayfinder(["index", root], env);
  assert.equal(finished.code, 0, finished.stderr);
  const generations = readdirSync(
    JSON.parse((await wayfinder(["index", root, "--output", "json"], env)).stdout).index,
  )
    .filter((name) => name.startsWith("gen-"));
  assert.ok(generations.length <= 2, `old generations are collected: ${generations}`);
});

Deno.test("long inputs: a long line is cut exactly; what cannot fit is rejected, or truncated on request", async () => {
  const root = await Deno.makeTempDir({ prefix: "wayfinder-long-" });
  const env = await tinyEnv();
  // One minified line, far over 512 tokens and without whitespace: it is cut between characters.
  // (Named bundle.js: *.min.js files are default excludes.)
  const minified = "var a=" + Array.from({ length: 900 }, (_, i) => `f${i}(x${i})`).join("+") +
    ";\n";
  writeFileSync(join(root, "bundle.js"), minified);
  writeFileSync(join(root, "ok.md"), "# Fine\n\nA short paragraph.\n");

  const split = await indexJson(root, env);
  assert.equal(split.truncatedChunks, 0);
  const stored = async (extra: string[], vars: Record<string, string>) => {
    const found = await wayfinder(
      [
        "search",
        root,
        "minified bundle",
        "--path",
        "*.js",
        "--limit",
        "100",
        "-o",
        "json",
        ...extra,
      ],
      vars,
    );
    assert.equal(found.code, 0, found.stderr);
    type Match = { chunk: { content: string; startOffset: number } };
    return (JSON.parse(found.stdout).matches as Match[]).map((m) => m.chunk)
      .sort((a, b) => a.startOffset - b.startOffset).map((c) => c.content);
  };
  const pieces = await stored([], env);
  assert.ok(pieces.length > 5, `${pieces.length} pieces`);
  assert.equal(pieces.join(""), minified.trimEnd(), "the pieces rebuild the line exactly");

  // Two tokens leave no room for even one character beside [CLS] and [SEP].
  const tight = await tinyEnv(await tinyModelWithBudget(2));
  const rejected = await wayfinder(["index", root], tight);
  assert.equal(rejected.code, 2);
  assert.match(
    rejected.stderr,
    /^wayfinder: Cannot embed \d+ passages within 2 tokens, even one character at a time: bundle\.js:1-1 \(a piece needs 3 tokens\), .*--long-input truncate/,
  );
  assert.equal(rejected.stderr.trim().split("\n").length, 1);

  const truncated = await indexJson(root, tight, ["--long-input", "truncate"]);
  const whole = await stored(["--long-input", "truncate"], tight);
  assert.equal(whole.join(""), minified.trimEnd(), "stored text stays whole");
  assert.equal(truncated.truncatedChunks, whole.length + 2, "every passage, ok.md's two too");
});

for (const [signal, exit] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
  Deno.test(`index stopped by ${signal} releases its lock, keeps the last index live and says so`, async () => {
    const root = await Deno.makeTempDir({ prefix: "wayfinder-stop-" });
    const env = await tinyEnv();
    writeFileSync(join(root, "keys.md"), "# Keys\n\nRotate the signing keys every quarter.\n");
    const { index } = await indexJson(root, env);
    // Enough to chunk and embed that the run is still going when the signal lands.
    for (let i = 0; i < 600; i++) {
      writeFileSync(
        join(root, `note_${i}.md`),
        `# Note ${i}\n\nTopic ${i % 17}.\n\n## More\n\nText ${i}.\n`,
      );
    }
    const child = wayfinderCommand(["index", root, "--events"], env, { stdout: "null" }).spawn();
    const lines = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
    let stderr = "";
    while (!stderr.includes('"event":"file"')) {
      const { value, done } = await lines.read();
      assert.ok(!done, `index ended before its first file event: ${stderr}`);
      stderr += value;
    }
    child.kill(signal);
    for (let read = await lines.read(); !read.done; read = await lines.read()) stderr += read.value;
    const { code } = await child.status;
    assert.equal(code, exit, stderr);
    const [last, ...others] = stderr.trim().split("\n").reverse();
    assert.match(last!, new RegExp(`^wayfinder: Stopped indexing .* on ${signal}; `));
    assert.ok(others.every((line) => line.startsWith("{")), stderr);
    const failed = JSON.parse(others[0]!);
    assert.deepEqual([failed.event, failed.code], ["failed", "aborted"]);
    for (const left of ["lock", "progress.json"]) {
      assert.throws(() => Deno.statSync(join(index, left)), Deno.errors.NotFound, left);
    }
    const search = await wayfinder(["search", root, "signing keys", "--output", "json"], env);
    assert.equal(search.code, 0, search.stderr);
    assert.equal(JSON.parse(search.stdout).matches[0].chunk.sourcePath, "keys.md");
    const status = await wayfinder(["status", root, "--output", "json"], env);
    assert.equal(JSON.parse(status.stdout).state, "stale", "neither indexing nor failed");
  });
}

Deno.test("--include naming a default exclude adds it back without dropping the rest, and is recorded", async () => {
  const root = await Deno.makeTempDir({ prefix: "wayfinder-include-" });
  const env = await tinyEnv();
  Deno.mkdirSync(join(root, "src"));
  writeFileSync(join(root, "README.md"), "# Readme\n\nHow to sign in.\n");
  writeFileSync(join(root, "src", "auth.ts"), "export function signIn() {}\n");
  writeFileSync(join(root, "deno.lock"), '{"version": "4"}\n');
  writeFileSync(join(root, "app.min.js"), "var a=1;\n");
  const indexed = async (extra: string[]) => {
    const summary = await indexJson(root, env, extra);
    const status = await wayfinder(["status", root, "--output", "json"], env);
    return { summary, files: JSON.parse(status.stdout).files };
  };
  const first = await indexed(["--include", "deno.lock", "--include", "*.min.js"]);
  assert.equal(first.files, 4, "README.md and src/auth.ts stay");
  const again = await indexed([]);
  assert.equal(again.summary.current, true, "a plain run keeps the recorded globs");
  const cleared = await indexed(["--include", ""]);
  assert.equal(cleared.summary.files.deleted, 2);
  assert.equal(cleared.files, 2);
});

Deno.test("index, status and validate --fix count one thing in the singular", async () => {
  const root = await Deno.makeTempDir({ prefix: "wayfinder-one-" });
  writeFileSync(join(root, "one.txt"), "A single short passage.\n");
  const env = await tinyEnv();
  const run = await wayfinder(["index", root], env);
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stdout,
    /^Indexed \S+: 1 file \(1 changed, 0 deleted\), 1 chunk embedded, 0 reused, 0 removed in /,
  );
  const status = await wayfinder(["status", root], env);
  assert.match(status.stdout, /^ {2}content {2}1 file, 1 chunk$/m);
  writeFileSync(join(root, "big.bin"), "x".repeat(64));
  const skipped = await wayfinder(["index", root, "--max-file-bytes", "32"], env);
  assert.match(skipped.stderr, /^Skipped 1 file: 1 too large$/m);

  const bundle = await Deno.makeTempDir({ prefix: "wayfinder-one-bundle-" });
  writeFileSync(join(bundle, "a.md"), "---\ntype: Note\n---\n\nA note.\n");
  const fix = await wayfinder(["validate", bundle, "--fix", "--dry-run"]);
  assert.match(fix.stderr, /^1 index file would change$/m);
});
