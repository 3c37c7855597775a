import { join } from "node:path";
import { WayfinderError } from "../error.ts";
import { contentHasher } from "../pipeline/mod.ts";
import { decodeText } from "../walk/mod.ts";
import type { Roots } from "./roots.ts";

/** Lines of a file inside a served root. */
export interface Range {
  root: string;
  path: string;
  lineStart: number;
  lineEnd: number;
  content: string;
  /** Present when the file's content is not what the index recorded: lines may not match hits. */
  changedSinceIndex?: true;
}

/**
 * Reads `lineStart..lineEnd` (1-based, inclusive; cut at the file's end and
 * at `maxLines`) of a file the index of a root holds, as the file reads now;
 * `changedSinceIndex` says when that is not what was indexed.
 * @throws {WayfinderError} "usage" when `lineStart` is past the file's last line.
 */
export async function readRange(
  roots: Roots,
  request: { path: string; lineStart: number; lineEnd: number; root?: string },
  maxLines: number,
): Promise<Range> {
  const { corpus, relativePath, indexedHash } = await roots.locateIndexed(
    request.path,
    request.root,
  );
  if (request.lineEnd < request.lineStart) {
    throw new WayfinderError(
      "usage",
      `lineEnd ${request.lineEnd} is before lineStart ${request.lineStart}`,
    );
  }
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(join(corpus.root, relativePath));
  } catch (error) {
    throw new WayfinderError("io", `Cannot read '${relativePath}': ${(error as Error).message}`);
  }
  // Decoded as the walk decodes it (a byte order mark dropped), so lines and hash match the index's.
  const decoded = decodeText(bytes);
  const text = "text" in decoded ? decoded.text : new TextDecoder().decode(bytes);
  // A final newline ends the last line; it does not start another.
  const lines = text.split("\n");
  if (text === "" || text.endsWith("\n")) lines.pop();
  if (request.lineStart > lines.length) {
    throw new WayfinderError(
      "usage",
      `'${relativePath}' has ${lines.length} line${
        lines.length === 1 ? "" : "s"
      }; lineStart ${request.lineStart} is past its end`,
    );
  }
  const last = Math.min(request.lineEnd, request.lineStart + maxLines - 1, lines.length);
  const range: Range = {
    root: corpus.root,
    path: relativePath,
    lineStart: request.lineStart,
    lineEnd: last,
    content: lines.slice(request.lineStart - 1, last).join("\n"),
  };
  if ((await contentHasher())(text) !== indexedHash) range.changedSinceIndex = true;
  return range;
}
