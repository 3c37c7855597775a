import { join } from "node:path";
import type { Chunk } from "../types.ts";

/** The text of an indexed file, or undefined when it is gone or no longer matches the index. */
export type SourceReader = (chunk: Chunk) => string | undefined;

/**
 * Reads indexed files under `root` on demand, once each. A file's text is
 * trusted only while the chunk asking for it still equals its slice, so a
 * file edited since indexing never lends wrong context to a hit.
 */
export function sourceReader(root: string): SourceReader {
  const texts = new Map<string, string | null>();
  return (chunk) => {
    if (!texts.has(chunk.sourcePath)) {
      let text: string | null;
      try {
        text = Deno.readTextFileSync(join(root, chunk.sourcePath));
      } catch {
        text = null;
      }
      texts.set(chunk.sourcePath, text);
    }
    const text = texts.get(chunk.sourcePath);
    if (text == null) return undefined;
    return text.slice(chunk.startOffset, chunk.endOffset) === chunk.content ? text : undefined;
  };
}

/**
 * `offset` moved back to the start of its line when only indentation (and,
 * for a heading, its `#` marks) comes before it there.
 */
export function lineStartBefore(text: string, offset: number, heading = false): number {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  return (heading ? /^[ \t]*#*[ \t]*$/ : /^[ \t]*$/).test(before) ? lineStart : offset;
}

/**
 * A chunk as it is shown: from the start of its first line when only
 * indentation comes before it there (chunks start at their first visible
 * character), so the first line keeps its indent like the others. The
 * chunk's own text when the file cannot be trusted.
 */
export function shownPassage(
  chunk: Chunk,
  read?: SourceReader,
): { startOffset: number; text: string } {
  const text = read?.(chunk);
  if (text === undefined) return { startOffset: chunk.startOffset, text: chunk.content };
  const startOffset = lineStartBefore(text, chunk.startOffset);
  return { startOffset, text: text.slice(startOffset, chunk.endOffset) };
}
