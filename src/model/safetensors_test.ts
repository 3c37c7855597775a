import assert from "node:assert/strict";
import { join } from "node:path";
import { WayfinderError } from "../error.ts";
import { encodeSafetensors } from "./_make_safetensors.ts";
import { parseSafetensors, readSafetensors } from "./safetensors.ts";

Deno.test("parseSafetensors() reads F32, F16 and BF16 tensors as float32", () => {
  const bytes = encodeSafetensors({
    a: { shape: [2, 2], data: [1, -2, 0.5, 3.25] },
    b: { shape: [3], data: [1, -0.5, 65504], dtype: "F16" },
    c: { shape: [2], data: [1.5, -256], dtype: "BF16" },
  });
  const file = parseSafetensors(bytes);
  assert.deepEqual([...file.entries.keys()], ["a", "b", "c"]);
  assert.deepEqual(file.entries.get("a")?.shape, [2, 2]);
  assert.deepEqual(file.metadata, { format: "pt" });
  assert.deepEqual([...file.float32("a")], [1, -2, 0.5, 3.25]);
  assert.deepEqual([...file.float32("b")], [1, -0.5, 65504]);
  assert.deepEqual([...file.float32("c")], [1.5, -256]);
});

Deno.test("parseSafetensors() rejects truncated data and unknown tensors", () => {
  const bytes = encodeSafetensors({ a: { shape: [4], data: [1, 2, 3, 4] } });
  assert.throws(() => parseSafetensors(bytes.subarray(0, bytes.length - 4)), /bad byte range/);
  assert.throws(() => parseSafetensors(bytes).float32("z"), WayfinderError);
  assert.throws(() => parseSafetensors(new Uint8Array(3)), /shorter than its header/);
});

Deno.test("readSafetensors() reads a file from disk", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "model.safetensors");
    await Deno.writeFile(path, encodeSafetensors({ w: { shape: [1], data: [7] } }));
    assert.deepEqual([...(await readSafetensors(path)).float32("w")], [7]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
