/**
 * A reader for the safetensors format: an 8-byte little-endian header length,
 * a JSON header naming each tensor's dtype, shape and byte range, then data.
 * https://huggingface.co/docs/safetensors
 */
import { readFile } from "node:fs/promises";
import { WayfinderError } from "../error.ts";
import { float16BitsToFloat32 } from "./gguf_writer.ts";

/** One tensor's entry in the header. */
export interface SafetensorsEntry {
  dtype: string;
  shape: number[];
  /** Byte range within the data section, end exclusive. */
  dataOffsets: [number, number];
}

/** A parsed safetensors file. */
export interface Safetensors {
  /** Tensor entries in header order. */
  entries: Map<string, SafetensorsEntry>;
  /** The free-form `__metadata__` strings. */
  metadata: Record<string, string>;
  /** Raw bytes of one tensor. */
  bytesOf(name: string): Uint8Array;
  /** One floating-point tensor (F32, F16 or BF16) widened to float32. */
  float32(name: string): Float32Array;
}

const BYTES_PER_ELEMENT: Readonly<Record<string, number>> = {
  F64: 8,
  F32: 4,
  F16: 2,
  BF16: 2,
  I64: 8,
  I32: 4,
  I16: 2,
  I8: 1,
  U8: 1,
  BOOL: 1,
};

function bad(what: string, reason: string): never {
  throw new WayfinderError("input", `Cannot read safetensors ${what}: ${reason}`);
}

/**
 * Parses safetensors bytes; tensor data stays in `bytes` until asked for.
 * @throws WayfinderError("input") when the header is malformed.
 */
// Over 60 lines: a header parser whose checks follow the format's fields in order.
export function parseSafetensors(bytes: Uint8Array, what = "file"): Safetensors {
  if (bytes.length < 8) bad(what, "file is shorter than its header");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = Number(view.getBigUint64(0, true));
  if (headerLength > bytes.length - 8) bad(what, "header length exceeds file size");
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength)));
  } catch {
    bad(what, "header is not JSON");
  }
  const dataStart = 8 + headerLength;
  const dataLength = bytes.length - dataStart;
  const entries = new Map<string, SafetensorsEntry>();
  let metadata: Record<string, string> = {};
  for (const [name, raw] of Object.entries(header)) {
    if (name === "__metadata__") {
      metadata = raw as Record<string, string>;
      continue;
    }
    const { dtype, shape, data_offsets: offsets } = raw as {
      dtype: string;
      shape: number[];
      data_offsets: [number, number];
    };
    const size = BYTES_PER_ELEMENT[dtype];
    if (size === undefined) bad(what, `tensor '${name}' has unknown dtype '${dtype}'`);
    const count = shape.reduce((a, b) => a * b, 1);
    if (
      !Array.isArray(offsets) || offsets[0] > offsets[1] || offsets[1] > dataLength ||
      offsets[1] - offsets[0] !== count * size
    ) {
      bad(what, `tensor '${name}' has a bad byte range`);
    }
    entries.set(name, { dtype, shape, dataOffsets: [offsets[0], offsets[1]] });
  }
  const bytesOf = (name: string): Uint8Array => {
    const entry = entries.get(name);
    if (!entry) bad(what, `no tensor '${name}'`);
    return bytes.subarray(dataStart + entry.dataOffsets[0], dataStart + entry.dataOffsets[1]);
  };
  const float32 = (name: string): Float32Array => {
    const dtype = entries.get(name)?.dtype;
    const raw = bytesOf(name);
    const rawView = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
    if (dtype === "F32") {
      // Zero-copy when aligned; safetensors does not promise alignment.
      if (raw.byteOffset % 4 === 0) {
        return new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
      }
      return Float32Array.from(
        { length: raw.byteLength / 4 },
        (_, i) => rawView.getFloat32(i * 4, true),
      );
    }
    if (dtype === "F16") {
      return Float32Array.from(
        { length: raw.byteLength / 2 },
        (_, i) => float16BitsToFloat32(rawView.getUint16(i * 2, true)),
      );
    }
    if (dtype === "BF16") {
      const out = new Float32Array(raw.byteLength / 2);
      const bits = new Uint32Array(out.buffer);
      for (let i = 0; i < out.length; i++) bits[i] = rawView.getUint16(i * 2, true) << 16;
      return out;
    }
    bad(what, `tensor '${name}' is ${dtype}, not a float type`);
  };
  return { entries, metadata, bytesOf, float32 };
}

/** Reads and parses a safetensors file. */
export async function readSafetensors(path: string): Promise<Safetensors> {
  return parseSafetensors(await readFile(path), `'${path}'`);
}
