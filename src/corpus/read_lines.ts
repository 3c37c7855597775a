import { join } from "node:path";
import { WayfinderError } from "../error.ts";
import { contentHasher } from "../pipeline/mod.ts";
import { decodeText } from "../walk/mod.ts";
import type { Corpus } from "./corpus.ts";

/** An indexed file's lines as it reads now, and whether it changed since it was indexed. */
export type FileLines = NonNullable<Awaited<ReturnType<Corpus["readLines"]>>>;

/**
 * The lines of `path` (relative to `root`) when `files`, an index's record,
 * holds it; undefined when it does not.
 * @throws {WayfinderError} "io" when the file cannot be read now (gone, or a permission taken away).
 */
export async function readIndexedLines(
  root: string,
  files: Readonly<Record<string, { hash: string }>>,
  path: string,
): Promise<FileLines | undefined> {
  if (!Object.hasOwn(files, path)) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(join(root, path));
  } catch (error) {
    throw new WayfinderError("io", `Cannot read '${path}': ${(error as Error).message}`);
  }
  // Decoded as the walk decodes it (a byte order mark dropped), so lines and hash match the index's.
  const decoded = decodeText(bytes);
  const text = "text" in decoded ? decoded.text : new TextDecoder().decode(bytes);
  const lines = text.split("\n");
  if (text === "" || text.endsWith("\n")) lines.pop();
  const changedSinceIndex = (await contentHasher())(text) !== files[path]!.hash;
  return { path, lines, changedSinceIndex };
}
