/** Builds safetensors bytes; the tests use it to make small checkpoints. */
import { float32ToFloat16Bits } from "./gguf_writer.ts";

/** A tensor to store: float values and the dtype to store them as. */
export interface PlainTensor {
  shape: number[];
  data: ArrayLike<number>;
  dtype?: "F32" | "F16" | "BF16";
}

/** Encodes tensors (in the given order) as a safetensors file. */
export function encodeSafetensors(tensors: Record<string, PlainTensor>): Uint8Array {
  const header: Record<string, unknown> = { __metadata__: { format: "pt" } };
  const parts: Uint8Array[] = [];
  let offset = 0;
  for (const [name, tensor] of Object.entries(tensors)) {
    const dtype = tensor.dtype ?? "F32";
    const size = dtype === "F32" ? 4 : 2;
    const bytes = new Uint8Array(tensor.data.length * size);
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < tensor.data.length; i++) {
      const x = tensor.data[i];
      if (dtype === "F32") view.setFloat32(i * 4, x, true);
      else if (dtype === "F16") view.setUint16(i * 2, float32ToFloat16Bits(x), true);
      else view.setUint16(i * 2, new Uint32Array(Float32Array.of(x).buffer)[0] >>> 16, true);
    }
    header[name] = { dtype, shape: tensor.shape, data_offsets: [offset, offset + bytes.length] };
    parts.push(bytes);
    offset += bytes.length;
  }
  const json = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(8 + json.length + offset);
  new DataView(out.buffer).setBigUint64(0, BigInt(json.length), true);
  out.set(json, 8);
  let at = 8 + json.length;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
