import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { WayfinderError } from "../error.ts";

/** Options of {@linkcode resolveModelPath}; every source is optional but `projectDir`. */
export interface ResolveModelOptions {
  /** `--model <path>`, relative to the working directory. */
  flag?: string;
  /** The value of WAYFINDER_EMBEDDING_MODEL (the caller reads the environment). */
  env?: string;
  /** The `model` path from wayfinder.json. */
  config?: string;
  /** The folder holding wayfinder.json; relative config paths resolve against it. @default projectDir */
  configDir?: string;
  /** The folder of the running executable (compiled binaries ship `models/` beside it). */
  executableDir?: string;
  /** The project root; its `models/embedding.gguf` is the last resort. */
  projectDir: string;
}

/** Where the model was found and which paths were looked at, in order. */
export interface ResolvedModel {
  path: string;
  tried: string[];
  from: "flag" | "env" | "config" | "executable" | "project";
}

/**
 * Finds the embedding model: `--model` > WAYFINDER_EMBEDDING_MODEL > config >
 * `models/embedding.gguf` beside the executable > the project's
 * `models/embedding.gguf`. Never downloads.
 *
 * @throws {WayfinderError} "no_model" when an explicit path (flag, env,
 *   config) does not exist, naming it, or when no default location has a model.
 */
export function resolveModelPath(options: ResolveModelOptions): ResolvedModel {
  const tried: string[] = [];
  // An explicit choice that is missing is a mistake to report, not a cue to fall back.
  const explicit: Array<[ResolvedModel["from"], string | undefined, string, string]> = [
    ["flag", options.flag, ".", "--model"],
    ["env", options.env, ".", "WAYFINDER_EMBEDDING_MODEL"],
    ["config", options.config, options.configDir ?? options.projectDir, "wayfinder.json 'model'"],
  ];
  for (const [from, value, base, label] of explicit) {
    if (value === undefined || value === "") continue;
    const path = resolve(base, value);
    tried.push(path);
    if (!existsSync(path)) {
      throw new WayfinderError(
        "no_model",
        `Cannot find the embedding model: '${path}' (from ${label}) does not exist`,
      );
    }
    return { path, tried, from };
  }
  const defaults: Array<[ResolvedModel["from"], string | undefined]> = [
    ["executable", options.executableDir],
    ["project", options.projectDir],
  ];
  for (const [from, dir] of defaults) {
    if (dir === undefined) continue;
    const path = resolve(join(dir, "models", "embedding.gguf"));
    if (tried.includes(path)) continue;
    tried.push(path);
    if (existsSync(path)) return { path, tried, from };
  }
  throw new WayfinderError(
    "no_model",
    `Cannot find an embedding model; tried: ${tried.join(", ")}. Run 'wayfinder model prepare' ` +
      "(download) or 'wayfinder model import <checkpoint>'",
  );
}
