/**
 * The int8 first pass as WebAssembly SIMD: JavaScript has no 8-bit vector
 * arithmetic, and a scalar int8 loop measured slower here than the float32
 * scan it is meant to replace. The module is 224 bytes, written out below
 * with the text format beside each instruction:
 *
 *   (func (export "dot") (param $codes $query $out $rows $dims i32)
 *     ;; out[r] = Σ_d codes[r·dims + d] · query[d] for every row r;
 *     ;; codes int8, query int16, dims a multiple of 16
 */
const SIMD = [0xfd];
const get = (local: number) => [0x20, local];
const set = (local: number) => [0x21, local];
const tee = (local: number) => [0x22, local];
const i32 = (value: number) => [0x41, value];
const load = (offset: number) => [...SIMD, 0x00, 0x00, offset]; // v128.load align=1
const I32_ADD = 0x6a;
const I32_SHL = 0x74;
const I32_LT_U = 0x49;
const EXTEND_LOW = [...SIMD, 0x87, 0x01]; // i16x8.extend_low_i8x16_s
const EXTEND_HIGH = [...SIMD, 0x88, 0x01]; // i16x8.extend_high_i8x16_s
const DOT = [...SIMD, 0xba, 0x01]; // i32x4.dot_i16x8_s
const ADD4 = [...SIMD, 0xae, 0x01]; // i32x4.add
const lane = (n: number) => [...get(8), ...SIMD, 0x1b, n]; // i32x4.extract_lane n
// Locals: 0 codes, 1 query, 2 out, 3 rows, 4 dims, 5 r, 6 d, 7 row pointer (i32), 8 acc, 9 v (v128).
const BODY = [
  0x02,
  0x03,
  0x7f,
  0x02,
  0x7b, // locals: 3 × i32, 2 × v128
  0x02,
  0x40,
  ...get(3),
  0x45,
  0x0d,
  0x00, // block; br_if rows == 0
  ...get(0),
  ...set(7), // p = codes
  0x03,
  0x40, // loop over rows
  ...SIMD,
  0x0c,
  ...new Array(16).fill(0),
  ...set(8), // acc = 0
  ...i32(0),
  ...set(6), // d = 0
  0x03,
  0x40, // loop over dimensions, 16 at a time
  ...get(7),
  ...get(6),
  I32_ADD,
  ...load(0),
  ...set(9), // v = codes[p + d .. +16]
  ...get(8),
  ...get(9),
  ...EXTEND_LOW,
  ...get(1),
  ...get(6),
  ...i32(1),
  I32_SHL,
  I32_ADD,
  ...load(0),
  ...DOT,
  ...ADD4, // acc += dot(low 8 of v, query[d .. +8])
  ...get(9),
  ...EXTEND_HIGH,
  ...get(1),
  ...get(6),
  ...i32(1),
  I32_SHL,
  I32_ADD,
  ...load(16),
  ...DOT,
  ...ADD4,
  ...set(8), // acc += dot(high 8 of v, query[d + 8 .. +16])
  ...get(6),
  ...i32(16),
  I32_ADD,
  ...tee(6),
  ...get(4),
  I32_LT_U,
  0x0d,
  0x00, // while d < dims
  0x0b,
  ...get(2),
  ...get(5),
  ...i32(2),
  I32_SHL,
  I32_ADD, // &out[r]
  ...lane(0),
  ...lane(1),
  I32_ADD,
  ...lane(2),
  I32_ADD,
  ...lane(3),
  I32_ADD,
  0x36,
  0x02,
  0x00, // i32.store: out[r] = sum of acc's lanes
  ...get(7),
  ...get(4),
  I32_ADD,
  ...set(7), // p += dims
  ...get(5),
  ...i32(1),
  I32_ADD,
  ...tee(5),
  ...get(3),
  I32_LT_U,
  0x0d,
  0x00, // while ++r < rows
  0x0b,
  0x0b,
  0x0b,
];
const section = (id: number, bytes: number[]) => [id, ...leb(bytes.length), ...bytes];
const MODULE = new Uint8Array([
  0x00,
  0x61,
  0x73,
  0x6d,
  0x01,
  0x00,
  0x00,
  0x00, // "\0asm", version 1
  ...section(1, [0x01, 0x60, 0x05, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x00]), // (i32 × 5) → ()
  ...section(2, [0x01, 0x03, 0x65, 0x6e, 0x76, 0x01, 0x6d, 0x02, 0x00, 0x01]), // import env.m
  ...section(3, [0x01, 0x00]),
  ...section(7, [0x01, 0x03, 0x64, 0x6f, 0x74, 0x00, 0x00]), // export "dot"
  ...section(10, [0x01, ...leb(BODY.length), ...BODY]),
]);

function leb(value: number): number[] {
  const out: number[] = [];
  do {
    out.push((value & 0x7f) | (value >= 0x80 ? 0x80 : 0));
    value >>>= 7;
  } while (value > 0);
  return out;
}

/** Scores int8 rows against an int16 query; the codes are copied into wasm memory once. */
export interface Int8Kernel {
  /** Raw integer dot products of every row with `query` (already scaled to int16). */
  dots(query: Int16Array): Int32Array;
}

/**
 * A kernel over `codes` (`rows × dimensions` int8), or null where the
 * runtime lacks wasm SIMD or `dimensions` is not a multiple of 16.
 */
export function int8Kernel(codes: Int8Array, rows: number, dimensions: number): Int8Kernel | null {
  if (dimensions % 16 !== 0 || rows === 0) return null;
  let module: WebAssembly.Module;
  try {
    module = new WebAssembly.Module(MODULE);
  } catch {
    return null;
  }
  const queryBytes = Math.ceil((dimensions * 2) / 64) * 64;
  const outAt = queryBytes;
  const codesAt = outAt + Math.ceil((rows * 4) / 64) * 64;
  const memory = new WebAssembly.Memory({ initial: Math.ceil((codesAt + codes.length) / 65536) });
  const { dot } = new WebAssembly.Instance(module, { env: { m: memory } }).exports as {
    dot: (codes: number, query: number, out: number, rows: number, dims: number) => void;
  };
  new Int8Array(memory.buffer, codesAt, codes.length).set(codes);
  const out = new Int32Array(memory.buffer, outAt, rows);
  const query = new Int16Array(memory.buffer, 0, dimensions);
  return {
    dots(vector) {
      query.set(vector);
      dot(codesAt, 0, outAt, rows, dimensions);
      return out;
    },
  };
}
