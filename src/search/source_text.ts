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
