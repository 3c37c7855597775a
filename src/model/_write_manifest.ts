import { rename, rm, writeFile } from "node:fs/promises";
import { WayfinderError } from "../error.ts";
import { manifestPathFor, type ModelManifest } from "./manifest.ts";

/** Writes `<model>.manifest.json` beside a model atomically; returns its path. */
export async function writeManifest(modelPath: string, manifest: ModelManifest): Promise<string> {
  const path = manifestPathFor(modelPath);
  const temp = `${path}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    await writeFile(temp, JSON.stringify(manifest, null, 2) + "\n");
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw new WayfinderError("io", `Cannot write '${path}': ${(error as Error).message}`, {
      cause: error,
    });
  }
  return path;
}
