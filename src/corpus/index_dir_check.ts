/**
 * Refuses an index folder that would mix the index with the tree or with
 * someone's files: the tree itself or a folder above it (through symlinks
 * too), or a folder of other files.
 */
import { isInside } from "../_paths.ts";
import { dirname, join, relative, resolve } from "node:path";
import { WayfinderError } from "../error.ts";
import { type Hints, hintsFor } from "../hints.ts";
import { mayHoldIndex } from "../store/mod.ts";

/**
 * @param root The corpus root, absolute.
 * @param indexDir The index folder, absolute; it need not exist yet.
 * @param hints How a refusal says to choose another folder. @default the CLI's wording
 * @throws {WayfinderError} `usage` when the index folder holds the tree, is
 *   (or lies under) a file, or is a folder with entries that is not a wayfinder index.
 */
export async function assertIndexDirUsable(
  root: string,
  indexDir: string,
  hints: Hints = hintsFor("cli"),
): Promise<void> {
  const [realRoot, realIndex] = await Promise.all([realPathOf(root), realPathOf(indexDir)]);
  const refuse = (why: string) =>
    new WayfinderError("usage", `Cannot keep the index of ${root} in '${indexDir}': ${why}`);
  if (isInside(realRoot, realIndex)) {
    throw refuse(`it holds the tree itself; ${hints.otherIndexDir()}`);
  }
  const file = await fileInTheWay(indexDir);
  if (file !== null) {
    const which = file === resolve(indexDir) ? "it" : `'${file}'`;
    throw refuse(`${which} is a file, not a directory; ${hints.otherIndexDir()}`);
  }
  const names = await Array.fromAsync(Deno.readDir(indexDir), (entry) => entry.name)
    .catch(() => null); // Missing: created on first index.
  if (names && !mayHoldIndex(names)) {
    throw refuse(
      "it is a folder of other files, not a wayfinder index; choose an empty or new one",
    );
  }
}

/**
 * The file at `path` or at the nearest existing folder above it, which no
 * index folder can be created in; null when that is a folder (or a link to one).
 */
async function fileInTheWay(path: string): Promise<string | null> {
  for (let at = resolve(path);; at = dirname(at)) {
    const info = await Deno.stat(at).catch(() => null);
    if (info) return info.isDirectory ? null : at;
    if (dirname(at) === at) return null;
  }
}

/**
 * The real path of `path`; for a path that does not exist yet, the real path
 * of its nearest existing ancestor followed by the rest.
 */
async function realPathOf(path: string): Promise<string> {
  const absolute = resolve(path);
  for (let existing = absolute;; existing = dirname(existing)) {
    const real = await Deno.realPath(existing).catch(() => null);
    if (real !== null) return join(real, relative(existing, absolute));
    if (dirname(existing) === existing) return absolute;
  }
}
