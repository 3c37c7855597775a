import type { Chunk } from "../types.ts";
import { chunkId } from "./make_chunk.ts";

/**
 * Splits a chunk that is too long for the embedding model into consecutive
 * fragments at line boundaries, each as long as `fits` allows. Nothing is
 * lost or overlapped: the fragments' contents concatenate to the original
 * (blank-only fragments aside). A single line that does not fit on its own
 * stays one fragment; the long-input policy decides its fate.
 *
 * @param fits Whether a candidate fragment fits the model's token budget.
 *   Assumed monotone: a prefix of something that fits also fits.
 */
export async function splitToFit(
  chunk: Chunk,
  fits: (candidate: Chunk) => Promise<boolean>,
): Promise<Chunk[]> {
  if (await fits(chunk)) return [chunk];
  const text = chunk.content;
  const boundaries: number[] = [];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) boundaries.push(i + 1);
  if (boundaries.at(-1) !== text.length) boundaries.push(text.length);

  const spans: [number, number][] = [];
  let start = 0;
  let first = 0; // index into boundaries of the first candidate end after `start`
  while (start < text.length) {
    // Largest end that fits, by binary search over the remaining boundaries.
    let lo = first;
    let hi = boundaries.length - 1;
    let best = first;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (await fits(fragment(chunk, start, boundaries[mid]!, 0, 0))) {
        best = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    const end = boundaries[best]!;
    if (text.slice(start, end).trim() !== "") spans.push([start, end]);
    start = end;
    first = best + 1;
  }
  return spans.map(([s, e], i) => fragment(chunk, s, e, i + 1, spans.length));
}

function fragment(chunk: Chunk, start: number, end: number, part: number, parts: number): Chunk {
  const content = chunk.content.slice(start, end);
  const lineStart = chunk.lineStart + countNewlines(chunk.content, 0, start);
  const body = content.endsWith("\n") ? content.slice(0, -1) : content;
  const lineEnd = lineStart + countNewlines(body, 0, body.length);
  return {
    ...chunk,
    id: chunkId(chunk.sourcePath, lineStart, lineEnd, chunk.type, content),
    startOffset: chunk.startOffset + start,
    endOffset: chunk.startOffset + end,
    lineStart,
    lineEnd,
    content,
    metadata: { ...chunk.metadata, fitPart: part, fitParts: parts },
  };
}

function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf("\n", from); i !== -1 && i < to; i = text.indexOf("\n", i + 1)) n++;
  return n;
}
