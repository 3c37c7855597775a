import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { walkTree } from "./mod.ts";
import { makeTree, withTree } from "./testdata/make_tree.ts";

Deno.test("walkTree() walks a symlinked directory once, under its real path", async () => {
  await withTree({ "real/a.ts": "a", "real/sub/b.ts": "b" }, async (root) => {
    // "alias" sorts before "real" and "zlink" after it; neither repeats the tree.
    await Deno.symlink(join(root, "real"), join(root, "alias"));
    await Deno.symlink("real", join(root, "zlink"));
    await Deno.symlink(join(root, "real/sub"), join(root, "sub_link"));
    const { files, skipped } = await walkTree(root);
    assert.deepEqual(files.map((f) => f.path), ["real/a.ts", "real/sub/b.ts"]);
    assert.deepEqual(skipped, [
      { path: "alias", reason: "symlink_duplicate" },
      { path: "sub_link", reason: "symlink_duplicate" },
      { path: "zlink", reason: "symlink_duplicate" },
    ]);
  });
});

Deno.test("walkTree() walks a tree reached only through links once, under the first link", async () => {
  const tree = { ".gitignore": "gen/\n", "gen/g.ts": "g", "gen/inner/i.ts": "i" };
  await withTree(tree, async (root) => {
    await Deno.symlink(join(root, "gen"), join(root, "a_gen"));
    await Deno.symlink(join(root, "gen/inner"), join(root, "b_inner"));
    await Deno.symlink(join(root, "gen"), join(root, "c_gen"));
    const { files, skipped } = await walkTree(root);
    assert.deepEqual(files.map((f) => f.path), [".gitignore", "a_gen/g.ts", "a_gen/inner/i.ts"]);
    assert.deepEqual(skipped, [
      { path: "b_inner", reason: "symlink_duplicate" },
      { path: "c_gen", reason: "symlink_duplicate" },
    ]);
  });
  await withTree(tree, async (root) => {
    // The inner link comes first; the outer one must not walk "inner" again.
    await Deno.symlink(join(root, "gen/inner"), join(root, "a_inner"));
    await Deno.symlink(join(root, "gen"), join(root, "b_gen"));
    const { files, skipped } = await walkTree(root);
    assert.deepEqual(files.map((f) => f.path), [".gitignore", "a_inner/i.ts", "b_gen/g.ts"]);
    assert.deepEqual(skipped, [{ path: "b_gen/inner", reason: "symlink_duplicate" }]);
  });
});

Deno.test("walkTree() reads a symlinked file once, preferring its real path", async () => {
  await withTree(
    { "note.md": "n", ".gitignore": "hidden/\n", "hidden/h.md": "h" },
    async (root) => {
      await Deno.symlink(join(root, "note.md"), join(root, "a_first.md"));
      await Deno.symlink("note.md", join(root, "link.md"));
      await Deno.symlink(join(root, "hidden/h.md"), join(root, "shown.md"));
      const { files, skipped } = await walkTree(root);
      // A link to an ignored file is the only way in, so it is read under the link.
      assert.deepEqual(files.map((f) => [f.path, f.content]), [
        [".gitignore", "hidden/\n"],
        ["note.md", "n"],
        ["shown.md", "h"],
      ]);
      assert.deepEqual(skipped, [
        { path: "a_first.md", reason: "symlink_duplicate" },
        { path: "link.md", reason: "symlink_duplicate" },
      ]);
    },
  );
});

Deno.test("walkTree() never follows links that leave the root", async () => {
  const outside = await makeTree({ "secret.txt": "outside", "dir/s.txt": "outside" });
  try {
    await withTree({ "in.ts": "i" }, async (root) => {
      await Deno.symlink(join(outside, "secret.txt"), join(root, "out.txt"));
      await Deno.symlink(join(outside, "dir"), join(root, "out_dir"));
      await Deno.symlink(relative(root, join(outside, "dir")), join(root, "rel_dir"));
      // A link to a link that leaves: the final target decides.
      await Deno.symlink(join(root, "out_dir"), join(root, "chain"));
      await Deno.symlink(join(root, "missing.txt"), join(root, "dangling.txt"));
      const { files, skipped } = await walkTree(root);
      assert.deepEqual(files.map((f) => f.path), ["in.ts"]);
      assert.deepEqual(skipped, [
        { path: "chain", reason: "symlink_outside_root" },
        { path: "dangling.txt", reason: "unreadable" },
        { path: "out.txt", reason: "symlink_outside_root" },
        { path: "out_dir", reason: "symlink_outside_root" },
        { path: "rel_dir", reason: "symlink_outside_root" },
      ]);
    });
  } finally {
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("walkTree() judges links by the root's real path when the root is a link", async () => {
  const base = await makeTree({ "project/src/a.ts": "a" });
  try {
    const alias = join(base, "alias");
    await Deno.symlink(join(base, "project"), alias);
    // Inside the root, spelled through the root's alias: still inside.
    await Deno.symlink(join(alias, "src"), join(base, "project/via_alias"));
    const { files, skipped } = await walkTree(alias);
    assert.deepEqual(files.map((f) => [f.path, f.absolutePath]), [
      ["src/a.ts", join(alias, "src/a.ts")],
    ]);
    assert.deepEqual(skipped, [{ path: "via_alias", reason: "symlink_duplicate" }]);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("walkTree() terminates on symlink cycles", async () => {
  const tree = {
    "a/b/f.ts": "f",
    ".gitignore": "hidden/\n",
    "hidden/p/p.ts": "p",
    "hidden/q/q.ts": "q",
  };
  await withTree(tree, async (root) => {
    await Deno.symlink(join(root, "a"), join(root, "a/b/up")); // an ancestor
    await Deno.symlink(root, join(root, "a/b/top")); // the root itself
    await Deno.symlink(join(root, "self1"), join(root, "self2"));
    await Deno.symlink(join(root, "self2"), join(root, "self1")); // a cycle of links
    // Two directories that link to each other, reached only through a link.
    await Deno.symlink(join(root, "hidden/q"), join(root, "hidden/p/to_q"));
    await Deno.symlink(join(root, "hidden/p"), join(root, "hidden/q/to_p"));
    await Deno.symlink(join(root, "hidden/p"), join(root, "entry"));
    const { files, skipped } = await walkTree(root);
    assert.deepEqual(files.map((f) => f.path), [
      ".gitignore",
      "a/b/f.ts",
      "entry/p.ts",
      "entry/to_q/q.ts",
    ]);
    assert.deepEqual(skipped, [
      { path: "a/b/top", reason: "symlink_loop" },
      { path: "a/b/up", reason: "symlink_loop" },
      { path: "entry/to_q/to_p", reason: "symlink_loop" },
      { path: "self1", reason: "symlink_loop" },
      { path: "self2", reason: "symlink_loop" },
    ]);
  });
});
