/**
 * The one check of the folder a command works on (`index`, `search`,
 * `status`, `watch`, `fit-inputs`, `mcp`, `validate`, `get`), so a missing
 * root, a file or `/` reads the same whichever command met it.
 */
import { resolve, sep } from "node:path";
import { WayfinderError } from "./error.ts";

/**
 * The root's real path, once it is known to be a directory other than `/`.
 * Synchronous, for the bundle loader too.
 *
 * @param root The root as the user gave it; messages quote it so.
 * @throws {WayfinderError} `io` when `root` does not exist or cannot be
 *   read; `usage` when it is a file, or is `/` (also through a symlink).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { projectRoot } from "./project_root.ts";
 *
 * assert.throws(() => projectRoot("/"), { message: "'/' is the filesystem root, not a project directory" });
 * assert.throws(() => projectRoot("/no/such/folder"), { message: "'/no/such/folder' does not exist" });
 * ```
 */
export function projectRoot(root: string): string {
  const absolute = resolve(root);
  if (absolute === sep) throw notAProject(root, "is");
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(absolute);
  } catch (error) {
    // A path under a file (NotADirectory) does not exist either.
    const missing = error instanceof Deno.errors.NotFound ||
      error instanceof Deno.errors.NotADirectory;
    const why = missing ? "does not exist" : `cannot be read: ${(error as Error).message}`;
    throw new WayfinderError("io", `'${root}' ${why}`, { cause: error });
  }
  if (!info.isDirectory) {
    throw new WayfinderError("usage", `'${root}' is a file, not a directory`);
  }
  const real = Deno.realPathSync(absolute);
  if (real === sep) throw notAProject(root, "leads to");
  return real;
}

function notAProject(root: string, how: "is" | "leads to"): WayfinderError {
  return new WayfinderError(
    "usage",
    `'${root}' ${how} the filesystem root, not a project directory`,
  );
}
