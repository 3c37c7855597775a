/**
 * A GGUF v3 writer: metadata key/values, tensor infos and tensor data
 * (F32, F16, Q8_0), little-endian, each tensor aligned to 32 bytes.
 * Spec: https://github.com/ggml-org/ggml/blob/master/docs/gguf.md
 */
import { createHash } from "node:crypto";
import { open, rename, rm } from "node:fs/promises";
import { WayfinderError } from "../error.ts";

/** Scalar metadata types, named after the GGUF value types. */
export type GgufScalarType =
  | "u8"
  | "i8"
  | "u16"
  | "i16"
  | "u32"
  | "i32"
  | "u64"
  | "i64"
  | "f32"
  | "f64"
  | "bool"
  | "string";

/** One metadata entry; arrays hold items of one scalar type. */
export type GgufMetadata =
  | { key: string; type: GgufScalarType; value: number | bigint | boolean | string }
  | {
    key: string;
    type: "array";
    itemType: GgufScalarType;
    value: readonly (number | bigint | boolean | string)[];
  };

/** Tensor storage types this writer can encode. */
export type GgufTensorType = "f32" | "f16" | "q8_0";

/** One tensor, given as float32 data in row-major (numpy) order. */
export interface GgufTensor {
  name: string;
  /** Row-major shape, outermost first (as numpy/PyTorch print it); GGUF stores it reversed. */
  shape: readonly number[];
  type: GgufTensorType;
  data: Float32Array;
}

/** What a GGUF file holds. */
export interface GgufContent {
  metadata: readonly GgufMetadata[];
  tensors: readonly GgufTensor[];
}

/** Data alignment in bytes; also written as `general.alignment`. */
export const GGUF_ALIGNMENT = 32;

const VALUE_TYPE: Readonly<Record<GgufScalarType | "array", number>> = {
  u8: 0,
  i8: 1,
  u16: 2,
  i16: 3,
  u32: 4,
  i32: 5,
  f32: 6,
  bool: 7,
  string: 8,
  array: 9,
  u64: 10,
  i64: 11,
  f64: 12,
};

const GGML_TYPE: Readonly<Record<GgufTensorType, number>> = { f32: 0, f16: 1, q8_0: 8 };

/** Q8_0 packs 32 values as one f16 scale and 32 int8 quants. */
const Q8_0_BLOCK = 32;
const Q8_0_BYTES = 34;

/** Grows a byte buffer while little-endian values are appended. */
class ByteSink {
  #bytes = new Uint8Array(1 << 16);
  #view = new DataView(this.#bytes.buffer);
  length = 0;

  #reserve(n: number): number {
    const at = this.length;
    if (at + n > this.#bytes.length) {
      let size = this.#bytes.length * 2;
      while (size < at + n) size *= 2;
      const next = new Uint8Array(size);
      next.set(this.#bytes.subarray(0, at));
      this.#bytes = next;
      this.#view = new DataView(next.buffer);
    }
    this.length += n;
    return at;
  }
  u8(v: number): void {
    const at = this.#reserve(1);
    this.#view.setUint8(at, v);
  }
  i8(v: number): void {
    const at = this.#reserve(1);
    this.#view.setInt8(at, v);
  }
  u16(v: number): void {
    const at = this.#reserve(2);
    this.#view.setUint16(at, v, true);
  }
  i16(v: number): void {
    const at = this.#reserve(2);
    this.#view.setInt16(at, v, true);
  }
  u32(v: number): void {
    const at = this.#reserve(4);
    this.#view.setUint32(at, v, true);
  }
  i32(v: number): void {
    const at = this.#reserve(4);
    this.#view.setInt32(at, v, true);
  }
  u64(v: number | bigint): void {
    const at = this.#reserve(8);
    this.#view.setBigUint64(at, BigInt(v), true);
  }
  i64(v: number | bigint): void {
    const at = this.#reserve(8);
    this.#view.setBigInt64(at, BigInt(v), true);
  }
  f32(v: number): void {
    const at = this.#reserve(4);
    this.#view.setFloat32(at, v, true);
  }
  f64(v: number): void {
    const at = this.#reserve(8);
    this.#view.setFloat64(at, v, true);
  }
  raw(bytes: Uint8Array): void {
    const at = this.#reserve(bytes.length); // may replace #bytes, so reserve first
    this.#bytes.set(bytes, at);
  }
  string(s: string): void {
    const bytes = new TextEncoder().encode(s);
    this.u64(bytes.length);
    this.raw(bytes);
  }
  pad(alignment: number): void {
    const rest = this.length % alignment;
    // Reserved bytes were never written, so they are zero.
    if (rest !== 0) this.#reserve(alignment - rest);
  }
  bytes(): Uint8Array {
    return this.#bytes.subarray(0, this.length);
  }
}

