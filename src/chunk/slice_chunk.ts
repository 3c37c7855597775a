import type { Chunk } from "../types.ts";
import { chunkId } from "./make_chunk.ts";

function countNewlines(text: string, to: number): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < to; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/**
 * A piece of a chunk as a chunk of its own, with offsets, lines and stable
 * id derived as `makeChunk` derives them from the file: the piece's last line
 * is that of its last character, so a piece ending in "\n" ends on the line
 * before.
 *
 * @param chunk The chunk the piece is cut from.
 * @param start UTF-16 offset into `chunk.content` where the piece starts.
 * @param end Offset where it ends, exclusive; greater than `start`.
 * @param metadata The piece's metadata.
 */
export function sliceChunk(
  chunk: Chunk,
  start: number,
  end: number,
  metadata: Record<string, unknown>,
): Chunk {
  const content = chunk.content.slice(start, end);
  const lineStart = chunk.lineStart + countNewlines(chunk.content, start);
  const lineEnd = chunk.lineStart + countNewlines(chunk.content, Math.max(start, end - 1));
  return {
    ...chunk,
    id: chunkId(chunk.sourcePath, lineStart, lineEnd, chunk.type, content),
    lineStart,
    lineEnd,
    startOffset: chunk.startOffset + start,
    endOffset: chunk.startOffset + end,
    content,
    metadata,
  };
}
