/**
 * A cheap answer to "is the live generation intact?" for `status` and a
 * no-op `index`, which must not hash hundreds of megabytes each time. Each
 * data file's size, mtime, ctime and inode are recorded beside the
 * generations when it is published (and after it is verified); a file whose
 * stat still matches is taken as intact, any other is hashed against the
 * manifest. Writing a file moves its mtime and ctime, so a flipped byte costs
 * a few stat calls to notice; silent media corruption is left to the full
 * check every open does. The manifest itself carries no checksum, so the
 * sizes it implies (vectors for its chunk count and dimensions) are checked
 * on every call: an edited count would otherwise pass here and fail every open. The record is advisory: a missing or torn one only
 * means hashing once more.
 */
import { join } from "node:path";
import { _replaceJsonFile } from "./_durable.ts";
import { _xxh64File } from "./_xxh64.ts";
import { FILES, fixedSizes } from "./generation_writer.ts";
import type { IndexManifest } from "./manifest.ts";

/** The record's file name inside the index directory. */
export const STAMPS_FILE = "verified.json";

interface Stamps {
  generation: string;
  /** Data file (path under the index directory) → `size:mtime:ctime:inode` when it was last known intact. */
  files: Record<string, string>;
}

function stampOf(info: Deno.FileInfo): string {
  return [info.size, info.mtime?.getTime(), info.ctime?.getTime(), info.ino].join(":");
}

async function readStamps(indexDir: string): Promise<Stamps | null> {
  try {
    const stamps = JSON.parse(await Deno.readTextFile(join(indexDir, STAMPS_FILE))) as Stamps;
    return typeof stamps?.files === "object" && stamps.files !== null ? stamps : null;
  } catch {
    return null;
  }
}

/** Best effort, through a rename so a reader never sees half; a read-only index just hashes again. */
function writeStamps(indexDir: string, stamps: Stamps): Promise<void> {
  return _replaceJsonFile(join(indexDir, STAMPS_FILE), stamps);
}

/** Records the just-published `generation`'s data files as intact. */
export async function recordIntact(
  indexDir: string,
  generation: string,
  files: string[],
): Promise<void> {
  const stamps: Stamps = { generation, files: {} };
  try {
    for (const file of files) {
      stamps.files[file] = stampOf(await Deno.stat(join(indexDir, file)));
    }
  } catch {
    return; // Collected already by a newer run: nothing to vouch for.
  }
  await writeStamps(indexDir, stamps);
}

/**
 * Checks `generation`'s data files against its manifest: the sizes it
 * implies, and its `checksums`, hashing only files whose stat moved since
 * they were last known intact.
 *
 * @returns Why the generation is damaged (`vectors.f32 fails its checksum`),
 *   or null when it is intact or no longer live (collected by a newer run).
 */
export async function verifyGeneration(
  indexDir: string,
  generation: string,
  manifest: Pick<
    IndexManifest,
    "checksums" | "chunkCount" | "dimensions" | "quantization" | "segments"
  >,
): Promise<string | null> {
  const recorded = await readStamps(indexDir);
  const known = recorded?.generation === generation ? recorded.files : {};
  const sizes: Record<string, number> = {};
  let rows = 0;
  for (const segment of manifest.segments ?? []) {
    const fixed = fixedSizes(segment.rows, manifest.dimensions, manifest.quantization);
    for (const [file, size] of Object.entries(fixed)) sizes[`${segment.name}/${file}`] = size;
    rows += segment.rows;
    for (const [start, end] of segment.deleted ?? []) rows -= end - start;
    if (!(`${segment.name}/${FILES.vectors}` in manifest.checksums)) {
      return `${segment.name}/${FILES.vectors} has no checksum`;
    }
  }
  if (rows !== manifest.chunkCount) {
    return `its segments hold ${rows} live chunks, expected ${manifest.chunkCount}`;
  }
  const stamps: Stamps = { generation, files: {} };
  let hashed = false;
  for (const [file, checksum] of Object.entries(manifest.checksums)) {
    const path = join(indexDir, file);
    try {
      const info = await Deno.stat(path);
      const stamp = stampOf(info);
      if (sizes[file] !== undefined && info.size !== sizes[file]) {
        return `${file} holds ${info.size} bytes, expected ${sizes[file]}`;
      }
      if (known[file] !== stamp) {
        if ((await _xxh64File(path)).hash !== checksum) return `${file} fails its checksum`;
        hashed = true;
      }
      stamps.files[file] = stamp;
    } catch (error) {
      const live = await Deno.readTextFile(join(indexDir, "current")).catch(() => "");
      if (live.trim() !== generation) return null;
      return `${file} is unreadable (${(error as Error).message})`;
    }
  }
  if (hashed) await writeStamps(indexDir, stamps);
  return null;
}
