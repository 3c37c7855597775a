import ignore, { type Ignore } from "ignore";

/**
 * Files left out of every walk unless the project asks for them: lock files
 * and machine-written bundles, whose text is long, repetitive and never what
 * a search is looking for. Patterns use `.gitignore` syntax and act as the
 * lowest-priority ignore rules, so a project re-includes a file with a
 * negation in its `.wayfinderignore` or `.gitignore` (`!deno.lock`), or by
 * naming it in an `include` glob (see {@link namesDefaultExclude}).
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
