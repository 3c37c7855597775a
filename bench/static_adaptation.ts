/**
 * Adapting a static model to one corpus, measured and not kept
 * (docs/static-embedder.md, "Adapting the static vectors to a corpus"). Writes
 * an adapted copy of a static model; measure it with
 * `bench/peer_ranking.ts --model OUT.static`.
 *
 *   deno run -A bench/static_adaptation.ts --static S.static --out OUT.static
 *     [--variant corpus-sif|ridge|refine] [--corpus DIR] [--gguf GGUF] [--epochs 200]
 *
 * - corpus-sif: SIF weights from the corpus's own token frequencies where a
 *   token occurs, the Zipf prior elsewhere (no transformer needed);
 * - ridge: the transformer embeds the corpus's passages; a ridge regression
 *   maps each passage's mean static vector onto its transformer vector, and
 *   the table becomes `E·M` (the transformer's dimensions);
 * - refine: ridge, then each token's vector moves by gradient descent (Adam)
 *   so that each passage's mean approaches its transformer vector, held near
 *   `E·M` by an L2 penalty.
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { liveIndex, openCorpus } from "../src/corpus/mod.ts";
import { LlamaEmbedder, StaticEmbedder } from "../src/embed/mod.ts";
import { WordPieceTokenizer } from "../src/embed/wordpiece.ts";
import { writeManifest } from "../src/model/_write_manifest.ts";
import { sha256File } from "../src/model/mod.ts";
import { encodeStaticModel, readStaticModel } from "../src/model/static_model_file.ts";
import { embeddingInput, INPUT_FORMAT } from "../src/pipeline/mod.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    static: { type: "string" },
    out: { type: "string" },
    variant: { type: "string", default: "refine" },
    corpus: { type: "string", default: "fixtures/corpus" },
    gguf: { type: "string", default: ".cache/models/minilm-f16.gguf" },
    data: { type: "string", default: join(Deno.makeTempDirSync(), "adapt") },
    epochs: { type: "string", default: "200" },
  },
});
if (!values.static || !values.out) {
  console.error("usage: static_adaptation.ts --static S.static --out OUT.static [--variant …]");
  Deno.exit(2);
}
const { model, manifest } = await readStaticModel(values.static);
const { header } = model;
const tokenizer = new WordPieceTokenizer(header.tokenizer.tokens, header.tokenizer.unk);
const idsOf = (text: string) =>
  tokenizer.tokenize(text).filter((id) => id !== header.tokenizer.unk);

let vectors = model.vectors;
if (values.variant === "corpus-sif") vectors = await corpusSif();
else vectors = await fitToTransformer(Number(values.variant === "refine" ? values.epochs : 0));

header.name = `${header.name}, adapted (${values.variant})`;
const bytes = encodeStaticModel(header, vectors);
await Deno.writeFile(values.out, bytes);
await writeManifest(values.out, {
  ...manifest,
  name: header.name,
  dimensions: header.dimensions,
  bytes: bytes.length,
  sha256: await sha256File(values.out),
});
console.error(`wrote ${values.out}`);

/** Rows with a vector, in vocabulary order: the ranks distillation gave its Zipf weights. */
function keptRows(d: number): number[] {
  const kept: number[] = [];
  for (let id = 0; id < header.vocabSize; id++) {
    if (vectors.subarray(id * d, id * d + d).some((v) => v !== 0)) kept.push(id);
  }
  return kept;
}

async function corpusSif(): Promise<Float32Array> {
  const d = header.dimensions;
  const embedder = await StaticEmbedder.open({ modelPath: values.static! });
  const corpus = await openCorpus(values.corpus!, { dataDir: join(values.data!, "s"), embedder });
  await corpus.index();
  const counts = new Float64Array(header.vocabSize);
  let total = 0;
  for (const chunk of (await liveIndex(corpus)).chunks) {
    for (const id of idsOf(embeddingInput(chunk))) (counts[id]++, total++);
  }
  await corpus.close();
  const kept = keptRows(d);
  let norm = 0;
  for (let r = 0; r < kept.length; r++) norm += 1 / (r + 2);
  const out = vectors.slice();
  for (const [rank, id] of kept.entries()) {
    const zipf = 1e-4 / (1e-4 + 1 / (rank + 2) / norm);
    const p = counts[id]! / total;
    const weight = p > 0 ? 1e-3 / (1e-3 + p) : zipf;
    for (let k = 0; k < d; k++) out[id * d + k] = vectors[id * d + k]! / zipf * weight;
  }
  return out;
}

