import { stat } from "node:fs/promises";
import { getLlama, type Llama, LlamaLogLevel, type LlamaModel } from "node-llama-cpp";
import { WayfinderError } from "../error.ts";

/**
 * Loads a GGUF on the CPU with an explicit thread count and hands it to
 * `setup` (which creates the embedding or ranking context). Whatever fails,
 * the loaded parts are disposed and the error is one WayfinderError:
 * "usage" for a bad thread count, "no_model" for a missing file, "model"
 * when llama.cpp refuses the file.
 *
 * @param what "model" or "reranker", for messages.
 */
export async function openLlamaModel<T>(
  modelPath: string,
  threads: number,
  what: string,
  setup: (llama: Llama, model: LlamaModel) => Promise<T>,
): Promise<T> {
  if (!Number.isInteger(threads) || threads < 1) {
    throw new WayfinderError(
      "usage",
      `Cannot load ${what}: threads must be a positive integer, got ${threads}`,
    );
  }
  try {
    await stat(modelPath);
  } catch (error) {
    throw new WayfinderError("no_model", `Cannot load ${what}: '${modelPath}' does not exist`, {
      cause: error,
    });
  }
  let llama: Llama | undefined;
  let model: LlamaModel | undefined;
  try {
    // llama.cpp's default thread count over-subscribes shared machines: always pass ours.
    llama = await getLlama({
      gpu: false,
      build: "never",
      logLevel: LlamaLogLevel.error,
      maxThreads: threads,
      progressLogs: false,
    });
    model = await llama.loadModel({ modelPath, gpuLayers: 0 });
    return await setup(llama, model);
  } catch (error) {
    await model?.dispose();
    await llama?.dispose();
    if (error instanceof WayfinderError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new WayfinderError("model", `Cannot load ${what} '${modelPath}': ${reason}`, {
      cause: error,
    });
  }
}
