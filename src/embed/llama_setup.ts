/**
 * How a GGUF embeds besides its weights — name, query prefix, pooling and
 * token budget — from its manifest, else from the GGUF's own header. One
 * derivation for the embedder that loads the model and for `status`, which
 * must tell without loading it.
 */
import { basename } from "node:path";
import type { ModelManifest } from "../model/mod.ts";

/** The identity fields a GGUF's manifest or header decides. */
export interface LlamaSetup {
  name: string;
  queryPrefix: string;
  pooling: string;
  /** The model's own token budget (before any context-size cap). */
  maxTokens: number;
}

/** llama.cpp's pooling type numbers, as GGUF stores them. */
const POOLING_NAMES: Readonly<Record<number, string>> = {
  0: "none",
  1: "mean",
  2: "cls",
  3: "last",
  4: "rank",
};

/** A GGUF header's metadata, by section (`general`, the architecture, `tokenizer`). */
export type GgufMetadata = Record<string, Record<string, unknown> | undefined>;

/**
 * The setup from a manifest and a GGUF header.
 * @param trainContextSize The model's training context, when known from a loaded model.
 */
export function llamaSetup(
  modelPath: string,
  manifest: ModelManifest | null,
  metadata: GgufMetadata,
  trainContextSize?: number,
): LlamaSetup {
  const architecture = metadata[metadata.general?.architecture as string];
  const poolingType = architecture?.pooling_type;
  return {
    name: manifest?.name ?? (metadata.general?.name as string | undefined) ??
      basename(modelPath).replace(/\.gguf$/i, ""),
    queryPrefix: manifest?.queryPrefix ?? "",
    pooling: manifest?.pooling ??
      (typeof poolingType === "number" ? POOLING_NAMES[poolingType] ?? "none" : "none"),
    maxTokens: manifest?.maxTokens ?? trainContextSize ??
      Number(architecture?.context_length ?? 0),
  };
}

/** The setup a GGUF would load with, reading only its header (no weights, no llama.cpp). */
export async function readLlamaSetup(
  modelPath: string,
  manifest: ModelManifest | null,
): Promise<LlamaSetup> {
  const { readGgufFileInfo } = await import("node-llama-cpp");
  const info = await readGgufFileInfo(modelPath, { readTensorInfo: false, logWarnings: false });
  return llamaSetup(modelPath, manifest, info.metadata as unknown as GgufMetadata);
}
