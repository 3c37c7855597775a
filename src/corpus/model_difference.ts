/**
 * Whether the configured embedder would give other vectors than the ones an
 * index holds, decided without loading the model: the provider, the
 * long-input policy, and the weights' SHA-256 from the manifest beside the
 * GGUF (trusted only when its recorded size matches the file).
 */
import type { ModelIdentity } from "../embed/mod.ts";
import { WayfinderError } from "../error.ts";
import { readManifest, resolveModelPath } from "../model/mod.ts";
import { type EmbedderSettings, type Locations, REPOSITORY } from "./open_models.ts";

/** Differences worth a re-index, worded for the user; empty when none is known. */
export async function modelDifference(
  built: ModelIdentity,
  embedder: EmbedderSettings,
  locations: Locations = {},
): Promise<string[]> {
  const reasons: string[] = [];
  const provider = embedder.provider ?? "llama";
  if (provider !== built.provider) reasons.push(`embedder ${built.provider} → ${provider}`);
  const longInput = embedder.longInput ?? "reject";
  if (longInput !== built.longInput) reasons.push(`longInput ${built.longInput} → ${longInput}`);
  if (reasons.length > 0) return reasons;
  if (provider !== "llama") {
    const name = embedder.model;
    if (name && name !== built.name) reasons.push(`model ${built.name} → ${name}`);
    return reasons;
  }
  const weights = await configuredWeights(embedder, locations);
  if (typeof weights === "string") reasons.push(weights);
  else if (weights && weights.sha256 !== built.sha256) {
    reasons.push(`model ${built.name} → ${weights.name} (other weights)`);
  }
  return reasons;
}

/** The configured GGUF's name and SHA-256 from its manifest; null when unknown; a reason when missing. */
async function configuredWeights(
  embedder: EmbedderSettings,
  locations: Locations,
): Promise<{ name: string; sha256: string } | string | null> {
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
  const size = (await Deno.stat(path).catch(() => null))?.size;
  // A manifest whose size disagrees with the file describes other bytes.
  if (!manifest?.sha256 || manifest.bytes !== size) return null;
  return { name: manifest.name, sha256: manifest.sha256 };
}

/**
 * Whether the configured embedder is known, without loading it, to be the
 * one the index was built with: the same provider and policy, and for a GGUF
 * the SHA-256 its manifest records. Unknown (no manifest) is not the same.
 */
export async function sameEmbedder(
  built: ModelIdentity,
  embedder: EmbedderSettings,
  locations: Locations = {},
): Promise<boolean> {
  if ((await modelDifference(built, embedder, locations)).length > 0) return false;
  const provider = embedder.provider ?? "llama";
  if (provider !== "llama") return built.sha256 === `${provider}:${embedder.model}`;
  const weights = await configuredWeights(embedder, locations);
  return typeof weights === "object" && weights !== null && weights.sha256 === built.sha256;
}