async function fitToTransformer(epochs: number): Promise<Float32Array> {
  const d = header.dimensions;
  const embedder = await LlamaEmbedder.create({
    modelPath: values.gguf!,
    threads: 2,
    inputFormat: INPUT_FORMAT,
  });
  const corpus = await openCorpus(values.corpus!, { dataDir: join(values.data!, "t"), embedder });
  await corpus.index();
  const index = await liveIndex(corpus);
  const D = index.dimensions;
  const pairs = index.chunks.flatMap((chunk, i) => {
    const ids = idsOf(embeddingInput(chunk));
    return ids.length ? [{ ids, y: index.vectors.slice(i * D, i * D + D) }] : [];
  });
  await corpus.close();
  await embedder.close();
  // Ridge: M = (XᵀX + I)⁻¹ XᵀY, X the passages' normalised mean static vectors.
  const n = pairs.length;
  const A = new Float64Array(d * d);
  const B = new Float64Array(d * D);
  for (const { ids, y } of pairs) {
    const x = new Float64Array(d);
    for (const id of ids) for (let k = 0; k < d; k++) x[k] += vectors[id * d + k]!;
    const length = Math.hypot(...x) || 1;
    for (let k = 0; k < d; k++) x[k] /= length;
    for (let i = 0; i < d; i++) {
      for (let j = 0; j < d; j++) A[i * d + j] += x[i]! * x[j]!;
      for (let j = 0; j < D; j++) B[i * D + j] += x[i]! * y[j]!;
    }
  }
  for (let i = 0; i < d; i++) A[i * d + i] += 1;
  const M = solveSymmetric(A, B, d, D);
  const prior = new Float32Array(header.vocabSize * D);
  for (let t = 0; t < header.vocabSize; t++) {
    for (let i = 0; i < d; i++) {
      const e = vectors[t * d + i]!;
      if (e !== 0) { for (let j = 0; j < D; j++) prior[t * D + j] += e * M[i * D + j]!; }
    }
  }
  header.dimensions = D;
  const table = prior.slice();
  if (epochs === 0) return table;
  // Targets at the passages' typical mean length, so the penalty and the fit agree in scale.
  let scale = 0;
  for (const { ids } of pairs) scale += Math.hypot(...meanOf(table, ids, D)) / n;
  const first = new Float32Array(table.length);
  const second = new Float32Array(table.length);
  const grad = new Float32Array(table.length);
  const touched = [...new Set(pairs.flatMap((p) => p.ids))];
  for (let epoch = 1; epoch <= epochs; epoch++) {
    grad.fill(0);
    for (const { ids, y } of pairs) {
      const mean = meanOf(table, ids, D);
      for (const id of ids) {
        for (let j = 0; j < D; j++) {
          grad[id * D + j] += 2 * (mean[j]! - y[j]! * scale) / ids.length / n;
        }
      }
    }
    for (const t of touched) {
      for (let j = 0; j < D; j++) {
        const at = t * D + j;
        const g = grad[at]! + 2e-3 * (table[at]! - prior[at]!);
        first[at] = 0.9 * first[at]! + 0.1 * g;
        second[at] = 0.999 * second[at]! + 0.001 * g * g;
        const step = first[at]! / (1 - 0.9 ** epoch) /
          (Math.sqrt(second[at]! / (1 - 0.999 ** epoch)) + 1e-8);
        table[at] = table[at]! - 0.05 * scale * step;
      }
    }
  }
  return table;
}

function meanOf(table: Float32Array, ids: number[], D: number): Float64Array {
  const mean = new Float64Array(D);
  for (const id of ids) for (let j = 0; j < D; j++) mean[j] += table[id * D + j]! / ids.length;
  return mean;
}

/** Solves A X = B for symmetric positive definite A (n × n) by Cholesky, B n × m. */
function solveSymmetric(A: Float64Array, B: Float64Array, n: number, m: number): Float64Array {
  const L = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = A[i * n + j]!;
      for (let k = 0; k < j; k++) s -= L[i * n + k]! * L[j * n + k]!;
      L[i * n + j] = i === j ? Math.sqrt(s) : s / L[j * n + j]!;
    }
  }
  const X = new Float64Array(n * m);
  const z = new Float64Array(n);
  for (let c = 0; c < m; c++) {
    for (let i = 0; i < n; i++) {
      let s = B[i * m + c]!;
      for (let k = 0; k < i; k++) s -= L[i * n + k]! * z[k]!;
      z[i] = s / L[i * n + i]!;
    }
    for (let i = n - 1; i >= 0; i--) {
      let s = z[i]!;
      for (let k = i + 1; k < n; k++) s -= L[k * n + i]! * X[k * m + c]!;
      X[i * m + c] = s / L[i * n + i]!;
    }
  }
  return X;
}
