/**
 * Whether the configured embedder would give other vectors than the ones an
 * index holds, decided without loading the model: the provider, the
 * long-input policy, and the weights' SHA-256 — from the manifest beside the
 * GGUF (trusted only when its recorded size matches the file), else hashed
 * from the file; then the name, query prefix, pooling and token budget it
 * would load with, from that manifest, else from the GGUF's header.
 */
import { existsSync } from "node:fs";
import { basename } from "node:path";
import {
  type JointParts,
  jointParts,
  llamaSetup,
  type ModelIdentity,
  readLlamaSetup,
  STATIC_POOLING,
} from "../embed/mod.ts";
import { WayfinderError } from "../error.ts";
import {
  type ModelManifest,
  readManifest,
  resolveModelPath,
  sha256File,
  staticModelPathFor,
} from "../model/mod.ts";
import {
  type EmbedderSettings,
  type Locations,
  REPOSITORY,
  resolveStaticModel,
} from "./open_models.ts";
import { BUILD_DEFAULTS } from "../build_defaults.ts";

/** Differences worth a re-index, worded for the user, and whether a rebuild mends them. */
export interface ModelDifference {
  /** Empty when none is known. */
  reasons: string[];
  /** False when the configured model cannot be read: a rebuild would fail to load it. */
  rebuildMends: boolean;
}

/** How the configured embedder differs from the one an index was built with. */
export async function modelDifference(
  built: ModelIdentity,
  embedder: EmbedderSettings,
  locations: Locations = {},
): Promise<ModelDifference> {
  const reasons: string[] = [];
  const provider = embedder.provider ?? BUILD_DEFAULTS.provider;
  // Joint vectors: the first model is compared as a plain index's model, the joining after.
  const joint = jointParts(built);
  const first = joint?.first ?? built;
  if (provider !== first.provider) reasons.push(`embedder ${built.provider} → ${provider}`);
  // A static model has no context window: no long-input policy applies to it.
  const longInput = provider === "static" ? "none" : embedder.longInput ?? BUILD_DEFAULTS.longInput;
  if (longInput !== built.longInput) reasons.push(`longInput ${built.longInput} → ${longInput}`);
  if (reasons.length > 0) return mended(reasons);
  if (provider === "static") {
    const weights = await staticWeights(embedder, locations);
    if (typeof weights === "string") return { reasons: [weights], rebuildMends: false };
    if (joint) return mended([`embedder ${built.provider} → static`]);
    if (weights.sha256 !== built.sha256) {
      return mended([`model ${built.name} → ${weights.name} (other weights)`]);
    }
    return mended(
      built.pooling === STATIC_POOLING
        ? []
        : [`pooling ${JSON.stringify(built.pooling)} → ${JSON.stringify(STATIC_POOLING)}`],
    );
  }
  if (provider !== "llama") {
    const name = embedder.model;
    if (name && name !== built.name) reasons.push(`model ${built.name} → ${name}`);
    return mended(reasons);
  }
  const weights = await configuredWeights(embedder, locations);
  if (typeof weights === "string") return { reasons: [weights], rebuildMends: false };
  if (weights.sha256 !== first.sha256) {
    return mended([`model ${built.name} → ${weights.name} (other weights)`]);
  }
  const setup = await setupDifference(first, weights.path, weights.manifest);
  if (setup.reasons.length > 0) return setup;
  // Joined another way, the same model: a plain `index` run rebuilds (index_corpus.ts).
  return {
    reasons: await joiningDifference(joint, weights.path, embedder.staticShare),
    rebuildMends: false,
  };
}

/**
 * How the static model the GGUF would be joined with now (`embedding.static`
 * beside it, unless the share is 0) differs from the one the index's vectors
 * were joined with, if any.
 */
async function joiningDifference(
  joint: JointParts | null,
  gguf: string,
  share = BUILD_DEFAULTS.staticShare,
): Promise<string[]> {
  const beside = staticModelPathFor(gguf);
  const joins = share > 0 && existsSync(beside);
  if (!joins) {
    if (!joint) return [];
    return [share > 0 ? `static model ${beside} gone` : `static share ${joint.share} → 0`];
  }
  if (!joint) return [`static model ${beside} joined (static share ${share})`];
  const reasons = joint.share === share ? [] : [`static share ${joint.share} → ${share}`];
  const weights = await staticWeightsAt(beside);
  if (typeof weights === "string") return [weights];
  if (weights.sha256 !== joint.secondSha256) reasons.push(`static model ${beside} (other weights)`);
  return reasons;
}

/** The configured static model's name and SHA-256, from its manifest when its size matches; a reason when missing. */
async function staticWeights(
  embedder: EmbedderSettings,
  locations: Locations,
): Promise<{ name: string; sha256: string } | string> {
  let path: string;
  try {
    path = resolveStaticModel(embedder, locations).path;
  } catch (error) {
    if (error instanceof WayfinderError) return `model missing: ${error.message}`;
    throw error;
  }
  return await staticWeightsAt(path);
}

