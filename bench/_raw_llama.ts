/**
 * node-llama-cpp without wayfinder, as the baseline of the embedding
 * benches: the runtime, the model and an embedding context sized for one
 * input of `maxTokens`, with `threads` threads, and a close that frees them
 * in order.
 */
import { getLlama, LlamaLogLevel } from "node-llama-cpp";

export async function openRawEmbedding(modelPath: string, threads: number, maxTokens: number) {
  const llama = await getLlama({
    gpu: false,
    build: "never",
    logLevel: LlamaLogLevel.error,
    maxThreads: threads,
    progressLogs: false,
  });
  const model = await llama.loadModel({ modelPath, gpuLayers: 0 });
  const context = await model.createEmbeddingContext({
    threads,
    contextSize: maxTokens + 1,
    batchSize: maxTokens + 1,
  });
  const close = async () => {
    await context.dispose();
    await model.dispose();
    await llama.dispose();
  };
  return { model, context, close };
}
