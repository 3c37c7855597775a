import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { WayfinderError } from "../error.ts";
import { LlamaReranker } from "../embed/mod.ts";
import { encodeSafetensors, type PlainTensor } from "./_make_safetensors.ts";
import { ggufTensorName, importCheckpoint } from "./import_checkpoint.ts";
import { readManifest } from "./manifest.ts";
import { tinyVocabulary } from "./tiny_model.ts";

const HIDDEN = 32;

/**
 * A tiny Hugging Face BertForSequenceClassification checkpoint with random
 * encoder weights and a head whose output ignores the input: the pooler's
 * weight is zero, so every pair scores sigmoid(classifier · tanh(pooler bias) + classifier bias).
 */
// Over 60 lines: one checkpoint, file by file, as the importer reads it.
function crossEncoderCheckpoint(labels = 1) {
  let seed = 11;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648 - 0.5;
  };
  const tensor = (shape: number[], fill?: number): PlainTensor => ({
    shape,
    data: Array.from({ length: shape.reduce((a, b) => a * b, 1) }, () => fill ?? random()),
  });
  const vocab = tinyVocabulary().tokens;
  const [h, ffn] = [HIDDEN, 64];
  const tensors: Record<string, PlainTensor> = {
    "bert.embeddings.word_embeddings.weight": tensor([vocab.length, h]),
    "bert.embeddings.position_embeddings.weight": tensor([128, h]),
    "bert.embeddings.token_type_embeddings.weight": tensor([2, h]),
    "bert.embeddings.LayerNorm.weight": tensor([h], 1),
    "bert.embeddings.LayerNorm.bias": tensor([h], 0),
  };
  for (let i = 0; i < 2; i++) {
    const p = `bert.encoder.layer.${i}.`;
    for (const part of ["attention.self.query", "attention.self.key", "attention.self.value"]) {
      tensors[`${p}${part}.weight`] = tensor([h, h]);
      tensors[`${p}${part}.bias`] = tensor([h]);
    }
    tensors[`${p}attention.output.dense.weight`] = tensor([h, h]);
    tensors[`${p}attention.output.dense.bias`] = tensor([h]);
    tensors[`${p}attention.output.LayerNorm.weight`] = tensor([h], 1);
    tensors[`${p}attention.output.LayerNorm.bias`] = tensor([h], 0);
    tensors[`${p}intermediate.dense.weight`] = tensor([ffn, h]);
    tensors[`${p}intermediate.dense.bias`] = tensor([ffn]);
    tensors[`${p}output.dense.weight`] = tensor([h, ffn]);
    tensors[`${p}output.dense.bias`] = tensor([h]);
    tensors[`${p}output.LayerNorm.weight`] = tensor([h], 1);
    tensors[`${p}output.LayerNorm.bias`] = tensor([h], 0);
  }
  const head = {
    "bert.pooler.dense.weight": tensor([h, h], 0),
    "bert.pooler.dense.bias": tensor([h]),
    "classifier.weight": tensor([labels, h]),
    "classifier.bias": tensor([labels], 0.25),
  };
  Object.assign(tensors, head);
  const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
  const id2label = Object.fromEntries(Array.from({ length: labels }, (_, i) => [i, `LABEL_${i}`]));
  const files: Record<string, Uint8Array> = {
    "config.json": json({
      architectures: ["BertForSequenceClassification"],
      model_type: "bert",
      hidden_size: h,
      num_hidden_layers: 2,
      num_attention_heads: 2,
      intermediate_size: ffn,
      max_position_embeddings: 128,
      type_vocab_size: 2,
      layer_norm_eps: 1e-12,
      id2label,
    }),
    "model.safetensors": encodeSafetensors(tensors),
    "vocab.txt": new TextEncoder().encode(vocab.join("\n") + "\n"),
    "README.md": new TextEncoder().encode("---\nlicense: apache-2.0\n---\n# tiny-cross-encoder\n"),
  };
  // What llama.cpp should compute for any pair, before its sigmoid.
  const pooled = Array.from(head["bert.pooler.dense.bias"].data, Math.tanh);
  const logit = pooled.reduce((sum, x, i) => sum + x * head["classifier.weight"].data[i], 0.25);
  return { files, expected: 1 / (1 + Math.exp(-logit)) };
}

async function writeFolder(root: string, files: Record<string, Uint8Array>): Promise<void> {
  await mkdir(root, { recursive: true });
  for (const [name, bytes] of Object.entries(files)) await writeFile(join(root, name), bytes);
}

Deno.test("ggufTensorName() maps a cross-encoder's pooler and classifier to the rank head", () => {
  assert.equal(ggufTensorName("bert.pooler.dense.weight", true), "cls.weight");
  assert.equal(ggufTensorName("bert.pooler.dense.bias", true), "cls.bias");
  assert.equal(ggufTensorName("classifier.weight", true), "cls.output.weight");
  assert.equal(ggufTensorName("classifier.bias", true), "cls.output.bias");
  assert.equal(ggufTensorName("bert.pooler.dense.weight"), null, "embedders drop the pooler");
});

Deno.test("importCheckpoint() turns a one-label BertForSequenceClassification into a reranker llama.cpp scores", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const { files, expected } = crossEncoderCheckpoint();
    await writeFolder(join(dir, "ckpt"), files);
    const { manifest, path } = await importCheckpoint(join(dir, "ckpt"), { to: dir, type: "f32" });
    assert.equal(path, join(dir, "reranker.gguf"));
    assert.equal(manifest.kind, "reranker");
    assert.equal(manifest.pooling, "rank");
    assert.equal(manifest.dimensions, 1);
    assert.equal(manifest.name, "tiny-cross-encoder");
    assert.deepEqual(await readManifest(path), manifest);

    const reranker = await LlamaReranker.create({ modelPath: path, threads: 1 });
    try {
      const scores = await reranker.rank("search index", ["hello world", "the cache reads files"]);
      // The zero pooler weight makes the score independent of the text, so the
      // exact value proves the head was mapped and applied as in PyTorch.
      for (const score of scores) {
        assert.ok(Math.abs(score - expected) < 1e-4, `${score} vs ${expected}`);
      }
    } finally {
      await reranker.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("importCheckpoint() refuses sequence classification with more than one label", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await writeFolder(join(dir, "ckpt"), crossEncoderCheckpoint(2).files);
    await assert.rejects(
      importCheckpoint(join(dir, "ckpt"), { to: dir }),
      (error: unknown) =>
        error instanceof WayfinderError && error.code === "input" && /2 labels/.test(error.message),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