function writeScalar(sink: ByteSink, type: GgufScalarType, value: unknown, key: string): void {
  const fail = () => {
    throw new WayfinderError("internal", `Cannot write GGUF key '${key}': bad ${type} value`);
  };
  if (type === "string") {
    if (typeof value !== "string") fail();
    sink.string(value as string);
    return;
  }
  if (type === "bool") {
    if (typeof value !== "boolean") fail();
    sink.u8(value ? 1 : 0);
    return;
  }
  if (type === "u64" || type === "i64") {
    if (typeof value !== "number" && typeof value !== "bigint") fail();
    sink[type](value as number | bigint);
    return;
  }
  if (typeof value !== "number") fail();
  sink[type](value as number);
}

function writeMetadata(sink: ByteSink, entry: GgufMetadata): void {
  sink.string(entry.key);
  sink.u32(VALUE_TYPE[entry.type]);
  if (entry.type === "array") {
    sink.u32(VALUE_TYPE[entry.itemType]);
    sink.u64(entry.value.length);
    for (const item of entry.value) writeScalar(sink, entry.itemType, item, entry.key);
  } else {
    writeScalar(sink, entry.type, entry.value, entry.key);
  }
}

/** Bytes a tensor takes once encoded. */
export function tensorByteSize(shape: readonly number[], type: GgufTensorType): number {
  const count = shape.reduce((a, b) => a * b, 1);
  if (type === "f32") return count * 4;
  if (type === "f16") return count * 2;
  return (count / Q8_0_BLOCK) * Q8_0_BYTES;
}

function checkTensor(tensor: GgufTensor): void {
  const count = tensor.shape.reduce((a, b) => a * b, 1);
  if (count !== tensor.data.length) {
    throw new WayfinderError(
      "internal",
      `Cannot write tensor '${tensor.name}': shape [${tensor.shape}] needs ${count} values, got ${tensor.data.length}`,
    );
  }
  const rowLength = tensor.shape[tensor.shape.length - 1] ?? 1;
  if (tensor.type === "q8_0" && rowLength % Q8_0_BLOCK !== 0) {
    throw new WayfinderError(
      "internal",
      `Cannot write tensor '${tensor.name}' as Q8_0: row length ${rowLength} is not a multiple of 32`,
    );
  }
}

const f32Scratch = new Float32Array(1);
const u32Scratch = new Uint32Array(f32Scratch.buffer);

/** IEEE half-precision bits of a float, rounded to nearest even (as ggml does). */
export function float32ToFloat16Bits(value: number): number {
  f32Scratch[0] = value;
  const f = u32Scratch[0];
  const sign = (f >>> 16) & 0x8000;
  const exp = (f >>> 23) & 0xff;
  let mant = f & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let half = mant >>> shift;
    const rest = mant & ((1 << shift) - 1);
    const halfway = 1 << (shift - 1);
    if (rest > halfway || (rest === halfway && (half & 1))) half++;
    return sign | half;
  }
  let out = sign | (e << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && (out & 1))) out++;
  return out;
}

/** The float a half-precision bit pattern stands for. */
export function float16BitsToFloat32(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >>> 10) & 0x1f;
  const mant = bits & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) return mant ? NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

