/**
 * The GGUF metadata llama.cpp's BERT architecture reads, and the storage
 * type each BERT tensor gets; shared by the tiny test model and the importer.
 */
import type { GgufMetadata, GgufTensorType } from "./gguf_writer.ts";

/** BERT hyperparameters, named as in a Hugging Face config.json. */
export interface BertShape {
  name: string;
  layers: number;
  hidden: number;
  heads: number;
  ffn: number;
  maxPositions: number;
  typeVocab: number;
  layerNormEps: number;
  /** "rank" adds a classification head on the CLS token (a cross-encoder). */
  pooling: "mean" | "cls" | "rank";
}

/** A WordPiece vocabulary in Hugging Face form (`##` marks word pieces). */
export interface WordPieceVocab {
  tokens: readonly string[];
  /** Ids of tokens llama.cpp should treat as control tokens. */
  special: ReadonlySet<number>;
  unk: number;
  cls: number;
  sep: number;
  pad: number;
  mask: number;
}

/** llama.cpp's pooling type numbers. */
const POOLING: Readonly<Record<BertShape["pooling"], number>> = { mean: 1, cls: 2, rank: 4 };

/** llama.cpp's `general.file_type` numbers for the bulk matrix type. */
const FILE_TYPE: Readonly<Record<GgufTensorType, number>> = { f32: 0, f16: 1, q8_0: 7 };

/**
 * llama.cpp's WordPiece tokenizer expects word starts prefixed with U+2581
 * and word pieces without `##` (the same mapping its converter applies).
 */
export function ggmlWordPiece(token: string): string {
  if (token.startsWith("[") && token.endsWith("]")) return token;
  if (token.startsWith("##")) return token.slice(2);
  return "\u2581" + token;
}

/** Metadata for a BERT embedding model with a WordPiece vocabulary. */
export function bertMetadata(
  shape: BertShape,
  vocab: WordPieceVocab,
  matrixType: GgufTensorType,
): GgufMetadata[] {
  const u32 = (key: string, value: number): GgufMetadata => ({ key, type: "u32", value });
  return [
    { key: "general.architecture", type: "string", value: "bert" },
    { key: "general.type", type: "string", value: "model" },
    { key: "general.name", type: "string", value: shape.name },
    u32("bert.block_count", shape.layers),
    u32("bert.context_length", shape.maxPositions),
    u32("bert.embedding_length", shape.hidden),
    u32("bert.feed_forward_length", shape.ffn),
    u32("bert.attention.head_count", shape.heads),
    { key: "bert.attention.layer_norm_epsilon", type: "f32", value: shape.layerNormEps },
    u32("general.file_type", FILE_TYPE[matrixType]),
    { key: "bert.attention.causal", type: "bool", value: false },
    u32("bert.pooling_type", POOLING[shape.pooling]),
    u32("tokenizer.ggml.token_type_count", shape.typeVocab),
    { key: "tokenizer.ggml.model", type: "string", value: "bert" },
    { key: "tokenizer.ggml.pre", type: "string", value: "default" },
    {
      key: "tokenizer.ggml.tokens",
      type: "array",
      itemType: "string",
      value: vocab.tokens.map(ggmlWordPiece),
    },
    {
      key: "tokenizer.ggml.token_type",
      type: "array",
      itemType: "i32",
      // 3 = control, 1 = normal.
      value: vocab.tokens.map((_, id) => vocab.special.has(id) ? 3 : 1),
    },
    u32("tokenizer.ggml.unknown_token_id", vocab.unk),
    // llama.cpp spells this key "seperator".
    u32("tokenizer.ggml.seperator_token_id", vocab.sep),
    u32("tokenizer.ggml.padding_token_id", vocab.pad),
    u32("tokenizer.ggml.cls_token_id", vocab.cls),
    u32("tokenizer.ggml.mask_token_id", vocab.mask),
    u32("general.quantization_version", 2),
  ];
}

/**
 * Storage type for a BERT tensor: norms, biases and the position and token
 * type tables stay F32 (llama.cpp reads them as F32); other matrices use the
 * chosen type, falling back to F16 when a Q8_0 row would not fill whole blocks.
 */
export function bertTensorType(
  ggufName: string,
  shape: readonly number[],
  matrixType: GgufTensorType,
): GgufTensorType {
  if (shape.length < 2) return "f32";
  if (/(_norm|position_embd|token_types)\./.test(ggufName)) return "f32";
  if (matrixType === "q8_0" && shape[shape.length - 1] % 32 !== 0) return "f16";
  return matrixType;
}
