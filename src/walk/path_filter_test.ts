import assert from "node:assert/strict";
import { join } from "node:path";
import { pathFilter } from "./mod.ts";
import { paths, withTree } from "./testdata/make_tree.ts";

const TREE = {
  ".gitignore": "*.log\nbuild/\n!keep.log\n",
  "app.log": "x",
  "keep.log": "kept",
  "build/out.js": "x",
  "deno.lock": "{}",
  "src/.gitignore": "gen/\n!app.log\n",
  "src/app.log": "re-included by the nested file",
  "src/main.ts": "main",
  "src/skip.ts": "excluded by a glob",
  "src/gen/g.ts": "x",
  "docs/a.md": "# A",
  "docs/b.txt": "not included",
  ".git/HEAD": "ref",
};

Deno.test("pathFilter() keeps exactly the files walkTree() keeps", async () => {
  await withTree(TREE, async (root) => {
    for (
      const options of [{}, { include: ["*.md", "*.ts", "*.log"], exclude: ["src/skip.ts"] }]
    ) {
      const walked = new Set(await paths(root, options));
      const filter = pathFilter(root, options);
      for (const path of Object.keys(TREE)) {
        // A change to an ignore file changes what is walked, whatever the globs say.
        if (path.endsWith(".gitignore")) {
          assert.equal(await filter.ignores(path), false);
          continue;
        }
        assert.equal(
          !await filter.ignores(path),
          walked.has(path),
          `${path} ${JSON.stringify(options)}`,
        );
      }
      assert.equal(await filter.ignores("build"), true, "an ignored folder");
      assert.equal(await filter.ignores("src"), false);
    }
  });
});

Deno.test("pathFilter() reads a folder's rules again when its ignore file changes", async () => {
  await withTree(TREE, async (root) => {
    const filter = pathFilter(root);
    assert.equal(await filter.ignores("docs/b.txt"), false);
    await Deno.writeTextFile(join(root, "docs", ".wayfinderignore"), "*.txt\n");
    assert.equal(await filter.ignores("docs/.wayfinderignore"), false, "an ignore file counts");
    assert.equal(await filter.ignores("docs/b.txt"), true);
  });
});
