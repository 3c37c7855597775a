import { equal, match, notEqual } from "node:assert/strict";
import { join } from "node:path";
import { indexDirFor, isIndexDir, mayHoldIndex } from "./index_dir.ts";

Deno.test("indexDirFor() names the directory after the root and a hash of its real path", async () => {
  const base = await Deno.makeTempDir();
  try {
    const root = join(base, "my project");
    await Deno.mkdir(root);
    await Deno.symlink(root, join(base, "alias"));
    const dir = indexDirFor("/data", root);
    match(dir, /^\/data\/indexes\/my_project-[0-9a-f]{12}$/);
    equal(indexDirFor("/data", join(base, "alias")), dir);
    equal(indexDirFor("/data", join(root, ".")), dir);
    await Deno.mkdir(join(base, "other"));
    await Deno.mkdir(join(base, "other", "my project"));
    notEqual(indexDirFor("/data", join(base, "other", "my project")), dir);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("isIndexDir() knows an index by its marker or its generations; mayHoldIndex() also by the store's files alone", () => {
  equal(isIndexDir([".wayfinder-index", "lock"]), true);
  equal(isIndexDir(["current", "gen-1-ab", "verified.json"]), true);
  equal(isIndexDir(["current", "notes.md"]), false);
  // A first run that failed before markers left only its record.
  equal(mayHoldIndex(["last-failure.json", "progress.json.tmp-42"]), true);
  equal(mayHoldIndex([]), true);
  equal(mayHoldIndex(["last-failure.json", "a.ts"]), false);
  equal(mayHoldIndex([".wayfinder-index", "current", "gen-1-ab", "a.ts"]), true);
});
