import assert from "node:assert/strict";
import { join } from "node:path";
import { walkTree } from "../walk/mod.ts";
import {
  checkFolders,
  checkFoldersInTurn,
  FOLDER_TURN_FILE,
  FolderRecorder,
  FOLDERS_PER_CHECK,
  foldersOfTurn,
  readFolderRecord,
  RECENT_FOLDERS,
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
    timedOut: false,
  });
  await Deno.remove(root, { recursive: true });
});

Deno.test("a folder check stops at its budget and says how far it got", async () => {
  const { root, record } = await recordedTree(130);
  const check = checkFolders(root, record, 0);
  assert.equal(check.total, 131);
  assert.equal(check.checked, 64, "the clock is read every 64 stats");
  assert.equal(check.timedOut, true);
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

Deno.test("a check of many folders stats the recent ones each time and the others in turn", () => {
  const count = 1000;
  // Folder i last changed at time i: the highest are the most recent.
  const folders = Object.fromEntries(
    Array.from({ length: count }, (_, i) => [`d${i}`, `${i}:${i}`]),
  );
  const record = { generation: "gen-1-a", folders };
  const recent = Array.from({ length: RECENT_FOLDERS }, (_, i) => `d${count - 1 - i}`);
  const seen = new Set<string>();
  const turns = Math.ceil((count - RECENT_FOLDERS) / (FOLDERS_PER_CHECK - RECENT_FOLDERS));
  for (let turn = 0; turn < turns; turn++) {
    const paths = foldersOfTurn(record, turn);
    assert.equal(paths.length, FOLDERS_PER_CHECK);
    assert.deepEqual(paths.slice(0, RECENT_FOLDERS), recent);
    assert.equal(new Set(paths).size, paths.length);
    for (const path of paths) seen.add(path);
  }
  assert.equal(seen.size, count, "every folder within ceil(rest / share) turns");
  const few = { generation: "gen-1-a", folders: { b: "1:1", a: "2:2" } };
  assert.deepEqual(foldersOfTurn(few, 7), ["a", "b"], "a small tree: every folder, every time");
});

Deno.test("successive searches go round a large tree's folders, a turn each", async () => {
  const { root, record } = await recordedTree(FOLDERS_PER_CHECK + 100);
  const indexDir = await Deno.makeTempDir();
  try {
    // The folder that sorts last among the quiet ones: not in the first turn.
    const order = foldersOfTurn(record, 0);
    const quiet = Object.keys(record.folders).find((path) => !order.includes(path))!;
    await Deno.writeTextFile(join(root, quiet, "new.ts"), "export const n = 1;\n");
    const first = await checkFoldersInTurn(indexDir, root, record, 1000);
    assert.deepEqual(first.changed, []);
    assert.equal(first.checked, FOLDERS_PER_CHECK);
    assert.equal(first.total, FOLDERS_PER_CHECK + 101);
    const second = await checkFoldersInTurn(indexDir, root, record, 1000);
    assert.deepEqual(second.changed, [quiet]);
    const turn = JSON.parse(await Deno.readTextFile(join(indexDir, FOLDER_TURN_FILE)));
    assert.deepEqual(turn, { generation: "gen-1-a", next: 2 });
    // Another generation's record starts again at the first turn.
    const other = await checkFoldersInTurn(
      indexDir,
      root,
      { ...record, generation: "gen-2-b" },
      1000,
    );
    assert.deepEqual(other.changed, []);
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(indexDir, { recursive: true });
  }
});
