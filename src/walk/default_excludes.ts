import ignore, { type Ignore } from "ignore";

/**
 * Files and folders left out of every walk unless the project asks for them:
 * lock files and machine-written bundles, whose text is long, repetitive and
 * never what a search is looking for, and the folders that hold installed
 * dependencies, virtual environments, caches and build output, which are not
 * the project's own code and often dwarf it. Patterns use `.gitignore` syntax
 * and act as the lowest-priority ignore rules, so a project re-includes one
 * with a negation in its `.wayfinderignore` or `.gitignore` (`!deno.lock`,
 * `!vendor/`), or by naming it in an `include` glob (see
 * {@link namesDefaultExclude} and {@link excludedFolderIn}).
 */
export const DEFAULT_EXCLUDES: readonly string[] = Object.freeze([
  // Lock files, by ecosystem.
  "deno.lock",
  "package-lock.json",
  "npm-shrinkwrap.json",
  "yarn.lock",
  "pnpm-lock.yaml",
  "bun.lock",
  "bun.lockb",
  "Cargo.lock",
  "poetry.lock",
  "Pipfile.lock",
  "uv.lock",
  "pdm.lock",
  "Gemfile.lock",
  "composer.lock",
  "go.sum",
  "go.work.sum",
  "pubspec.lock",
  "Podfile.lock",
  "Package.resolved",
  "packages.lock.json",
  "gradle.lockfile",
  "flake.lock",
  "mix.lock",
  // This tool's own: its settings, and the resolved Profiles `wayfinder get` writes. Neither is
  // the project's content, and writing the settings must not make the index look behind.
  "wayfinder.json",
  "wayfinder.lock",
  // Minified bundles and source maps.
  "*.min.js",
  "*.min.mjs",
  "*.min.cjs",
  "*.min.css",
  "*.map",
  // Installed dependencies, by ecosystem (a trailing slash: folders only, at any depth).
  "node_modules/",
  "bower_components/",
  "jspm_packages/",
  "vendor/",
  ".venv/",
  "venv/",
  ".bundle/",
  "Pods/",
  "Carthage/",
  ".dart_tool/",
  ".pub-cache/",
  ".stack-work/",
  "elm-stuff/",
  ".terraform/",
  // Caches of tools.
  "__pycache__/",
  ".mypy_cache/",
  ".pytest_cache/",
  ".ruff_cache/",
  ".tox/",
  ".nox/",
  ".eggs/",
  "*.egg-info/",
  ".gradle/",
  ".parcel-cache/",
  ".turbo/",
  ".zig-cache/",
  "zig-cache/",
  // Build output.
  "dist/",
  "build/",
  "target/",
  "_build/",
  "zig-out/",
  ".next/",
  ".nuxt/",
  ".svelte-kit/",
  ".angular/",
]);

const defaults = defaultExcludeRules();

/** A fresh ignore-rules object holding {@link DEFAULT_EXCLUDES}. */
export function defaultExcludeRules(): Ignore {
  return ignore().add([...DEFAULT_EXCLUDES]);
}

/**
 * Whether an include glob names a default-excluded kind of file: its last
 * segment, read as a file name, is itself default-excluded (`deno.lock`,
 * `web/yarn.lock`, `src/*.min.js`). Such a glob re-includes the files it
 * matches; a broad one (`*.json`, `src/*`) leaves the defaults in force.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { namesDefaultExclude } from "./default_excludes.ts";
 *
 * assert.equal(namesDefaultExclude("web/package-lock.json"), true);
 * assert.equal(namesDefaultExclude("*.min.js"), true);
 * assert.equal(namesDefaultExclude("*.json"), false);
 * ```
 */
export function namesDefaultExclude(glob: string): boolean {
  const last = glob.trim().replace(/\/+$/, "").split("/").at(-1) ?? "";
  // "" and dot segments are not file names ("ignore" rejects them).
  return !/^\.{0,2}$/.test(last) && defaults.ignores(last);
}

/**
 * The part of an include glob that reaches a default-excluded folder: its
 * segments up to the first that names one (`vendor/**` → `vendor`,
 * `**\/node_modules/react/**` → `**\/node_modules`), or undefined when it names
 * none. The walk enters the folders that part matches, for that glob alone.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { excludedFolderIn } from "./default_excludes.ts";
 *
 * assert.equal(excludedFolderIn("vendor"), "vendor");
 * assert.equal(excludedFolderIn("web/node_modules/react/**"), "web/node_modules");
 * assert.equal(excludedFolderIn("src/**"), undefined);
 * ```
 */
export function excludedFolderIn(glob: string): string | undefined {
  const segments = glob.trim().replace(/^\.\//, "").replace(/\/+$/, "").split("/");
  // A folder-only pattern (`vendor/`) leaves out the folder but not a file of that name.
  const at = segments.findIndex((segment) =>
    !/^\.{0,2}$/.test(segment) && defaults.ignores(`${segment}/`) && !defaults.ignores(segment)
  );
  return at === -1 ? undefined : segments.slice(0, at + 1).join("/");
}
