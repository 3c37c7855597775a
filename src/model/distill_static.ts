/**
 * Distils a static model from an embedding model, as model2vec does: the
 * model's output for every vocabulary token on its own, centred and
 * reduced with PCA, then each token's vector scaled down the more frequent
 * the token is likely to be (SIF weights, with frequencies estimated from
 * the vocabulary's order by Zipf's law). No training data, no network.
 */
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { WayfinderError } from "../error.ts";
import { writeManifest } from "./_write_manifest.ts";
import type { ModelManifest } from "./manifest.ts";
import { principalComponents } from "./pca.ts";
import {
  encodeStaticModel,
  type StaticModelHeader,
  type StaticTokenizer,
} from "./static_model_file.ts";

/** model2vec's default: frequent tokens (high Zipf probability) weigh much less. */
const SIF_COEFFICIENT = 1e-4;
/**
 * The strongest principal components left out ("all-but-the-top", Mu &
 * Viswanath 2018): every token's output shares them, so an average of
 * tokens is dominated by them and says little about which tokens it holds.
 * 16 measured best (docs/static-embedder.md).
 */
export const DROPPED_COMPONENTS = 16;
/** BERT's placeholder tokens: never produced by the tokenizer, not worth a forward pass. */
const UNUSED = /^\[unused\d+\]$/;

/** What distillation reads from the source model. */
export interface TokenOutputSource {
  /** The source model's name, SHA-256, query prefix and license, for the header and manifest. */
  name: string;
  sha256: string;
  queryPrefix: string;
  license: string;
  /** The source's pooling ("mean", "cls"), for the record. */
  pooling: string;
  dimensions: number;
  tokenizer: StaticTokenizer;
  /** GGUF token types by id (3 = control); control tokens get no vector. */
  tokenTypes: number[];
  /** The model's pooled output, not normalised, for one token id on its own. */
  outputFor(id: number): Promise<Float32Array>;
}

/** Options for {@link distillStaticModel}. */
export interface DistillOptions {
  /** Where to write the static model; its manifest goes beside it. */
  to: string;
  /** Dimensions kept by PCA (at most the source's). @default 256 */
  dims?: number;
  /** Where the source came from, for the manifest. */
  sourcePath: string;
  onProgress?: (done: number, total: number) => void;
  /** Aborting stops the run; nothing is published. */
  signal?: AbortSignal;
}

/** The distilled model's path, manifest and how long each part took. */
export interface DistilledModel {
  path: string;
  manifest: ModelManifest;
  tokens: number;
  explainedVariance: number;
}

/**
 * Distils and publishes a static model: the file and its manifest appear
 * only when the whole run succeeded.
 *
 * @throws {WayfinderError} "usage" for a bad `dims`; the signal's reason when aborted.
 */
export async function distillStaticModel(
  source: TokenOutputSource,
  options: DistillOptions,
): Promise<DistilledModel> {
  const dims = options.dims ?? Math.min(256, source.dimensions);
  if (!Number.isInteger(dims) || dims < 1 || dims > source.dimensions) {
    throw new WayfinderError(
      "usage",
      `Cannot distil: --dims must be an integer from 1 to ${source.dimensions}, got ${dims}`,
    );
  }
  const { tokens } = source.tokenizer;
  const kept = tokens.flatMap((text, id) =>
    source.tokenTypes[id] === 3 || UNUSED.test(text) ? [] : [id]
  );
  const d = source.dimensions;
  const outputs = new Float64Array(kept.length * d);
  for (const [row, id] of kept.entries()) {
    options.signal?.throwIfAborted();
    outputs.set(await source.outputFor(id), row * d);
    if (row % 256 === 0 || row === kept.length - 1) options.onProgress?.(row + 1, kept.length);
  }
  // As many top components as the source has beyond `dims`, at most DROPPED_COMPONENTS.
  const dropped = Math.min(DROPPED_COMPONENTS, d - dims);
  const computed = dims + dropped;
  const pca = principalComponents(outputs, kept.length, d, computed);
  const explainedVariance = pca.componentShares.slice(dropped).reduce((sum, v) => sum + v, 0);
  // SIF: token i (in vocabulary order) has Zipf probability ∝ 1/(i+2).
  let norm = 0;
  for (let rank = 0; rank < kept.length; rank++) norm += 1 / (rank + 2);
  const vectors = new Float32Array(tokens.length * dims);
  for (const [row, id] of kept.entries()) {
    const weight = SIF_COEFFICIENT / (SIF_COEFFICIENT + 1 / (row + 2) / norm);
    for (let k = 0; k < dims; k++) {
      vectors[id * dims + k] = pca.projected[row * computed + dropped + k] * weight;
    }
  }
  const header: StaticModelHeader = {
    name: `${source.name} (static, ${dims}d)`,
    source: { name: source.name, sha256: source.sha256 },
    dimensions: dims,
    vocabSize: tokens.length,
    method: {
      pooling: source.pooling,
      pcaDims: dims,
      droppedComponents: dropped,
      explainedVariance: Number(explainedVariance.toFixed(6)),
      sifCoefficient: SIF_COEFFICIENT,
    },
    queryPrefix: source.queryPrefix,
    tokenizer: source.tokenizer,
  };
  const bytes = encodeStaticModel(header, vectors);
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  const manifest: ModelManifest = {
    name: header.name,
    source: options.sourcePath,
    sha256: Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join(""),
    bytes: bytes.length,
    dimensions: dims,
    // No context window: a static model reads any length.
    maxTokens: 0,
    pooling: "mean",
    queryPrefix: source.queryPrefix,
    license: source.license,
    kind: "static",
  };
  await publish(options.to, bytes, manifest);
  return {
    path: options.to,
    manifest,
    tokens: kept.length,
    explainedVariance,
  };
}

/** Writes the file beside its destination, renames it in, then writes the manifest. */
async function publish(to: string, bytes: Uint8Array, manifest: ModelManifest): Promise<void> {
  const temp = `${to}.${crypto.randomUUID().slice(0, 8)}.partial`;
  try {
    await mkdir(dirname(to), { recursive: true });
    await writeFile(temp, bytes);
    await rename(temp, to);
  } catch (error) {
    await rm(temp, { force: true });
    throw new WayfinderError("io", `Cannot write '${to}': ${(error as Error).message}`, {
      cause: error,
    });
  }
  await writeManifest(to, manifest);
}
