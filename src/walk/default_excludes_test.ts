import assert from "node:assert/strict";
import { DEFAULT_EXCLUDES } from "./mod.ts";
import { namesDefaultExclude } from "./default_excludes.ts";
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
  "web/dist/app.min.js": "x",
  "web/dist/app.min.css": "x",
  "web/dist/app.js.map": "{}",
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
      "web/dist/app.min.js",
    ]);
  });
});

Deno.test("an include glob that names a default exclude adds it back and restricts nothing", async () => {
  await withTree({ ...GENERATED, ...SOURCE }, async (root) => {
    const source = Object.keys(SOURCE);
    assert.deepEqual(
      await paths(root, { include: ["deno.lock", "*.min.js"] }),
      [...source, "deno.lock", "web/dist/app.min.js"].sort(),
    );
    // Beside a restricting glob, the named file is added to what that glob keeps.
    assert.deepEqual(await paths(root, { include: ["deno.lock", "web/*.js"] }), [
      "deno.lock",
      "web/app.js",
    ]);
    assert.deepEqual(await paths(root, { include: ["**/*.lock"] }), []);
    assert.deepEqual(
      await paths(root, { include: ["web/**/*.min.js", "**/go.sum"] }),
      [...source, "go/go.sum", "web/dist/app.min.js"].sort(),
    );
    // A broad glob leaves the defaults in force.
    assert.deepEqual(await paths(root, { include: ["*.json"] }), ["web/package.json"]);
    // `exclude` still wins over a naming include.
    assert.deepEqual(
      await paths(root, { include: ["*.map"], exclude: ["dist"] }),
      source.filter((p) => !p.startsWith("web/dist")).sort(),
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
