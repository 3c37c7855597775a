import assert from "node:assert/strict";
import { DEFAULT_EXCLUDES } from "./mod.ts";
import { excludedFolderIn, namesDefaultExclude } from "./default_excludes.ts";
import { paths, withTree } from "./testdata/make_tree.ts";

const GENERATED = {
  "deno.lock": "{}",
  "package-lock.json": "{}",
  "web/yarn.lock": "#",
  "web/pnpm-lock.yaml": "lockfileVersion: 9",
  "rust/Cargo.lock": "#",
  "py/poetry.lock": "#",
  "rb/Gemfile.lock": "GEM",
  "php/composer.lock": "{}",
  "go/go.sum": "h1:",
  "dart/pubspec.lock": "packages:",
  "wayfinder.lock": '{"lock_version": 1}',
  "wayfinder.json": '{"knowledge": {"current": true}}',
  "web/static/app.min.js": "x",
  "web/static/app.min.css": "x",
  "web/static/app.js.map": "{}",
};
const SOURCE = {
  "web/app.js": "export const app = 1;",
  "web/package.json": "{}",
  "go/go.mod": "module x",
  "rust/Cargo.toml": "[package]",
  "locks.md": "# Why we commit lock files",
};

Deno.test("walkTree() leaves out lock files, minified bundles and source maps by default", async () => {
  await withTree({ ...GENERATED, ...SOURCE }, async (root) => {
    assert.deepEqual(await paths(root), Object.keys(SOURCE).sort());
  });
});

Deno.test("DEFAULT_EXCLUDES names each kind of generated file in one list", () => {
  for (const pattern of ["deno.lock", "package-lock.json", "go.sum", "*.min.js", "*.map"]) {
    assert.ok(DEFAULT_EXCLUDES.includes(pattern), pattern);
  }
  assert.ok(Object.isFrozen(DEFAULT_EXCLUDES));
});

Deno.test("an ignore-file negation re-includes a default exclude", async () => {
  const files = {
    ...GENERATED,
    ".wayfinderignore": "!deno.lock\n",
    "web/.gitignore": "!*.min.js\n",
  };
  await withTree(files, async (root) => {
    assert.deepEqual(await paths(root), [
      ".wayfinderignore",
      "deno.lock",
      "web/.gitignore",
      "web/static/app.min.js",
    ]);
  });
});

Deno.test("an include glob that names a default exclude adds it back and restricts nothing", async () => {
  await withTree({ ...GENERATED, ...SOURCE }, async (root) => {
    const source = Object.keys(SOURCE);
    assert.deepEqual(
      await paths(root, { include: ["deno.lock", "*.min.js"] }),
      [...source, "deno.lock", "web/static/app.min.js"].sort(),
    );
    // Beside a restricting glob, the named file is added to what that glob keeps.
    assert.deepEqual(await paths(root, { include: ["deno.lock", "web/*.js"] }), [
      "deno.lock",
      "web/app.js",
    ]);
    assert.deepEqual(await paths(root, { include: ["**/*.lock"] }), []);
    assert.deepEqual(
      await paths(root, { include: ["web/**/*.min.js", "**/go.sum"] }),
      [...source, "go/go.sum", "web/static/app.min.js"].sort(),
    );
    // A broad glob leaves the defaults in force.
    assert.deepEqual(await paths(root, { include: ["*.json"] }), ["web/package.json"]);
    // `exclude` still wins over a naming include.
    assert.deepEqual(
      await paths(root, { include: ["*.map"], exclude: ["static"] }),
      source.filter((p) => !p.startsWith("web/static")).sort(),
    );
  });
});

Deno.test("a project's own ignore rule is not lifted by a naming include", async () => {
  await withTree({ ".gitignore": "deno.lock\n", "deno.lock": "{}" }, async (root) => {
    assert.deepEqual(await paths(root, { include: ["deno.lock"] }), [".gitignore"]);
  });
});

