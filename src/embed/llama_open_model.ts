import { stat } from "node:fs/promises";
import type { LlamaModel } from "node-llama-cpp";
import { WayfinderError } from "../error.ts";
import { acquireLlama, type LlamaLease } from "./llama_runtime.ts";
import { disposeInOrder, LlamaSession, type NativeContext } from "./llama_session.ts";

/**
 * Loads a GGUF on the CPU over the shared `Llama` and hands the model to
 * `setup`, which creates the embedding or ranking context. Whatever fails,
 * the loaded parts are disposed and the error is one WayfinderError:
 * "usage" for a bad thread count, "no_model" for a missing file, "model"
 * when llama.cpp refuses the file.
 *
 * @param what "model" or "reranker", for messages.
 */
export async function openLlamaModel<C extends NativeContext>(
  modelPath: string,
  threads: number,
  what: string,
  setup: (model: LlamaModel) => Promise<C>,
): Promise<LlamaSession<C>> {
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
  let lease: LlamaLease | undefined;
  let model: LlamaModel | undefined;
  try {
    lease = await acquireLlama(threads);
    model = await lease.llama.loadModel({ modelPath, gpuLayers: 0 });
    return new LlamaSession(lease, model, await setup(model), `${what} '${modelPath}'`);
  } catch (error) {
    if (lease) await disposeInOrder(lease, model).catch(() => {});
    if (error instanceof WayfinderError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new WayfinderError("model", `Cannot load ${what} '${modelPath}': ${reason}`, {
      cause: error,
    });
  }
}
