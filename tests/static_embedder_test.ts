import assert from "node:assert/strict";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { STATIC_POOLING } from "../src/embed/mod.ts";
import { identityFingerprint } from "../src/embed/identity_fingerprint.ts";
import { copyTree, REPO, tinyModelsWithStatic, wayfinder } from "./_run.ts";

const CORPUS = join(REPO, "fixtures", "corpus");

/** A copy of the corpus, a data root, the tiny GGUF and a static model distilled from it. */
async function setup() {
  const root = await copyTree(CORPUS);
  const data = await Deno.makeTempDir({ prefix: "wayfinder-data-" });
  const { models, gguf, staticPath } = await tinyModelsWithStatic();
  assert.equal(staticPath, join(models, "embedding.static"));
  return { root, data, models, gguf, staticPath };
}

Deno.test("a static index searches, and an index refuses queries from the other model naming the fix", async () => {
  const { root, data, gguf, staticPath } = await setup();
  const env = { WAYFINDER_DATA_DIR: data };
  const asStatic = ["--embedder", "static", "--model", staticPath];
  const indexed = await wayfinder(["index", root, ...asStatic, "--output", "json"], env);
  assert.equal(indexed.code, 0, indexed.stderr);
  assert.ok(JSON.parse(indexed.stdout).embeddedChunks > 100);

  // No input is too long for a model without a context window: the policy changes nothing.
  const again = await wayfinder(["index", root, ...asStatic, "--long-input", "truncate"], env);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /is current; nothing to update/);

  // The index's recorded settings choose the static model: no flags needed.
  const found = await wayfinder(["search", root, "encrypt data", "--output", "json"], env);
  assert.equal(found.code, 0, found.stderr);
  assert.ok(JSON.parse(found.stdout).matches.length > 0);

  const other = await wayfinder(
    ["search", root, "encrypt data", "--embedder", "llama", "--model", gguf],
    env,
  );
  assert.equal(other.code, 2);
  assert.match(other.stderr, /^wayfinder: .*static.*--rebuild/);
  assert.equal(other.stderr.trim().split("\n").length, 1);

  // The other way round: an index built with the GGUF refuses the static model's queries.
  const data2 = await Deno.makeTempDir({ prefix: "wayfinder-data-" });
  const built = await wayfinder(["index", root, "--model", gguf], { WAYFINDER_DATA_DIR: data2 });
  assert.equal(built.code, 0, built.stderr);
  const refused = await wayfinder(["search", root, "encrypt data", ...asStatic], {
    WAYFINDER_DATA_DIR: data2,
  });
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /^wayfinder: .*provider "llama[^"]*" → "static".*--rebuild/);
});

Deno.test("a static index from before identifiers were split is refused, naming the rebuild", async () => {
  const { root, data, staticPath } = await setup();
  const env = { WAYFINDER_DATA_DIR: data };
  const asStatic = ["--embedder", "static", "--model", staticPath];
  const indexed = await wayfinder(["index", root, ...asStatic], env);
  assert.equal(indexed.code, 0, indexed.stderr);
  // Rewrite the published manifest as an older wayfinder wrote it: plain mean pooling.
  const manifestPath = findManifest(data);
  const manifest = JSON.parse(await Deno.readTextFile(manifestPath));
  assert.equal(manifest.identity.pooling, STATIC_POOLING);
  manifest.identity.pooling = "mean";
  manifest.fingerprint = identityFingerprint(manifest.identity);
  await Deno.writeTextFile(manifestPath, JSON.stringify(manifest));

  const refused = await wayfinder(["search", root, "encrypt data"], env);
  assert.equal(refused.code, 2);
  assert.match(
    refused.stderr,
    /^wayfinder: .*pooling "mean" → "mean of identifier parts".*--rebuild/,
  );
  const rebuilt = await wayfinder(["index", root, ...asStatic, "--rebuild"], env);
  assert.equal(rebuilt.code, 0, rebuilt.stderr);
  const found = await wayfinder(["search", root, "encrypt data", "--output", "json"], env);
  assert.equal(found.code, 0, found.stderr);
});

/** The manifest of the one generation under a data root. */
function findManifest(dir: string): string {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.name === "manifest.json" && /gen-/.test(entry.parentPath)) {
      return join(entry.parentPath, entry.name);
    }
  }
  throw new Error(`no manifest under ${dir}`);
}

Deno.test("fit-inputs with a static model: no token limit, nothing split", async () => {
  const { root, data, staticPath } = await setup();
  const run = await wayfinder(
    ["fit-inputs", root, "--embedder", "static", "--model", staticPath],
    { WAYFINDER_DATA_DIR: data },
  );
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /with no token limit .*, 0 chunks split/);
  const json = await wayfinder(
    ["fit-inputs", root, "--embedder", "static", "--model", staticPath, "--output", "json"],
    { WAYFINDER_DATA_DIR: data },
  );
  assert.equal(JSON.parse(json.stdout).maxTokens, null);
});

Deno.test("model distill refuses bad input in one line, exit 2, leaving no file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wayfinder-distill-" });
  const notModel = join(dir, "notes.gguf");
  writeFileSync(notModel, "not a model at all");
  for (const from of [notModel, join(dir, "missing.gguf")]) {
    const run = await wayfinder(["model", "distill", "--from", from]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /^wayfinder: /);
    assert.equal(run.stderr.trim().split("\n").length, 1);
  }
  assert.deepEqual(readdirSync(dir), ["notes.gguf"]);

  // A static model whose bytes no longer match its manifest is refused where it is used.
  const { root, data, staticPath } = await setup();
  const bytes = Deno.readFileSync(staticPath);
  Deno.writeFileSync(staticPath, bytes.subarray(0, bytes.length - 4));
  const run = await wayfinder(["index", root, "--embedder", "static", "--model", staticPath], {
    WAYFINDER_DATA_DIR: data,
  });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /^wayfinder: Cannot load static model .*truncated/);
  assert.ok(existsSync(staticPath));
});
