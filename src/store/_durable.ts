/** Small helpers for crash-safe writes: data reaches the disk before it is published. */
import process from "node:process";
import { _hasher, type Hasher } from "./_xxh64.ts";

/**
 * Modes of what an index run creates: owner-only whatever the folder it
 * lands in allows, since an index holds the text of private files.
 */
export const _PRIVATE_DIR = 0o700;
export const _PRIVATE_FILE = 0o600;

/** Writes a new file (it must not exist) and fsyncs it. */
export async function _writeSynced(path: string, data: Uint8Array | string): Promise<void> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const file = await Deno.open(path, { write: true, createNew: true, mode: _PRIVATE_FILE });
  try {
    let written = 0;
    while (written < bytes.length) written += await file.write(bytes.subarray(written));
    await file.sync();
  } finally {
    file.close();
  }
}

/**
 * A new file written in order through a buffer, hashed as it goes (xxh64, the
 * checksum the manifest records) and fsynced on `close`: a generation's data
 * files are streamed out rather than assembled in memory first.
 */
export class _HashedWriter {
  #buffer = new Uint8Array(1 << 20);
  #used = 0;
  #written = 0;
  #encoder = new TextEncoder();

  private constructor(private readonly file: Deno.FsFile, private readonly hasher: Hasher) {}

  /** Creates `path`, which must not exist. */
  static async create(path: string): Promise<_HashedWriter> {
    const file = await Deno.open(path, { write: true, createNew: true, mode: _PRIVATE_FILE });
    return new _HashedWriter(file, await _hasher());
  }

  /** Bytes written so far, buffered ones included. */
  get size(): number {
    return this.#written + this.#used;
  }

  /**
   * Appends `text` as UTF-8, encoded straight into the buffer: a passage
   * costs no temporary bytes of its own. Returns the bytes it took.
   */
  async writeText(text: string): Promise<number> {
    // UTF-8 takes at most 3 bytes per UTF-16 code unit.
    if (3 * text.length > this.#buffer.length) {
      const bytes = new TextEncoder().encode(text);
      await this.write(bytes);
      return bytes.length;
    }
    if (this.#used + 3 * text.length > this.#buffer.length) await this.#flush();
    const { written } = this.#encoder.encodeInto(text, this.#buffer.subarray(this.#used));
    this.#used += written;
    return written;
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (this.#used + bytes.length > this.#buffer.length) await this.#flush();
    if (bytes.length > this.#buffer.length) return await this.#out(bytes);
    this.#buffer.set(bytes, this.#used);
    this.#used += bytes.length;
  }

  /** Flushes, fsyncs and closes the file; returns its xxh64. */
  async close(): Promise<string> {
    try {
      await this.#flush();
      await this.file.sync();
    } finally {
      this.file.close();
    }
    return this.hasher.digest();
  }

  /** Closes without caring about the content (a failed write is being abandoned). */
  abandon(): void {
    try {
      this.file.close();
    } catch {
      // Already closed.
    }
  }

  async #flush(): Promise<void> {
    await this.#out(this.#buffer.subarray(0, this.#used));
    this.#used = 0;
  }

  async #out(bytes: Uint8Array): Promise<void> {
    this.hasher.update(bytes);
    for (let done = 0; done < bytes.length;) done += await this.file.write(bytes.subarray(done));
    this.#written += bytes.length;
  }
}

/** Fsyncs a directory so a rename or create inside it survives a power cut. Best effort. */
export async function _syncDir(path: string): Promise<void> {
  try {
    const dir = await Deno.open(path, { read: true });
    try {
      await dir.sync();
    } finally {
      dir.close();
    }
  } catch {
    // Some platforms cannot open or fsync directories; the rename is still atomic.
  }
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The bytes of numbers in little-endian order: a view of them on a little-endian machine. */
export function _bytesLE(values: Float32Array | Uint32Array | Float64Array): Uint8Array {
  if (LITTLE_ENDIAN) return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  const width = values.BYTES_PER_ELEMENT;
  const out = new Uint8Array(values.length * width);
  const view = new DataView(out.buffer);
  for (let i = 0; i < values.length; i++) {
    const at = i * width;
    if (values instanceof Float32Array) view.setFloat32(at, values[i]!, true);
    else if (values instanceof Uint32Array) view.setUint32(at, values[i]!, true);
    else view.setFloat64(at, values[i]!, true);
  }
  return out;
}

/** Float32 values from little-endian bytes (length a multiple of 4). */
export function _float32FromLE(bytes: Uint8Array): Float32Array {
  const n = bytes.byteLength / 4;
  if (LITTLE_ENDIAN) {
    if (bytes.byteOffset % 4 === 0) return new Float32Array(bytes.buffer, bytes.byteOffset, n);
    // A copy, not `bytes.slice()`: on a node Buffer that is a view of the same memory.
    return new Float32Array(Uint8Array.prototype.slice.call(bytes).buffer, 0, n);
  }
  const out = new Float32Array(n);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < n; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

/**
 * Replaces a small JSON state file through a temporary file and a rename, so
 * a reader never sees half of it. Best effort: a failure (a read-only index)
 * leaves the old file, and a reader without the state takes the slow way.
 */
export async function _replaceJsonFile(path: string, value: unknown): Promise<void> {
  const temp = `${path}.tmp-${process.pid}`;
  try {
    await Deno.remove(temp).catch(() => {});
    await Deno.writeTextFile(temp, JSON.stringify(value) + "\n", {
      createNew: true,
      mode: _PRIVATE_FILE,
    });
    await Deno.rename(temp, path);
  } catch {
    await Deno.remove(temp).catch(() => {});
  }
}
