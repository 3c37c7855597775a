/**
 * A tiny, deterministic BERT embedding model for tests: random weights from a
 * seeded generator, a real WordPiece vocabulary, loadable by llama.cpp.
 * Its vectors carry no meaning; they only differ for different texts.
 */
import { bertMetadata, type BertShape, bertTensorType, type WordPieceVocab } from "./_bert_gguf.ts";
import { writeManifest } from "./_write_manifest.ts";
import { type GgufTensor, writeGguf } from "./gguf_writer.ts";
import type { ModelManifest } from "./manifest.ts";

/** The tiny model's shape: 2 layers, 32 dimensions, 2 heads, mean pooling. */
export const TINY_MODEL_SHAPE: Readonly<BertShape> = {
  name: "wayfinder-tiny-test",
  layers: 2,
  hidden: 32,
  heads: 2,
  ffn: 64,
  maxPositions: 512,
  typeVocab: 2,
  layerNormEps: 1e-12,
  pooling: "mean",
};

const SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"];

const WORDS = `
the of and to in is it that for on with as was are be this by at or from an
not but have has had were can will would should could may might must do does
did done if then else when where which who what why how all any each every
some many more most other such no nor only own same so than too very just
one two three four five first last new old good great small large long short
high low big little right left next back up down out over under again about
after before between into through during without within along across around
file files code line lines name names value values type types data list lists
index search query result results model models vector vectors embed embedding
token tokens text word words document documents page pages chunk chunks read
write open close load save find match error errors test tests run build make
set get add remove delete update create start stop begin end time date user
users path paths folder directory config option options default flag command
function functions class method methods return import export const let var
async await promise string number boolean null undefined true false object
array map filter reduce sort key keys main module package version release
server client request response http api json yaml markdown html css script
node deno python rust java go dart sql table column row query database cache
memory disk size count total first second hello world example simple fast
slow quick brown fox jumps lazy dog cat how works work use using used help
`;

/** The vocabulary in Hugging Face form: specials, ASCII, `##` pieces, words. */
export function tinyVocabulary(): WordPieceVocab {
  const tokens = [...SPECIALS];
  const seen = new Set(tokens);
  const add = (token: string) => {
    if (!seen.has(token)) {
      seen.add(token);
      tokens.push(token);
    }
  };
  for (let c = 33; c < 127; c++) add(String.fromCharCode(c));
  for (let c = 33; c < 127; c++) add("##" + String.fromCharCode(c));
  for (const word of WORDS.split(/\s+/).filter(Boolean)) {
    add(word);
    if (word.length > 3) add("##" + word.slice(-3));
  }
  return {
    tokens,
    special: new Set(SPECIALS.map((_, id) => id)),
    pad: 0,
    unk: 1,
    cls: 2,
    sep: 3,
    mask: 4,
  };
}

/** mulberry32: a small seeded generator, so the weights never change. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The tiny model's BERT body: embeddings and encoder layers, from a fixed seed. */
export function tinyTensors(shape: BertShape, vocabSize: number): GgufTensor[] {
  const random = seededRandom(0x5eed);
  const uniform = (dims: number[], scale: number): Float32Array =>
    Float32Array.from(
      { length: dims.reduce((a, b) => a * b, 1) },
      () => (random() * 2 - 1) * scale,
    );
  const filled = (length: number, value: number) => new Float32Array(length).fill(value);
  const tensors: GgufTensor[] = [];
  const add = (name: string, dims: number[], data: Float32Array) =>
    tensors.push({ name, shape: dims, type: bertTensorType(name, dims, "f16"), data });
  const h = shape.hidden;
  add("token_embd.weight", [vocabSize, h], uniform([vocabSize, h], 1));
  add("token_types.weight", [shape.typeVocab, h], uniform([shape.typeVocab, h], 0.1));
  add("position_embd.weight", [shape.maxPositions, h], uniform([shape.maxPositions, h], 0.1));
  add("token_embd_norm.weight", [h], filled(h, 1));
  add("token_embd_norm.bias", [h], filled(h, 0));
  for (let i = 0; i < shape.layers; i++) {
    const blk = `blk.${i}`;
    for (const part of ["attn_q", "attn_k", "attn_v", "attn_output"]) {
      add(`${blk}.${part}.weight`, [h, h], uniform([h, h], 1 / Math.sqrt(h)));
      add(`${blk}.${part}.bias`, [h], uniform([h], 0.02));
    }
    add(`${blk}.attn_output_norm.weight`, [h], filled(h, 1));
    add(`${blk}.attn_output_norm.bias`, [h], filled(h, 0));
    add(`${blk}.ffn_up.weight`, [shape.ffn, h], uniform([shape.ffn, h], 1 / Math.sqrt(h)));
    add(`${blk}.ffn_up.bias`, [shape.ffn], uniform([shape.ffn], 0.02));
    add(
      `${blk}.ffn_down.weight`,
      [h, shape.ffn],
      uniform([h, shape.ffn], 1 / Math.sqrt(shape.ffn)),
    );
    add(`${blk}.ffn_down.bias`, [h], uniform([h], 0.02));
    add(`${blk}.layer_output_norm.weight`, [h], filled(h, 1));
    add(`${blk}.layer_output_norm.bias`, [h], filled(h, 0));
  }
  return tensors;
}

/**
 * Writes the tiny test model (`wayfinder-tiny-test`, 32 dimensions, mean
 * pooling) to `path` and its manifest beside it. The bytes are the same on
 * every run.
 */
export async function writeTinyModel(path: string): Promise<{ sha256: string }> {
  const vocab = tinyVocabulary();
  const { sha256, bytes } = await writeGguf(path, {
    metadata: bertMetadata(TINY_MODEL_SHAPE, vocab, "f16"),
    tensors: tinyTensors(TINY_MODEL_SHAPE, vocab.tokens.length),
  });
  const manifest: ModelManifest = {
    name: TINY_MODEL_SHAPE.name,
    source: "generated by writeTinyModel()",
    sha256,
    bytes,
    dimensions: TINY_MODEL_SHAPE.hidden,
    maxTokens: TINY_MODEL_SHAPE.maxPositions,
    pooling: TINY_MODEL_SHAPE.pooling,
    queryPrefix: "query: ",
    license: "MIT",
  };
  await writeManifest(path, manifest);
  return { sha256 };
}
