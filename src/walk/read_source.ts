import { isInside } from "../_paths.ts";
import type { SourceFile } from "../types.ts";
import type { SkippedFile, SkipReason } from "./walk_tree.ts";

/**
 * Decodes a file's bytes as text, or says why it is not text.
 *
 * Policy: a NUL byte anywhere means `binary` (UTF-16 text, which is full of
 * NULs, lands here too). Otherwise the bytes must be valid UTF-8 or the file
 * is `not_utf8`: it is skipped, never decoded lossily, since replacement
 * characters would be indexed as if they were the file's text. A leading
 * UTF-8 byte order mark is dropped, so chunk offsets and the first line's
 * text start at the first real character.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeText } from "./read_source.ts";
 *
 * assert.deepEqual(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69])), { text: "hi" });
 * assert.deepEqual(decodeText(new Uint8Array([0x68, 0x00])), { reason: "binary" });
 * assert.deepEqual(decodeText(new Uint8Array([0xe9])), { reason: "not_utf8" });
 * ```
 */
export function decodeText(
  bytes: Uint8Array,
): { text: string } | { reason: "binary" | "not_utf8" } {
  // git sniffs only the first 8000 bytes; files here are size-capped, and a
  // NUL past the sniff would otherwise reach the index.
  if (bytes.includes(0)) return { reason: "binary" };
  try {
    // ignoreBOM: false is what drops a leading BOM.
    return { text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes) };
  } catch {
    return { reason: "not_utf8" };
  }
}

/**
 * Reads one file for indexing, or reports why it was skipped: `too_large`
 * (checked before reading, and again after, in case it grew), `unreadable`
 * (any error opening or reading it), or a {@link decodeText} reason.
 */
export async function readSource(
  abs: string,
  rel: string,
  maxFileBytes: number,
  realRoot?: string,
  keep?: (path: string, bytes: number, mtime: number) => boolean,
): Promise<SourceFile | SkippedFile | { kept: string }> {
  const skip = (reason: SkipReason): SkippedFile => ({ path: rel, reason });
  let bytes: Uint8Array;
  let mtime: number | undefined;
  try {
    using file = await Deno.open(abs);
    const opened = await file.stat();
    if (realRoot !== undefined && !await stillInside(abs, opened, realRoot)) {
      return skip("symlink_outside_root");
    }
    if (opened.size > maxFileBytes) return skip("too_large");
    mtime = opened.mtime?.getTime();
    if (mtime !== undefined && keep?.(rel, opened.size, mtime)) return { kept: rel };
    bytes = new Uint8Array(await new Response(file.readable).arrayBuffer());
  } catch {
    return skip("unreadable");
  }
  if (bytes.length > maxFileBytes) return skip("too_large");
  const decoded = decodeText(bytes);
  if ("reason" in decoded) return skip(decoded.reason);
  const file: SourceFile = {
    path: rel,
    absolutePath: abs,
    content: decoded.text,
    bytes: bytes.length,
  };
  if (mtime !== undefined) file.mtime = mtime;
  return file;
}

/**
 * Whether the file opened at `abs` is the one inside the root that the walk
 * checked: a path swapped for a link out of the root between the walk and
 * the read opens the outside file, whose inode the path's real target then
 * does not have (or whose real path lies outside).
 */
async function stillInside(abs: string, opened: Deno.FileInfo, realRoot: string): Promise<boolean> {
  const real = await Deno.realPath(abs);
  if (!isInside(real, realRoot)) return false;
  const there = await Deno.stat(real);
  return there.ino === opened.ino && there.dev === opened.dev;
}
