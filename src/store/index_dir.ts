import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";
import { basename, join, resolve } from "node:path";

/**
 * The index directory of a corpus: `<dataRoot>/indexes/<basename>-<12 hex>`,
 * the hex being the start of sha256 of the root's real path, so symlinked
 * spellings of one root share an index and equal basenames do not collide.
 * A root that does not exist hashes its absolute path instead.
 */
export function indexDirFor(dataRoot: string, corpusRoot: string): string {
  let real: string;
  try {
    real = realpathSync(corpusRoot);
  } catch {
    real = resolve(corpusRoot);
  }
  const hash = createHash("sha256").update(real).digest("hex").slice(0, 12);
  const name = basename(real).replace(/[^A-Za-z0-9._-]/g, "_") || "root";
  return join(dataRoot, "indexes", `${name}-${hash}`);
}
