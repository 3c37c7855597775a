import type { ModelIdentity } from "./embedder.ts";

/** What a backend fixes about its vectors. */
export type ModelFacts = Pick<
  ModelIdentity,
  "name" | "provider" | "sha256" | "dimensions" | "pooling"
>;

/** What the caller or the model's manifest chose; the rest takes the defaults every embedder shares. */
export interface IdentityChoices {
  /** @default "" */
  queryPrefix?: string;
  /** @default 512 */
  maxTokens?: number;
  longInput: string;
  /** @default 1 */
  inputFormat?: number | string;
}

/** The identity of a backend's vectors: its facts and the choices made, vectors always normalised. */
export function modelIdentity(facts: ModelFacts, chosen: IdentityChoices): ModelIdentity {
  return {
    name: facts.name,
    provider: facts.provider,
    sha256: facts.sha256,
    dimensions: facts.dimensions,
    queryPrefix: chosen.queryPrefix ?? "",
    pooling: facts.pooling,
    normalize: true,
    maxTokens: chosen.maxTokens ?? 512,
    longInput: chosen.longInput,
    inputFormat: chosen.inputFormat ?? 1,
  };
}