/** The static model at `path`: its name and SHA-256, from its manifest when its size matches. */
async function staticWeightsAt(path: string): Promise<{ name: string; sha256: string } | string> {
  const info = await Deno.stat(path).catch(() => null);
  if (!info?.isFile) return `model missing: '${path}' cannot be read`;
  const manifest = await readManifest(path).catch(() => null);
  if (manifest?.sha256 && manifest.bytes === info.size) {
    return { name: manifest.name, sha256: manifest.sha256 };
  }
  return { name: basename(path), sha256: await hashOf(path, info) };
}

/** Differences a rebuild with the configured model mends. */
function mended(reasons: string[]): ModelDifference {
  return { reasons, rebuildMends: reasons.length > 0 };
}

/** The configured GGUF: its path, name and SHA-256, and its manifest when one describes it; a reason when missing. */
async function configuredWeights(
  embedder: EmbedderSettings,
  locations: Locations,
): Promise<
  { path: string; name: string; sha256: string; manifest: ModelManifest | null } | string
> {
  let path: string;
  try {
    path = resolveModelPath({
      model: embedder.model,
      origin: embedder.modelOrigin,
      executableDir: locations.executableDir,
      projectDir: locations.projectDir ?? REPOSITORY,
    }).path;
  } catch (error) {
    if (error instanceof WayfinderError) return `model missing: ${error.message}`;
    throw error;
  }
  const manifest = await readManifest(path).catch(() => null);
  const info = await Deno.stat(path).catch(() => null);
  if (!info?.isFile) return `model missing: '${path}' cannot be read`;
  // A manifest whose size disagrees with the file describes other bytes.
  if (manifest?.sha256 && manifest.bytes === info.size) {
    return { path, name: manifest.name, sha256: manifest.sha256, manifest };
  }
  return { path, name: basename(path), sha256: await hashOf(path, info), manifest: null };
}

/**
 * The same weights may still load another way than the index's model did:
 * a manifest beside them that gives another name, prefix, pooling or
 * budget, or none, when the index's had one. A complete manifest says how
 * they load; the GGUF header tells the rest. Worded as `assertSameModel`
 * words it.
 */
async function setupDifference(
  built: ModelIdentity,
  path: string,
  manifest: ModelManifest | null,
): Promise<ModelDifference> {
  let setup;
  try {
    // A manifest that gives the pooling and budget needs no header: the no-op `index` reads none.
    setup = typeof manifest?.pooling === "string" && typeof manifest.maxTokens === "number"
      ? llamaSetup(path, manifest, {})
      : await readLlamaSetup(path, manifest);
  } catch (error) {
    return {
      reasons: [`model unreadable: '${path}': ${(error as Error).message}`],
      rebuildMends: false,
    };
  }
  const changed = (["name", "queryPrefix", "pooling", "maxTokens"] as const)
    .filter((key) => setup[key] !== built[key])
    .map((key) => `${key} ${JSON.stringify(built[key])} → ${JSON.stringify(setup[key])}`);
  const how = manifest ? `with the manifest beside ${path}` : `without a manifest beside ${path}`;
  return mended(
    changed.length === 0
      ? []
      : [`model ${built.name} ${how} loads another way (${changed.join(", ")})`],
  );
}

/** SHA-256s of manifest-less GGUFs already hashed, by path, size and modification time. */
const HASHES = new Map<string, string>();

async function hashOf(path: string, info: Deno.FileInfo): Promise<string> {
  const key = `${path}\0${info.size}\0${info.mtime?.getTime()}`;
  let hash = HASHES.get(key);
  if (hash === undefined) {
    hash = await sha256File(path);
    HASHES.set(key, hash);
  }
  return hash;
}

/**
 * Whether the configured embedder is known, without loading it, to be the
 * one the index was built with: the same provider and policy, and for a GGUF
 * the same weights (and, without a manifest, the same setup in its header).
 */
export async function sameEmbedder(
  built: ModelIdentity,
  embedder: EmbedderSettings,
  locations: Locations = {},
): Promise<boolean> {
  if ((await modelDifference(built, embedder, locations)).reasons.length > 0) return false;
  const provider = embedder.provider ?? BUILD_DEFAULTS.provider;
  if (provider === "static") {
    const weights = await staticWeights(embedder, locations);
    return typeof weights === "object" && weights.sha256 === built.sha256;
  }
  if (provider !== "llama") return built.sha256 === `${provider}:${embedder.model}`;
  const weights = await configuredWeights(embedder, locations);
  const first = jointParts(built)?.first ?? built;
  return typeof weights === "object" && weights.sha256 === first.sha256;
}
