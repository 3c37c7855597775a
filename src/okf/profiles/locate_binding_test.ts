import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findBindingFile, locateBinding } from "./locate_binding.ts";

Deno.test("findBindingFile() walks past settings-only files to the one that has 'profiles'", async () => {
  const project = await Deno.makeTempDir();
  const bundle = join(project, "knowledge");
  mkdirSync(join(bundle, "deep"), { recursive: true });
  writeFileSync(join(project, "wayfinder.json"), '{"version": 1, "profiles": {}}');
  writeFileSync(join(bundle, "wayfinder.json"), '{"search": {"limit": 5}}');
  assert.equal(findBindingFile(join(bundle, "deep")), join(project, "wayfinder.json"));
  const seen: string[] = [];
  const located = locateBinding(bundle, (dir) => (seen.push(dir), `/data/of${dir}`));
  assert.deepEqual(located, {
    configFile: join(project, "wayfinder.json"),
    dataRoot: `/data/of${project}`,
  });
  assert.deepEqual(seen, [project]);
  // None binds: the nearest file, whose unknown keys validate still reports.
  writeFileSync(join(project, "wayfinder.json"), '{"index": {}}');
  assert.equal(findBindingFile(bundle), join(bundle, "wayfinder.json"));
});

Deno.test("locateBinding() without any wayfinder.json asks for the data root of the folder itself", async () => {
  const lone = await Deno.makeTempDir();
  if (findBindingFile(lone) !== null) return; // A wayfinder.json above the temp folder: nothing to test.
  assert.deepEqual(locateBinding(lone, (dir) => `root of ${dir}`), {
    configFile: null,
    dataRoot: `root of ${lone}`,
  });
});
