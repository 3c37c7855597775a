import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  encodeTensorData,
  float16BitsToFloat32,
  float32ToFloat16Bits,
  writeGguf,
} from "./gguf_writer.ts";

Deno.test("float32ToFloat16Bits() rounds to nearest even and round-trips halves", () => {
  assert.equal(float32ToFloat16Bits(1), 0x3c00);
  assert.equal(float32ToFloat16Bits(-2), 0xc000);
  assert.equal(float32ToFloat16Bits(65504), 0x7bff);
  assert.equal(float32ToFloat16Bits(1e6), 0x7c00);
  assert.equal(float32ToFloat16Bits(2 ** -24), 0x0001);
  assert.equal(float32ToFloat16Bits(1 + 2 ** -11), 0x3c00, "tie goes to even");
  assert.equal(float32ToFloat16Bits(1 + 3 * 2 ** -11), 0x3c02, "tie goes to even");
  for (const bits of [0x0001, 0x03ff, 0x0400, 0x3555, 0xbc00, 0x7bff]) {
    assert.equal(float32ToFloat16Bits(float16BitsToFloat32(bits)), bits);
  }
});

Deno.test("encodeTensorData() packs Q8_0 blocks as an f16 scale and 32 int8 quants", () => {
  const data = Float32Array.from({ length: 64 }, (_, i) => (i - 32) / 8);
  const bytes = encodeTensorData(data, "q8_0");
  assert.equal(bytes.length, 68);
  const view = new DataView(bytes.buffer);
  const scale = float16BitsToFloat32(view.getUint16(0, true));
  assert.ok(Math.abs(scale - 4 / 127) < 1e-4);
  assert.equal(view.getInt8(2), -127); // -4 is the block's largest magnitude
  for (let j = 0; j < 32; j++) {
    assert.ok(Math.abs(view.getInt8(2 + j) * scale - data[j]) <= scale / 2 + 1e-6);
  }
});

Deno.test("writeGguf() writes a v3 header, metadata and 32-byte aligned tensor data", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "t.gguf");
    const result = await writeGguf(path, {
      metadata: [
        { key: "a.name", type: "string", value: "x" },
        { key: "a.list", type: "array", itemType: "string", value: ["p", "qq"] },
        { key: "a.floats", type: "array", itemType: "f32", value: [0.5] },
      ],
      tensors: [
        { name: "v", shape: [3], type: "f32", data: Float32Array.of(1, 2, 3) },
        { name: "m", shape: [2, 2], type: "f16", data: Float32Array.of(1, 2, 3, 4) },
      ],
    });
    const bytes = await readFile(path);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    assert.equal(result.bytes, bytes.length);
    assert.equal(new TextDecoder().decode(bytes.subarray(0, 4)), "GGUF");
    assert.equal(view.getUint32(4, true), 3);
    assert.equal(view.getBigUint64(8, true), 2n);
    assert.equal(view.getBigUint64(16, true), 4n, "general.alignment is added");
    // The data section is the last 32 + 32 bytes: [1,2,3] f32 padded, then f16 [1,2,3,4].
    const data = bytes.length - 64;
    assert.equal(data % 32, 0);
    assert.deepEqual([0, 1, 2].map((i) => view.getFloat32(data + i * 4, true)), [1, 2, 3]);
    assert.deepEqual(
      [0, 1, 2, 3].map((i) => float16BitsToFloat32(view.getUint16(data + 32 + i * 2, true))),
      [1, 2, 3, 4],
    );
    assert.equal(await Array.fromAsync(Deno.readDir(dir)).then((e) => e.length), 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeGguf() refuses Q8_0 rows that are not whole blocks", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await assert.rejects(
      writeGguf(join(dir, "t.gguf"), {
        metadata: [],
        tensors: [{ name: "m", shape: [2, 8], type: "q8_0", data: new Float32Array(16) }],
      }),
      /multiple of 32/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
