import { isInside } from "../_paths.ts";
import { join } from "node:path";
import type { BundleFiles } from "../okf/mod.ts";

/**
 * A bundle's files as a knowledge search resolves links against them: the
 * ones the index holds, and any other file or folder inside the root (an
 * image, a git-ignored schema), as `validate` sees them. A path that climbs
 * out through a symlink or an encoded `..` exists nowhere here, as the walker
 * never follows one either.
 */
export function bundleFiles(root: string, indexed: Iterable<string>): BundleFiles {
  let realRoot: Promise<string> | undefined;
  return {
    indexed: new Set(indexed),
    async exists(path) {
      realRoot ??= Deno.realPath(root);
      const [inside, real] = await Promise.all([
        realRoot,
        Deno.realPath(join(root, path)).catch(() => null),
      ]);
      return real !== null && isInside(real, inside);
    },
  };
}
