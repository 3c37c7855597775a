import { join } from "node:path";
import { WayfinderError } from "../error.ts";
import type { Roots } from "./roots.ts";

/** Lines of a file inside a served root. */
export interface Range {
  root: string;
  path: string;
  lineStart: number;
  lineEnd: number;
  content: string;
}

/**
 * Reads `lineStart..lineEnd` (1-based, inclusive; cut at the file's end and
 * at `maxLines`) of a file the index of a root holds.
 * @throws {WayfinderError} "usage" when `lineStart` is past the file's last line.
 */
export async function readRange(
  roots: Roots,
  request: { path: string; lineStart: number; lineEnd: number; root?: string },
  maxLines: number,
): Promise<Range> {
  const { corpus, relativePath } = await roots.locateIndexed(request.path, request.root);
  if (request.lineEnd < request.lineStart) {
    throw new WayfinderError(
      "usage",
      `lineEnd ${request.lineEnd} is before lineStart ${request.lineStart}`,
    );
  }
  let text: string;
  try {
    text = await Deno.readTextFile(join(corpus.root, relativePath));
  } catch (error) {
    throw new WayfinderError("io", `Cannot read '${relativePath}': ${(error as Error).message}`);
  }
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
  return {
    root: corpus.root,
    path: relativePath,
    lineStart: request.lineStart,
    lineEnd: last,
    content: lines.slice(request.lineStart - 1, last).join("\n"),
  };
}