Deno.test("namesDefaultExclude() reads the last segment of a glob as a file name", () => {
  const naming = [
    "deno.lock",
    "web/yarn.lock",
    "**/Cargo.lock",
    "src/*.min.css",
    "*.map",
    "go.sum/",
    "wayfinder.json",
  ];
  for (const glob of naming) assert.equal(namesDefaultExclude(glob), true, glob);
  for (const glob of ["*", "**", "*.json", "*.lock", "src/", ".", "..", "", "lock/deno.ts"]) {
    assert.equal(namesDefaultExclude(glob), false, glob);
  }
});

/** A project without a .gitignore: its own code beside installed dependencies and build output. */
const FOLDERS = {
  "src/app.py": "import requests",
  "src/vendor_api.py": "# a file whose name only starts like a folder's",
  "node_modules/left-pad/index.js": "module.exports = 1;",
  "web/node_modules/react/index.js": "export {};",
  "web/node_modules/react/README.md": "# React",
  "vendor/github.com/pkg/errors/errors.go": "package errors",
  ".venv/lib/site.py": "x = 1",
  "venv/bin/activate": "export VIRTUAL_ENV=x",
  "src/__pycache__/app.cpython-312.pyc": "x",
  "dist/app.js": "x",
  "build/out.o": "x",
  "target/debug/app.d": "x",
  "_build/dev/lib/app.beam": "x",
  "docs/build.md": "# How to build",
  "rust/target.rs": "fn target() {}",
};
const OWN = ["docs/build.md", "rust/target.rs", "src/app.py", "src/vendor_api.py"];

Deno.test("walkTree() leaves out dependency, cache and build folders without a .gitignore", async () => {
  await withTree(FOLDERS, async (root) => {
    assert.deepEqual(await paths(root), OWN);
  });
});

Deno.test("an include glob reaching into a default-excluded folder brings back what it names", async () => {
  await withTree(FOLDERS, async (root) => {
    // The folder's name alone brings all of it back, at any depth, beside everything else.
    assert.deepEqual(
      await paths(root, { include: ["node_modules"] }),
      [
        ...OWN,
        "node_modules/left-pad/index.js",
        "web/node_modules/react/README.md",
        "web/node_modules/react/index.js",
      ].sort(),
    );
    // A deeper glob brings back only what it matches.
    assert.deepEqual(
      await paths(root, { include: ["web/node_modules/react/*.js"] }),
      [
        ...OWN,
        "web/node_modules/react/index.js",
      ].sort(),
    );
    assert.deepEqual(
      await paths(root, { include: ["vendor/**/*.go"] }),
      [
        ...OWN,
        "vendor/github.com/pkg/errors/errors.go",
      ].sort(),
    );
    // Beside a restricting glob, as a named file is.
    assert.deepEqual(await paths(root, { include: ["src/*.py", "dist"] }), [
      "dist/app.js",
      "src/app.py",
      "src/vendor_api.py",
    ]);
    // `exclude` still wins.
    assert.deepEqual(await paths(root, { include: ["build"], exclude: ["*.o"] }), OWN);
  });
});

Deno.test("an ignore-file negation re-includes a default-excluded folder", async () => {
  await withTree({ ...FOLDERS, ".wayfinderignore": "!vendor/\n" }, async (root) => {
    assert.deepEqual(
      await paths(root),
      [
        ".wayfinderignore",
        ...OWN,
        "vendor/github.com/pkg/errors/errors.go",
      ].sort(),
    );
  });
});

Deno.test("excludedFolderIn() finds the default-excluded folder a glob reaches", () => {
  assert.equal(excludedFolderIn("vendor"), "vendor");
  assert.equal(excludedFolderIn("./vendor/"), "vendor");
  assert.equal(excludedFolderIn("**/node_modules/react/**"), "**/node_modules");
  assert.equal(excludedFolderIn("src/__pycache__/*.pyc"), "src/__pycache__");
  for (const glob of ["src/**", "vendor_api.py", "deno.lock", "*.min.js", "build.md", "**"]) {
    assert.equal(excludedFolderIn(glob), undefined, glob);
  }
});
