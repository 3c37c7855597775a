/**
 * Which wayfinder.json binds the Profiles of a folder, and the data root
 * whose cache holds them: one rule for `get`, `validate` and the MCP
 * `validate` tool, so they never disagree about a project.
 */
import { dirname } from "node:path";
import { findConfigFile } from "../../config/mod.ts";
import { hasBinding } from "./read_binding.ts";

/** Where a folder's Profile binding and cache are. */
export interface BindingLocation {
  /** The wayfinder.json holding the binding, else the nearest one, else null. */
  configFile: string | null;
  /** The data root `get` run in that file's folder uses: the cache lives under it. */
  dataRoot: string;
}

/**
 * The nearest wayfinder.json at or above `start` that has `profiles`,
 * walking past files holding only settings (one a bundle keeps for its
 * search settings must not unbind the project's Profiles); the nearest file
 * of all when none binds, null when there is none.
 * @throws {WayfinderError} `config` when a file on the way is not JSON.
 */
export function findBindingFile(start: string): string | null {
  const nearest = findConfigFile(start);
  for (let file = nearest; file !== null;) {
    if (hasBinding(file)) return file;
    const above = dirname(dirname(file));
    file = above === dirname(file) ? null : findConfigFile(above);
  }
  return nearest;
}

/**
 * The binding file for `start` and its data root.
 * @param dataRootAt The data root the settings give for a folder: flags,
 *   then environment, then that folder's nearest wayfinder.json, then the
 *   default (`config.forTarget(dir, ["dataDir"])`).
 */
export function locateBinding(
  start: string,
  dataRootAt: (dir: string) => string,
): BindingLocation {
  const configFile = findBindingFile(start);
  return { configFile, dataRoot: dataRootAt(configFile ? dirname(configFile) : start) };
}
