import type { Corpus } from "../corpus/mod.ts";
import { readManifest } from "../store/mod.ts";

/** What a client shows about an index: whether it exists and what it holds. No model is loaded. */
export async function statusOf(corpus: Corpus) {
  const manifest = await readManifest(corpus.indexDir);
  if (!manifest) return { root: corpus.root, state: "absent" as const, index: corpus.indexDir };
  return {
    root: corpus.root,
    state: "ready" as const,
    index: corpus.indexDir,
    chunks: manifest.chunkCount,
    files: Object.keys(manifest.files).length,
    model: manifest.identity.name,
    updatedAt: manifest.createdAt,
  };
}
