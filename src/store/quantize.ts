/**
 * Compact codes of vectors for a fast first pass of dense search, written
 * beside `vectors.f32` when the index was built with `--quantization`.
 * File layouts (little-endian):
 *
 *   vectors.i8  rows × dimensions int8 codes, then f32[rows] scales
 *               (code = round(value / scale), scale = max |value| / 127 of the row)
 *   vectors.b1  rows × ceil(dimensions / 8) bytes of sign bits (bit d % 8 of byte d / 8: value d > 0)
 */
import type { Quantization } from "../types.ts";

/** The code file of each quantization. */
export const CODE_FILES = { int8: "vectors.i8", binary: "vectors.b1" } as const;

/** Bytes of one row's code. */
export function codeBytes(kind: Exclude<Quantization, "none">, dimensions: number): number {
  return kind === "int8" ? dimensions : Math.ceil(dimensions / 8);
}

/** Bytes of a code file: the codes, and for int8 the scales after them. */
export function codeFileBytes(
  kind: Exclude<Quantization, "none">,
  rows: number,
  dimensions: number,
): number {
  return rows * codeBytes(kind, dimensions) + (kind === "int8" ? 4 * rows : 0);
}

/** Writes `vector`'s int8 code into `out` and returns its scale. */
export function int8Code(vector: Float32Array, out: Int8Array): number {
  let max = 0;
  for (let d = 0; d < vector.length; d++) max = Math.max(max, Math.abs(vector[d]!));
  const scale = max / 127;
  for (let d = 0; d < vector.length; d++) out[d] = scale === 0 ? 0 : Math.round(vector[d]! / scale);
  return scale;
}

/** Writes `vector`'s sign bits into `out` (zeroed first). */
export function binaryCode(vector: Float32Array, out: Uint8Array): void {
  out.fill(0);
  for (let d = 0; d < vector.length; d++) if (vector[d]! > 0) out[d >> 3]! |= 1 << (d & 7);
}
