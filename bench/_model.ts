/**
 * The embedding model the real-model benches load (`$WAYFINDER_BENCH_MODEL`,
 * else the one `tests/setup.ts` prepares), and how a bench opens one.
 */
import { existsSync } from "node:fs";
import { type Embedder, JointEmbedder, LlamaEmbedder, StaticEmbedder } from "../src/embed/mod.ts";
import { INPUT_FORMAT } from "../src/pipeline/mod.ts";
import { skipSuite } from "./_report.ts";

export const BENCH_MODEL = Deno.env.get("WAYFINDER_BENCH_MODEL") ??
  new URL("../.cache/models/minilm-f16.gguf", import.meta.url).pathname;

/** The model's path; without the file the suite is skipped, saying how to get it. */
export function requireModel(): string {
  if (existsSync(BENCH_MODEL)) return BENCH_MODEL;
  skipSuite(
    `no model at ${BENCH_MODEL}: run 'deno run -A tests/setup.ts' or set WAYFINDER_BENCH_MODEL`,
  );
}

/**
 * The embedder a bench measures: a `.static` model (`model distill`) as it
 * is, else the GGUF in process with `threads`. `join` adds a static model to
 * the GGUF's vectors at its share, as one beside the GGUF does (joint
 * vectors, src/embed/joint.ts).
 */
export async function openBenchEmbedder(
  model: string,
  threads: number,
  join?: { staticModel: string; share: number },
): Promise<Embedder> {
  if (model.endsWith(".static")) return await StaticEmbedder.open({ modelPath: model });
  const transformer = await LlamaEmbedder.create({
    modelPath: model,
    threads,
    inputFormat: INPUT_FORMAT,
  });
  if (!join) return transformer;
  const second = await StaticEmbedder.open({ modelPath: join.staticModel });
  return new JointEmbedder(transformer, second, join.share);
}
