import assert from "node:assert/strict";
import { join } from "node:path";
import { WayfinderError } from "../error.ts";
import { acquireIndexLock } from "../store/mod.ts";
import { detectLanguage, languageId, walkTree } from "./mod.ts";
import { makeTree, paths } from "./testdata/make_tree.ts";

Deno.test("walkTree() reads text files sorted by posix path, skipping .git", async () => {
  const root = await makeTree({
    "b.ts": "export const b = 2;\n",
    "a/z.md": "# Z\n",
    "a/y/x.py": "x = 1\n",
    ".git/HEAD": "ref: refs/heads/main\n",
    "sub/.git/config": "[core]\n",
  });
  try {
    const { files, skipped } = await walkTree(root);
    assert.deepEqual(files.map((f) => f.path), ["a/y/x.py", "a/z.md", "b.ts"]);
    assert.deepEqual(skipped, []);
    const b = files[2];
    assert.equal(b.content, "export const b = 2;\n");
    assert.equal(b.bytes, 20);
    assert.equal(b.absolutePath, join(root, "b.ts"));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("walkTree() honours root and nested .gitignore with negations", async () => {
  const root = await makeTree({
    ".gitignore": "*.log\nbuild/\n!keep.log\n",
    "app.log": "x",
    "keep.log": "kept",
    "build/out.js": "x",
    "src/.gitignore": "gen/\n!app.log\n*.tmp\n",
    "src/app.log": "re-included by the nested file",
    "src/main.ts": "main",
    "src/a.tmp": "x",
    "src/gen/g.ts": "x",
    "other/a.tmp": "not ignored outside src",
  });
  try {
    assert.deepEqual(await paths(root), [
      ".gitignore",
      "keep.log",
      "other/a.tmp",
      "src/.gitignore",
      "src/app.log",
      "src/main.ts",
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("walkTree() honours .wayfinderignore, nested, overriding .gitignore", async () => {
  const root = await makeTree({
    ".gitignore": "docs/secret.md\n",
    ".wayfinderignore": "fixtures/\n*.snap\n",
    "fixtures/big.json": "{}",
    "a.snap": "x",
    "docs/.wayfinderignore": "draft*\n!secret.md\n",
    "docs/draft1.md": "x",
    "docs/guide.md": "guide",
    "docs/secret.md": "a .wayfinderignore negation wins over the .gitignore",
  });
  try {
    assert.deepEqual(await paths(root), [
      ".gitignore",
      ".wayfinderignore",
      "docs/.wayfinderignore",
      "docs/guide.md",
      "docs/secret.md",
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("walkTree() applies include and exclude globs to root-relative paths", async () => {
  const root = await makeTree({
    "src/a.ts": "a",
    "src/a_test.ts": "t",
    "src/deep/b.ts": "b",
    "src/c.md": "c",
    "README.md": "r",
    "node_modules/pkg/index.ts": "x",
    "vendor/v.ts": "v",
  });
  try {
    assert.deepEqual(await paths(root, { include: ["src/**/*.ts"] }), [
      "src/a.ts",
      "src/a_test.ts",
      "src/deep/b.ts",
    ]);
    // Slash-less patterns match base names at any depth.
    assert.deepEqual(await paths(root, { include: ["*.md"] }), ["README.md", "src/c.md"]);
    assert.deepEqual(
      await paths(root, {
        include: ["**/*.ts"],
        exclude: ["*_test.ts", "node_modules", "vendor/"],
      }),
      ["src/a.ts", "src/deep/b.ts"],
    );
    // Dependency folders are left out by default, .gitignore or not.
    assert.deepEqual(await paths(root, { exclude: ["src/**"] }), ["README.md"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("walkTree() skips binary, non-UTF-8 and too-large files with reasons", async () => {
  const root = await makeTree({
    "image.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]),
    "latin1.txt": new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]), // "café" in Latin-1
    "big.txt": "x".repeat(101),
    "small.txt": "x".repeat(100),
    "utf8.txt": "café ✓\n",
  });
  try {
    const { files, skipped } = await walkTree(root, { maxFileBytes: 100 });
    assert.deepEqual(files.map((f) => f.path), ["small.txt", "utf8.txt"]);
    assert.equal(files[1].content, "café ✓\n");
    assert.equal(files[1].bytes, 10);
    assert.deepEqual(skipped, [
      { path: "big.txt", reason: "too_large" },
      { path: "image.png", reason: "binary" },
      { path: "latin1.txt", reason: "not_utf8" },
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("walkTree() refuses '/' and roots that are missing or not directories", async () => {
  await assert.rejects(walkTree("/"), (e: unknown) => {
    assert.ok(e instanceof WayfinderError);
    assert.equal(e.code, "usage");
    assert.equal(e.message, "'/' is the filesystem root, not a project directory");
    return true;
  });
  await assert.rejects(walkTree("/usr/.."), { code: "usage" });
  const root = await makeTree({ "f.txt": "f" });
  try {
    await assert.rejects(walkTree(join(root, "nope")), (e: unknown) => {
      assert.ok(e instanceof WayfinderError);
      assert.equal(e.code, "io");
      assert.match(e.message, /^'.*nope' does not exist$/);
      return true;
    });
    await assert.rejects(walkTree(join(root, "f.txt")), {
      code: "usage",
      message: `'${join(root, "f.txt")}' is a file, not a directory`,
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("walkTree() refuses an over-long glob or ignore-file line in one line naming where it is", async () => {
  const long = "a".repeat(70_000);
  const root = await makeTree({ "a.md": "# A", "sub/.gitignore": `*.log\n${long}\n` });
  try {
    await assert.rejects(walkTree(root, { include: [long] }), {
      code: "usage",
      message: `Include glob '${"a".repeat(40)}…' is 70000 characters long; the limit is 4096`,
    });
    await assert.rejects(walkTree(root, { exclude: [`x/${long}`] }), {
      code: "usage",
      message: /^Exclude glob 'x\/a+…' is 70002 characters long; the limit is 4096$/,
    });
    await assert.rejects(walkTree(root), {
      code: "input",
      message: `Ignore file '${join(root, "sub", ".gitignore")}' line 2: '${
        "a".repeat(40)
      }…' is 70000 characters long; the limit is 4096`,
    });
    // At the limit a pattern still matches, and a long comment is no pattern.
    await Deno.writeTextFile(join(root, "sub", ".gitignore"), `# ${long}\n`);
    assert.deepEqual(await paths(root, { exclude: ["*".repeat(4096)] }), []);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("detectLanguage() maps extensions to language ids", () => {
  const cases: [string, string][] = [
    ["a.ts", "typescript"],
    ["a.mts", "typescript"],
    ["a.cts", "typescript"],
    ["types.d.ts", "typescript"],
    ["a.tsx", "tsx"],
    ["a.js", "javascript"],
    ["a.mjs", "javascript"],
    ["a.cjs", "javascript"],
    ["a.jsx", "javascript"],
    ["lib/a.dart", "dart"],
    ["a.py", "python"],
    ["a.go", "go"],
    ["a.rs", "rust"],
    ["A.java", "java"],
    ["README.md", "markdown"],
    ["doc.markdown", "markdown"],
    ["x.c", "c"],
    ["x.cpp", "cpp"],
    ["x.cs", "c_sharp"],
    ["x.rb", "ruby"],
    ["x.kt", "kotlin"],
    ["x.swift", "swift"],
    ["x.php", "php"],
    ["x.scala", "scala"],
    ["x.lua", "lua"],
    ["run.sh", "bash"],
    ["test/a.bats", "bash"],
    ["lib/plug.ex", "elixir"],
    ["test/plug_test.exs", "elixir"],
    ["src/main.zig", "zig"],
    ["src/Data/Aeson.hs", "haskell"],
    ["schema.sql", "sql"],
    ["x.json", "json"],
    ["x.yaml", "yaml"],
    ["x.yml", "yaml"],
    ["x.toml", "toml"],
    ["x.css", "css"],
    ["x.html", "html"],
    ["NOTES.TXT", "text"],
    ["Makefile", "text"],
    [".bashrc", "text"],
    ["dir.ts/file", "text"],
  ];
  for (const [path, language] of cases) assert.equal(detectLanguage(path), language, path);
});

Deno.test("detectLanguage() recognises every language of the code-search benchmark", () => {
  // The benchmark's repos.json names languages so; a typical file of each.
  const benchmark: Array<[string, string]> = [
    ["python", "a.py"],
    ["javascript", "a.js"],
    ["typescript", "a.ts"],
    ["go", "a.go"],
    ["java", "A.java"],
    ["php", "a.php"],
    ["ruby", "a.rb"],
    ["rust", "a.rs"],
    ["csharp", "A.cs"],
    ["kotlin", "A.kt"],
    ["scala", "A.scala"],
    ["swift", "A.swift"],
    ["cpp", "a.hpp"],
    ["c", "a.c"],
    ["elixir", "a.ex"],
    ["bash", "a.bash"],
    ["haskell", "A.hs"],
    ["lua", "a.lua"],
    ["zig", "a.zig"],
  ];
  // A C++ header keeps C's extension.
  assert.equal(detectLanguage("absl/strings/str_cat.h", "namespace absl {\nint f();\n}\n"), "cpp");
  assert.equal(detectLanguage("fmt/core.h", "template <typename T> struct formatter;\n"), "cpp");
  assert.equal(detectLanguage("lib/curl.h", "struct Curl_easy;\nint curl_init(void);\n"), "c");
  assert.equal(detectLanguage("lib/curl.h"), "c");
  for (const [name, path] of benchmark) {
    assert.notEqual(detectLanguage(path), "text", path);
    assert.equal(languageId(name), detectLanguage(path), name);
  }
});

Deno.test("walkTree() leaves out wayfinder's own index and data folders, but not a folder that only looks alike", async () => {
  const root = await makeTree({
    "src/a.ts": "export const a = 1;\n",
    // An index an --index-dir put here: marked when its lock was first taken.
    ".wf/manifest.json": "{}\n",
    // An index written before markers: a `current` pointer beside a generation.
    "old-index/current": "gen-1-ab\n",
    "old-index/gen-1-ab/manifest.json": "{}\n",
    // A data root: its indexes, and the Profiles `get` keeps beside them.
    ".data/indexes/tree-0123456789ab/current": "gen-2-cd\n",
    ".data/indexes/tree-0123456789ab/gen-2-cd/text.bin": "passages\n",
    ".data/profiles/p/README.md": "# Profile\n",
    // Names alone, without a generation folder, are content.
    "notes/current": "what is current\n",
    "notes/indexes/today.md": "# Today\n",
  });
  try {
    const lock = await acquireIndexLock(join(root, ".wf"));
    await lock.release();
    const { files, skipped } = await walkTree(root);
    assert.deepEqual(files.map((f) => f.path), [
      "notes/current",
      "notes/indexes/today.md",
      "src/a.ts",
    ]);
    assert.deepEqual(skipped, []);
    // The root itself is what was asked for, index or not.
    assert.deepEqual((await walkTree(join(root, "old-index"))).files.map((f) => f.path), [
      "current",
      "gen-1-ab/manifest.json",
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
