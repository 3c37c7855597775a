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

/** Reads `lineStart..lineEnd` (1-based, inclusive) of a file inside a root, at most `maxLines`. */
export async function readRange(
  roots: Roots,
  request: { path: string; lineStart: number; lineEnd: number; root?: string },
  maxLines: number,
): Promise<Range> {
  const { corpus, relativePath } = roots.locate(request.path, request.root);
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
  const lines = text.split("\n");
  const last = Math.min(request.lineEnd, request.lineStart + maxLines - 1, lines.length);
  return {
    root: corpus.root,
    path: relativePath,
    lineStart: request.lineStart,
    lineEnd: Math.max(request.lineStart, last),
    content: lines.slice(request.lineStart - 1, last).join("\n"),
  };
}
