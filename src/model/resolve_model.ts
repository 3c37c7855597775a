import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { WayfinderError } from "../error.ts";

/** Options of {@linkcode resolveModelPath}. */
export interface ResolveModelOptions {
  /**
   * An explicit model path, already absolute (the config module resolves it
   * against the folder it was written in). When set it must exist.
   */
  model?: string;
  /** Where `model` came from, for the message when it is missing: "--model", a variable, … */
  origin?: string;
  /** The folder of the running executable (compiled binaries ship `models/` beside it). */
  executableDir?: string;
  /** The project root; its `models/embedding.gguf` is the last resort. */
  projectDir?: string;
  /** The file looked for in each `models/` folder. @default "embedding.gguf" */
  fileName?: string;
  /** What is looked for, for messages. @default "the embedding model" */
  what?: string;
  /** How to make one, for the message when none is found. */
  fix?: string;
}

/** Where the model was found and which paths were looked at, in order. */
export interface ResolvedModel {
  path: string;
  tried: string[];
  from: "explicit" | "executable" | "project";
}

/**
 * Finds the embedding model: the explicit path if one was chosen, else
 * `models/embedding.gguf` beside the executable, else in the project.
 * Never downloads. Which explicit source wins (flag > environment >
 * wayfinder.json) is the config module's business, not this function's.
 *
 * @throws {WayfinderError} "no_model" when the explicit path does not exist,
 *   naming it, or when no default location has a model.
 */
export function resolveModelPath(options: ResolveModelOptions): ResolvedModel {
  if (options.model) {
    // An explicit choice that is missing is a mistake to report, not a cue to fall back.
    const path = resolve(options.model);
    if (!existsSync(path)) {
      const origin = options.origin ? ` (from ${options.origin})` : "";
      throw new WayfinderError(
        "no_model",
        `Cannot find ${options.what ?? "the embedding model"}: '${path}'${origin} does not exist`,
      );
    }
    return { path, tried: [path], from: "explicit" };
  }
  const tried: string[] = [];
  const defaults: Array<[ResolvedModel["from"], string | undefined]> = [
    ["executable", options.executableDir],
    ["project", options.projectDir],
  ];
  for (const [from, dir] of defaults) {
    if (dir === undefined) continue;
    const path = resolve(join(dir, "models", options.fileName ?? "embedding.gguf"));
    if (tried.includes(path)) continue;
    tried.push(path);
    if (existsSync(path)) return { path, tried, from };
  }
  throw new WayfinderError(
    "no_model",
    `Cannot find ${options.what ?? "an embedding model"}; tried: ${
      tried.join(", ") || "nothing"
    }. ` +
      (options.fix ??
        "Run 'wayfinder model prepare' (download) or 'wayfinder model import <checkpoint>'"),
  );
}
