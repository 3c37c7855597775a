/** The directory SARIF paths are relative to: the git checkout holding the bundle, else its parent. */
import { dirname, resolve } from "node:path";

/**
 * `git rev-parse --show-toplevel` run in `bundle`, or the bundle's parent
 * directory when git is missing or the bundle is not in a repository.
 */
export function repoRootOf(bundle: string): string {
  const dir = resolve(bundle);
  try {
    const out = new Deno.Command("git", {
      args: ["rev-parse", "--show-toplevel"],
      cwd: dir,
      stdout: "piped",
      stderr: "null",
    }).outputSync();
    const top = new TextDecoder().decode(out.stdout).trim();
    if (out.success && top) return top;
  } catch { /* git is not installed */ }
  return dirname(dir);
}
