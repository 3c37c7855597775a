/** Path helpers shared by src/ and main.ts, on node:path and node:url. */
export { basename, dirname, join, relative, resolve } from "node:path";
export { fileURLToPath as fromFileUrl } from "node:url";
import { sep } from "node:path";

/** Whether `path` is `dir` or lies under it (both absolute, compared as written). */
export function isInside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}
