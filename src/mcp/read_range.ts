import { WayfinderError } from "../mod.ts";
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
  const { corpus, file } = await roots.locateIndexed(request.path, request.root);
  if (request.lineEnd < request.lineStart) {
    throw new WayfinderError(
      "usage",
      `lineEnd ${request.lineEnd} is before lineStart ${request.lineStart}`,
    );
  }
  const { path: relativePath, lines } = file;
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
  if (file.changedSinceIndex) range.changedSinceIndex = true;
  return range;
}
