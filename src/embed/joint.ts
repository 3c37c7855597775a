import { BUILD_DEFAULTS } from "../build_defaults.ts";
import { WayfinderError } from "../error.ts";
import type { Embedder, ModelIdentity } from "./embedder.ts";
import { modelIdentity } from "./model_identity.ts";

/**
 * Two embedders read as one: each text's vector is the first model's unit
 * vector scaled by √(1 − share) followed by the second's scaled by √share.
 * Both parts are unit length, so the joint vector is too, and the dot product
 * of two joint vectors is `(1 − share) · cos₁ + share · cos₂`: the two models'
 * cosines blended, with every store and search step unchanged. A transformer
 * and the static model distilled from it err in different places, so the
 * blend ranks better than the transformer alone (docs/static-embedder.md,
 * "Joint vectors").
 *
 * Token counts, the context window and the long-input policy are the first
 * model's: the second (a static model) reads any length.
 */
export class JointEmbedder implements Embedder {
  readonly identity: ModelIdentity;
  readonly #first: Embedder;
  readonly #second: Embedder;
  readonly #share: number;

  /**
   * @param first The embedder whose token budget applies (the transformer).
   * @param second The embedder blended in (the static model).
   * @param share The second's share of the cosine, from 0 to 1. @default {0.2}
   */
  constructor(first: Embedder, second: Embedder, share = BUILD_DEFAULTS.staticShare) {
    if (!(share >= 0 && share <= 1)) {
      throw new WayfinderError(
        "usage",
        `Cannot join embedders: share must be from 0 to 1, got ${share}`,
      );
    }
    this.#first = first;
    this.#second = second;
    this.#share = share;
    const [a, b] = [first.identity, second.identity];
    // The first model's name, pooling and budget stand; what joining changes is in the
    // provider (`llama+static 0.2`), the weights and the width.
    this.identity = modelIdentity({
      name: a.name,
      provider: `${a.provider}+${b.provider} ${share}`,
      sha256: `${a.sha256}+${b.sha256}`,
      dimensions: a.dimensions + b.dimensions,
      pooling: a.pooling,
    }, {
      queryPrefix: a.queryPrefix,
      maxTokens: a.maxTokens,
      longInput: a.longInput,
      inputFormat: a.inputFormat,
    });
  }

  async embedDocuments(texts: string[]): Promise<Float32Array[]> {
    const [a, b] = await Promise.all([
      this.#first.embedDocuments(texts),
      this.#second.embedDocuments(texts),
    ]);
    return a.map((vector, i) => joinVectors(vector, b[i]!, this.#share));
  }

  async embedQuery(text: string): Promise<Float32Array> {
    const [a, b] = await Promise.all([
      this.#first.embedQuery(text),
      this.#second.embedQuery(text),
    ]);
    return joinVectors(a, b, this.#share);
  }

  countTokens(text: string, kind: "document" | "query"): Promise<number> {
    return this.#first.countTokens(text, kind);
  }

  async close(): Promise<void> {
    await Promise.all([this.#first.close(), this.#second.close()]);
  }
}

/**
 * One joint vector from the two models' unit vectors of a text: the first
 * scaled by √(1 − share), then the second scaled by √share.
 */
export function joinVectors(
  first: Float32Array,
  second: Float32Array,
  share: number,
): Float32Array {
  const out = new Float32Array(first.length + second.length);
  const [a, b] = [Math.sqrt(1 - share), Math.sqrt(share)];
  for (let k = 0; k < first.length; k++) out[k] = first[k]! * a;
  for (let k = 0; k < second.length; k++) out[first.length + k] = second[k]! * b;
  return out;
}

/** A joint identity's provider: the two models' providers and the share, `llama+static 0.2`. */
const JOINED = /^(.+)\+([^+ ]+) (\d*\.?\d+)$/;

/** A joint identity's parts: the first model's identity, the second model's weights, the share. */
export interface JointParts {
  first: ModelIdentity;
  secondSha256: string;
  share: number;
}

/** The parts of a joint identity (`JointEmbedder`), or null for one model's identity. */
export function jointParts(identity: ModelIdentity): JointParts | null {
  const joined = JOINED.exec(identity.provider);
  const plus = identity.sha256.lastIndexOf("+");
  if (!joined || plus < 0) return null;
  return {
    first: { ...identity, provider: joined[1]!, sha256: identity.sha256.slice(0, plus) },
    secondSha256: identity.sha256.slice(plus + 1),
    share: Number(joined[3]),
  };
}

/** Whether an index's vectors are joint vectors (`JointEmbedder`). */
export function isJoint(identity: ModelIdentity): boolean {
  return jointParts(identity) !== null;
}

/**
 * Whether two identities differ only in how the vectors are joined: the same
 * first model, set up the same way, with a static model joined to one and not
 * the other, or another static model or share. An index built one way is then
 * rebuilt the other way, as a change of input format is: the user chose the
 * same model.
 */
export function onlyJoiningDiffers(built: ModelIdentity, current: ModelIdentity): boolean {
  const [a, b] = [jointParts(built), jointParts(current)];
  if (!a && !b) return false;
  const [first, other] = [a?.first ?? built, b?.first ?? current];
  // The width is the joint one in a joint's first part.
  return (Object.keys(first) as (keyof ModelIdentity)[]).every((key) =>
    key === "dimensions" || first[key] === other[key]
  );
}
