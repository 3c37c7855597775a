/**
 * `wayfinder export --format orama`: a real index (tiny model) written as an
 * Orama database file, loaded back by the Orama store and by the plain Orama
 * program in examples/, and the command's one-line errors.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openOramaStore } from "../src/store/mod.ts";
import { copyTree, REPO, wayfinder } from "./_run.ts";
import { SERVICES, tinyEnv } from "./_env.ts";

Deno.test("export --format orama writes a database that Orama programs and the Orama store search", async () => {
  const root = await copyTree(SERVICES);
  const env = await tinyEnv();
  const out = join(env.WAYFINDER_DATA_DIR, "services.orama.json");
  try {
    const unindexed = await wayfinder(["export", root, "--format", "orama", "--out", out], env);
    assert.equal(unindexed.code, 2);
    assert.match(unindexed.stderr, /^wayfinder: No index for .*\n$/);

    assert.equal((await wayfinder(["index", root], env)).code, 0);
    const run = await wayfinder(
      ["export", root, "--format", "orama", "--out", out, "--output", "json"],
      env,
    );
    assert.equal(run.code, 0, run.stderr);
    const summary = JSON.parse(run.stdout);
    assert.equal(summary.format, "orama");
    assert.equal(summary.path, out);
    assert.ok(summary.chunks > 10 && summary.files >= 3, run.stdout);
    assert.equal(summary.pending, 0);
    assert.equal(summary.bytes, (await Deno.stat(out)).size);
    const status = JSON.parse((await wayfinder(["status", root, "--output", "json"], env)).stdout);
    assert.equal(summary.chunks, status.chunks);

    const reader = (await (await openOramaStore(`orama:${out}`)).open())!;
    assert.equal(reader.chunkCount, summary.chunks);
    const [hit] = await reader.lexical("encrypt sensitive data", { limit: 1 });
    assert.equal(hit!.chunk.sourcePath, "data_encryption_service.dart");
    const text = await Deno.readTextFile(join(root, hit!.chunk.sourcePath));
    assert.equal(text.slice(hit!.chunk.startOffset, hit!.chunk.endOffset), hit!.chunk.content);
    await reader.close();

    const example = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-read",
        "--allow-env",
        "examples/orama_search.mjs",
        out,
        "encrypt sensitive data",
      ],
      cwd: REPO,
      env: { NO_COLOR: "1" },
    }).output();
    const printed = new TextDecoder().decode(example.stdout);
    assert.equal(example.code, 0, new TextDecoder().decode(example.stderr));
    const [textHead, first, ...rest] = printed.split("\n");
    assert.equal(textHead, `full text "encrypt sensitive data":`);
    assert.match(first!, /^ {2}data_encryption_service\.dart:\d+-\d+ {2}[\d.]+ {2}DataEncryption/);
    const nearest = rest.indexOf("nearest data_encryption_service.dart:");
    assert.ok(nearest >= 0, printed);
    // The best text hit is its own nearest passage.
    assert.equal(rest[nearest + 1]!.split("  ")[1], first!.split("  ")[1]);
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(env.WAYFINDER_DATA_DIR, { recursive: true });
  }
});

Deno.test("export refuses a missing format or file, or an unknown format, in one line", async () => {
  const env = await tinyEnv();
  try {
    for (
      const [args, message] of [
        [["--out", "x.json"], /--format is required/],
        [["--format", "orama"], /--out FILE is required/],
        [["--format", "lance", "--out", "x.json"], /Invalid value "lance" for --format/],
      ] as const
    ) {
      const run = await wayfinder(["export", SERVICES, ...args], env);
      assert.equal(run.code, 2);
      assert.match(run.stderr, message);
      assert.equal(run.stderr.split("\n").length, 2, run.stderr);
    }
  } finally {
    await Deno.remove(env.WAYFINDER_DATA_DIR, { recursive: true });
  }
});
