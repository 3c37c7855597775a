/**
 * xxHash64 of generation files: fast enough to check every data file on every
 * open (a flipped byte of equal length is otherwise invisible), streamed so a
 * large file never has to sit in memory, or be copied into wasm memory, whole.
 */
import xxhash from "xxhash-wasm";

type Api = Awaited<ReturnType<typeof xxhash>>;
let api: Promise<Api> | null = null;

/** The xxhash-wasm module, instantiated once per process. */
export function _xxhash(): Promise<Api> {
  return api ??= xxhash();
}

/** Feeds `update` slices of at most this size: wasm memory then stays small. */
const SLICE = 1 << 22;

/** An incremental xxh64; `digest` gives 16 hex digits. */
export interface Hasher {
  update(bytes: Uint8Array): void;
  digest(): string;
}

/** A fresh incremental xxh64 (seed 0). */
export async function _hasher(): Promise<Hasher> {
  const state = (await _xxhash()).create64();
  return {
    update(bytes) {
      for (let at = 0; at < bytes.length; at += SLICE) {
        state.update(bytes.subarray(at, Math.min(at + SLICE, bytes.length)));
      }
    },
    digest: () => state.digest().toString(16).padStart(16, "0"),
  };
}

/** xxh64 of bytes held in memory. */
export async function _xxh64(bytes: Uint8Array): Promise<string> {
  const hasher = await _hasher();
  hasher.update(bytes);
  return hasher.digest();
}

/** xxh64 and size of a file, read in slices and not kept. */
export async function _xxh64File(path: string): Promise<{ hash: string; bytes: number }> {
  const hasher = await _hasher();
  const buffer = new Uint8Array(SLICE);
  using file = await Deno.open(path, { read: true });
  let bytes = 0;
  for (;;) {
    const n = await file.read(buffer);
    if (n === null) break;
    hasher.update(buffer.subarray(0, n));
    bytes += n;
  }
  return { hash: hasher.digest(), bytes };
}

/**
 * A file read whole into one buffer of its size, each slice hashed while it
 * is still in cache: one pass instead of a read and then a hash, and no
 * intermediate copies (`Deno.readFile` measured twice as slow on 150 MB).
 */
export async function _readHashed(
  path: string,
  hash = true,
): Promise<{ bytes: Uint8Array; hash: string }> {
  const hasher = hash ? await _hasher() : { update() {}, digest: () => "" };
  using file = await Deno.open(path, { read: true });
  const bytes = new Uint8Array((await file.stat()).size);
  let filled = 0;
  while (filled < bytes.length) {
    const n = await file.read(bytes.subarray(filled, Math.min(filled + SLICE * 2, bytes.length)));
    if (n === null) break;
    hasher.update(bytes.subarray(filled, filled + n));
    filled += n;
  }
  return { bytes: bytes.subarray(0, filled), hash: hasher.digest() };
}
