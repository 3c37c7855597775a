import assert from "node:assert/strict";
import { join } from "node:path";
import { walkTree } from "../walk/mod.ts";
import {
  checkFolders,
  FolderRecorder,
  readFolderRecord,
  writeFolderRecord,
} from "./folder_stamps.ts";

/** A tree of `count` folders of one file each, walked once with a recorder. */
async function recordedTree(count: number) {
  const root = await Deno.makeTempDir({ prefix: "wayfinder-folders-" });
  for (let i = 0; i < count; i++) {
    await Deno.mkdir(join(root, `d${i}`));
    await Deno.writeTextFile(join(root, `d${i}`, "a.ts"), `export const a${i} = ${i};\n`);
  }
  // Folder mtimes tick with the kernel's coarse clock: a change in the same tick as the last is not told apart.
  await new Promise((resolve) => setTimeout(resolve, 30));
  const recorder = new FolderRecorder();
  await walkTree(root, { onFolder: recorder.add });
  return { root, record: { generation: "gen-1-a", folders: recorder.folders } };
}

Deno.test("folder stats find files added, removed and renamed, not edits in place", async () => {
  const { root, record } = await recordedTree(3);
  assert.deepEqual(Object.keys(record.folders).sort(), ["", "d0", "d1", "d2"]);
  assert.deepEqual(checkFolders(root, record, 100).changed, []);
  await Deno.writeTextFile(join(root, "d0", "a.ts"), "export const a0 = 42;\n");
  assert.deepEqual(checkFolders(root, record, 100).changed, [], "an edit in place is not seen");
  await Deno.writeTextFile(join(root, "d1", "b.ts"), "export const b = 1;\n");
  await Deno.rename(join(root, "d2", "a.ts"), join(root, "d2", "c.ts"));
  assert.deepEqual(checkFolders(root, record, 100).changed, ["d1", "d2"]);
  await Deno.remove(join(root, "d0"), { recursive: true });
  assert.deepEqual(checkFolders(root, record, 100), {
    changed: ["", "d0", "d1", "d2"],
    checked: 4,
    total: 4,
  });
  await Deno.remove(root, { recursive: true });
});

Deno.test("a folder check stops at its budget and says how far it got", async () => {
  const { root, record } = await recordedTree(130);
  const check = checkFolders(root, record, 0);
  assert.equal(check.total, 131);
  assert.equal(check.checked, 64, "the clock is read every 64 stats");
  await Deno.remove(root, { recursive: true });
});

Deno.test("a folder record counts only for its own generation", async () => {
  const indexDir = await Deno.makeTempDir();
  const record = { generation: "gen-1-a", folders: { "": "1:2" } };
  await writeFolderRecord(indexDir, record);
  assert.deepEqual(await readFolderRecord(indexDir, "gen-1-a"), record);
  assert.equal(await readFolderRecord(indexDir, "gen-2-b"), null);
  await Deno.writeTextFile(join(indexDir, "folders.json"), "{torn");
  assert.equal(await readFolderRecord(indexDir, "gen-1-a"), null);
  await Deno.remove(indexDir, { recursive: true });
});
