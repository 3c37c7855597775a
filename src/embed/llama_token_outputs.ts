/**
 * What distillation needs from a GGUF embedding model: its vocabulary and
 * its pooled output for each token on its own.
 */
import { existsSync } from "node:fs";
import type { LlamaEmbeddingContext, LlamaVocabularyType, Token } from "node-llama-cpp";
import { WayfinderError } from "../error.ts";
import { readManifest, sha256File, type TokenOutputSource } from "../model/mod.ts";
import { openLlamaModel } from "./llama_open_model.ts";
import { type GgufMetadata, llamaSetup } from "./llama_setup.ts";
import type { LlamaSession } from "./llama_session.ts";

/** A token-output source over a loaded model; close it when done. */
export interface LlamaTokenOutputs extends TokenOutputSource {
  close(): Promise<void>;
}

/**
 * Opens a GGUF embedding model with a WordPiece vocabulary for distillation.
 *
 * @throws {WayfinderError} "no_model" when missing; "model" when llama.cpp cannot load it, when it
 *   is a reranker or has no pooling, or when its tokenizer is not WordPiece.
 */
export async function openLlamaTokenOutputs(
  modelPath: string,
  threads: number,
): Promise<LlamaTokenOutputs> {
  const manifest = existsSync(modelPath) ? await readManifest(modelPath).catch(() => null) : null;
  const refuse = (why: string) =>
    new WayfinderError("model", `Cannot distil from '${modelPath}': ${why}`);
  if (manifest?.kind === "reranker") throw refuse("it is a reranker, not an embedding model");
  if (manifest?.kind === "static") throw refuse("it is already a static model");
  let setup: ReturnType<typeof llamaSetup> | undefined;
  const session: LlamaSession<LlamaEmbeddingContext> = await openLlamaModel(
    modelPath,
    threads,
    "model",
    (model) => {
      const header = model.fileInfo.metadata as unknown as GgufMetadata;
      setup = llamaSetup(modelPath, manifest, header, model.trainContextSize);
      if (!["mean", "cls"].includes(setup.pooling)) {
        throw refuse(`it pools '${setup.pooling}', not as an embedding model (mean or cls)`);
      }
      if (model.vocabularyType !== ("wpm" as LlamaVocabularyType.wpm)) {
        throw refuse(
          `its tokenizer is '${model.vocabularyType}'; distillation reads WordPiece (BERT) vocabularies only`,
        );
      }
      // Three tokens per input: a small context keeps each forward pass cheap.
      return model.createEmbeddingContext({ threads, contextSize: 8, batchSize: 8 });
    },
  );
  try {
    const { model, context } = session;
    const ggml = (model.fileInfo.metadata as unknown as Record<string, Record<string, unknown>>)
      .tokenizer?.ggml as Record<string, unknown> | undefined;
    const tokens = ggml?.tokens as string[] | undefined;
    const types = ggml?.token_type as number[] | undefined;
    const cls = typeof ggml?.cls_token_id === "number" ? ggml.cls_token_id : null;
    const sep = typeof ggml?.seperator_token_id === "number" ? ggml.seperator_token_id : null;
    const unk = ggml?.unknown_token_id;
    if (!Array.isArray(tokens) || typeof unk !== "number" || cls === null || sep === null) {
      throw refuse("its header lacks the WordPiece vocabulary or its special tokens");
    }
    const sha256 = await sha256File(modelPath);
    return {
      name: setup!.name,
      sha256,
      queryPrefix: setup!.queryPrefix,
      license: manifest?.license ?? "",
      pooling: setup!.pooling,
      dimensions: model.embeddingVectorSize,
      tokenizer: { kind: "wordpiece", tokens: [...tokens], unk, cls, sep },
      tokenTypes: Array.isArray(types) ? [...types] : [],
      // model2vec wraps each token in the end and start tokens, reversed: it measured better.
      outputFor: (id) =>
        session.use(async () =>
          Float32Array.from(
            (await context.getEmbeddingFor([sep, id, cls] as Token[])).vector,
          )
        ),
      close: () => session.close(),
    };
  } catch (error) {
    await session.close();
    throw error;
  }
}
