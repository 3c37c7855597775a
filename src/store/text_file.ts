/**
 * Positional reads of a generation's `text.bin`: a search decodes only its
 * hits' passages, not every passage of the index. No file handle outlives a
 * read, so an opened index holds no resource to close. Reading passages in
 * row order (an incremental update reusing a whole generation) switches to a
 * window of the file, so that costs one read per window, not per passage.
 */
import { basename } from "node:path";

const WINDOW = 1 << 20;

/** Reads bytes `[start, end)` of `path` as UTF-8; `fail` makes the error for an unreadable file. */
export function textReader(
  path: string,
  fail: (reason: string) => Error,
): (start: number, end: number) => string {
  const decoder = new TextDecoder();
  let window: Uint8Array = new Uint8Array(0);
  let windowStart = 0;
  let lastEnd = -1;
  return (start, end) => {
    const sequential = start === lastEnd;
    lastEnd = end;
    if (start < windowStart || end > windowStart + window.length) {
      window = readAt(path, start, sequential ? Math.max(end - start, WINDOW) : end - start, fail);
      windowStart = start;
      if (end > windowStart + window.length) throw fail(`${basename(path)} is truncated`);
    }
    return decoder.decode(window.subarray(start - windowStart, end - windowStart));
  };
}

function readAt(
  path: string,
  position: number,
  length: number,
  fail: (reason: string) => Error,
): Uint8Array {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { read: true });
  } catch (error) {
    throw fail(`${basename(path)} is unreadable (${(error as Error).message})`);
  }
  try {
    file.seekSync(position, Deno.SeekMode.Start);
    const out = new Uint8Array(length);
    let filled = 0;
    while (filled < length) {
      const n = file.readSync(out.subarray(filled));
      if (n === null || n === 0) break;
      filled += n;
    }
    return out.subarray(0, filled);
  } finally {
    file.close();
  }
}
