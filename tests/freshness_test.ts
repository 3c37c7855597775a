/** `index` on a current tree loads no model; `search` says when the tree moved on. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { copyTree, REPO, tinyModel, wayfinder } from "./_run.ts";
import { SERVICES, tinyEnv } from "./_env.ts";

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

Deno.test("search notes files changed, added or deleted since the index was built", async () => {
  const root = await copyTree(SERVICES);
  const env = await tinyEnv();
  assert.equal((await wayfinder(["index", root], env)).code, 0);
  const fresh = await wayfinder(["search", root, "token", "--output", "json"], env);
  assert.deepEqual(JSON.parse(fresh.stdout).notices, []);
  await Deno.writeTextFile(join(root, "extra.dart"), "void extra() {}\n");
  await Deno.remove(join(root, "payment_service.dart"));
  const behind = await wayfinder(["search", root, "token", "--output", "json"], env);
  assert.equal(behind.code, 0, behind.stderr);
  assert.match(
    JSON.parse(behind.stdout).notices.join("\n"),
    /the index is behind the tree \(0 changed, 1 added, 1 deleted since it was built\); run 'wayfinder index /,
  );
  assert.match(behind.stderr, /^note: the index is behind the tree/m);
});
