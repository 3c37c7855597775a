/**
 * The environment CLI tests run `wayfinder` in: a fresh data root of their
 * own and the tiny test model, and the fixture trees they copy.
 */
import { join } from "node:path";
import { REPO, tinyModel } from "./_run.ts";

/** The bundled example corpus. */
export const CORPUS: string = join(REPO, "fixtures", "corpus");

/** Its services folder: a small tree that indexes in seconds. */
export const SERVICES: string = join(CORPUS, "services");

/** The environment of a run with an empty data root of its own (a type, so it is a Record too). */
export type DataEnv = { WAYFINDER_DATA_DIR: string };

/** An empty data root of its own, in a fresh temp folder; no model chosen. */
export async function dataEnv(): Promise<DataEnv> {
  return { WAYFINDER_DATA_DIR: await Deno.makeTempDir({ prefix: "wayfinder-data-" }) };
}

/** An empty data root of its own and `model`: the tiny test model unless another is given. */
export async function tinyEnv(
  model: string = tinyModel(),
): Promise<DataEnv & { WAYFINDER_EMBEDDING_MODEL: string }> {
  return { ...(await dataEnv()), WAYFINDER_EMBEDDING_MODEL: model };
}

/** `openCorpus` options to match: an empty data root of its own and the tiny model on one thread. */
export async function tinyCorpusOptions(): Promise<
  { dataDir: string; embedder: { model: string; threads: number } }
> {
  return {
    dataDir: (await dataEnv()).WAYFINDER_DATA_DIR,
    embedder: { model: tinyModel(), threads: 1 },
  };
}