/** Encodes float32 values as the tensor type's bytes. */
export function encodeTensorData(data: Float32Array, type: GgufTensorType): Uint8Array {
  if (type === "f32") {
    const out = new Uint8Array(data.length * 4);
    const view = new DataView(out.buffer);
    for (let i = 0; i < data.length; i++) view.setFloat32(i * 4, data[i], true);
    return out;
  }
  if (type === "f16") {
    const out = new Uint8Array(data.length * 2);
    const view = new DataView(out.buffer);
    for (let i = 0; i < data.length; i++) {
      view.setUint16(i * 2, float32ToFloat16Bits(data[i]), true);
    }
    return out;
  }
  return encodeQ8_0(data);
}

/** ggml's reference Q8_0: scale = max|x| / 127 stored as f16, quants = round(x / scale). */
function encodeQ8_0(data: Float32Array): Uint8Array {
  const blocks = data.length / Q8_0_BLOCK;
  const out = new Uint8Array(blocks * Q8_0_BYTES);
  const view = new DataView(out.buffer);
  for (let b = 0; b < blocks; b++) {
    const start = b * Q8_0_BLOCK;
    let amax = 0;
    for (let j = 0; j < Q8_0_BLOCK; j++) amax = Math.max(amax, Math.abs(data[start + j]));
    const d = Math.fround(amax / 127);
    const id = d ? Math.fround(1 / d) : 0;
    const at = b * Q8_0_BYTES;
    view.setUint16(at, float32ToFloat16Bits(d), true);
    for (let j = 0; j < Q8_0_BLOCK; j++) {
      const x = Math.fround(data[start + j] * id);
      // C's roundf rounds halves away from zero; Math.round does not for negatives.
      view.setInt8(at + 2 + j, Math.sign(x) * Math.round(Math.abs(x)));
    }
  }
  return out;
}

/** Header, metadata and tensor infos, padded to the data section. */
function encodeHeader(content: GgufContent): Uint8Array {
  const sink = new ByteSink();
  const metadata = content.metadata.some((m) => m.key === "general.alignment")
    ? content.metadata
    : [
      ...content.metadata,
      { key: "general.alignment", type: "u32", value: GGUF_ALIGNMENT } as const,
    ];
  sink.raw(new TextEncoder().encode("GGUF"));
  sink.u32(3);
  sink.u64(content.tensors.length);
  sink.u64(metadata.length);
  for (const entry of metadata) writeMetadata(sink, entry);
  let offset = 0;
  for (const tensor of content.tensors) {
    checkTensor(tensor);
    sink.string(tensor.name);
    sink.u32(tensor.shape.length);
    for (const dim of [...tensor.shape].reverse()) sink.u64(dim);
    sink.u32(GGML_TYPE[tensor.type]);
    sink.u64(offset);
    offset += alignUp(tensorByteSize(tensor.shape, tensor.type));
  }
  sink.pad(GGUF_ALIGNMENT);
  return sink.bytes();
}

function alignUp(n: number): number {
  return Math.ceil(n / GGUF_ALIGNMENT) * GGUF_ALIGNMENT;
}

/**
 * Writes a GGUF v3 file atomically (temp file, then rename) and returns its
 * sha256 and size. Tensors are encoded one at a time, so only one encoded
 * tensor is in memory beside the float32 inputs.
 */
export async function writeGguf(
  path: string,
  content: GgufContent,
): Promise<{ sha256: string; bytes: number }> {
  const header = encodeHeader(content);
  const hash = createHash("sha256");
  const temp = `${path}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  let bytes = 0;
  const file = await open(temp, "w");
  try {
    const put = async (chunk: Uint8Array) => {
      hash.update(chunk);
      bytes += chunk.length;
      await file.write(chunk);
    };
    await put(header);
    for (const tensor of content.tensors) {
      const encoded = encodeTensorData(tensor.data, tensor.type);
      await put(encoded);
      const padding = alignUp(encoded.length) - encoded.length;
      if (padding > 0) await put(new Uint8Array(padding));
    }
    await file.close();
    await rename(temp, path);
  } catch (error) {
    await file.close().catch(() => {});
    await rm(temp, { force: true });
    throw new WayfinderError("io", `Cannot write '${path}': ${(error as Error).message}`, {
      cause: error,
    });
  }
  return { sha256: hash.digest("hex"), bytes };
}
