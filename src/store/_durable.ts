/** Small helpers for crash-safe writes: data reaches the disk before it is published. */
import { createHash } from "node:crypto";

/** Hex SHA-256 of bytes: the checksums a manifest records and `openIndex` verifies. */
export function _sha256(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Writes a new file (it must not exist) and fsyncs it. */
export async function _writeSynced(path: string, data: Uint8Array | string): Promise<void> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const file = await Deno.open(path, { write: true, createNew: true });
  try {
    let written = 0;
    while (written < bytes.length) written += await file.write(bytes.subarray(written));
    await file.sync();
  } finally {
    file.close();
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

/** The bytes of float32 values in little-endian order. */
export function _float32ToLE(values: Float32Array): Uint8Array {
  if (LITTLE_ENDIAN) return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  const out = new Uint8Array(values.length * 4);
  const view = new DataView(out.buffer);
  for (let i = 0; i < values.length; i++) view.setFloat32(i * 4, values[i]!, true);
  return out;
}

/** Float32 values from little-endian bytes (length a multiple of 4). */
export function _float32FromLE(bytes: Uint8Array): Float32Array {
  const n = bytes.byteLength / 4;
  if (LITTLE_ENDIAN) {
    if (bytes.byteOffset % 4 === 0) return new Float32Array(bytes.buffer, bytes.byteOffset, n);
    return new Float32Array(bytes.slice().buffer, 0, n);
  }
  const out = new Float32Array(n);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < n; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}
