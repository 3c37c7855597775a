/**
 * Reader leases and reclamation. Every open of an index writes a lease,
 * `readers/<pid>-<random>.json` naming the generation it reads, and removes
 * it on close; after each publish the writer removes every generation and
 * segment that neither `current` nor a live lease references. A lease whose
 * process died (SIGKILL, a crash, a reused pid) pins nothing and is removed.
 * Like SQLite's WAL read marks: the writer never waits for readers, and
 * readers never copy what they read.
 */
import { randomBytes } from "node:crypto";
import { freshName, GENERATION_NAME, READERS_DIR, SEGMENT_NAME } from "./store_names.ts";
import { join } from "node:path";
import process from "node:process";
import { _PRIVATE_DIR, _PRIVATE_FILE } from "./_durable.ts";
import { processAlive } from "./index_lock.ts";
import type { IndexManifest } from "./manifest.ts";
import { RUN_FILES } from "./run_state.ts";
import { CACHE_FILE } from "./vector_cache.ts";
import { STAMPS_FILE } from "./verify_generation.ts";

export { freshName, GENERATION_NAME, READERS_DIR, SEGMENT_NAME };

interface LeaseRecord {
  pid: number;
  since: string;
  generation: string;
}

/** A held lease; `release` is idempotent. */
export interface Lease {
  readonly generation: string;
  release(): Promise<void>;
  /** The same, for an `unload` or exit handler. */
  releaseSync(): void;
}

/** Leases this process holds, released on exit (a process that is killed leaves them to the writer). */
const held = new Set<Lease>();
let exitHook = false;

function releaseAtExit(lease: Lease): void {
  held.add(lease);
  if (exitHook) return;
  exitHook = true;
  globalThis.addEventListener("unload", () => {
    for (const lease of held) lease.releaseSync();
  });
}

/**
 * Leases `generation` for this process. Best effort: a folder this process
 * cannot write gets no lease (a read-only index has no writer to fear).
 */
export async function takeLease(indexDir: string, generation: string): Promise<Lease> {
  const dir = join(indexDir, READERS_DIR);
  const path = join(dir, `${process.pid}-${randomBytes(6).toString("hex")}.json`);
  const record: LeaseRecord = { pid: process.pid, since: new Date().toISOString(), generation };
  let mine = false;
  try {
    await Deno.mkdir(dir, { recursive: true, mode: _PRIVATE_DIR });
    await Deno.writeTextFile(path, JSON.stringify(record) + "\n", {
      createNew: true,
      mode: _PRIVATE_FILE,
    });
    mine = true;
  } catch {
    // Read-only, or vanished: read without a lease.
  }
  const lease: Lease = {
    generation,
    async release() {
      held.delete(lease);
      if (!mine) return;
      mine = false;
      await Deno.remove(path).catch(() => {});
    },
    releaseSync() {
      held.delete(lease);
      if (!mine) return;
      mine = false;
      try {
        Deno.removeSync(path);
      } catch {
        // Gone already.
      }
    },
  };
  if (mine) releaseAtExit(lease);
  return lease;
}

/** Generations named by live leases; leases of dead processes are removed on the way. */
export async function leasedGenerations(indexDir: string): Promise<Set<string>> {
  const dir = join(indexDir, READERS_DIR);
  const leased = new Set<string>();
  try {
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      let record: LeaseRecord | null = null;
      try {
        record = JSON.parse(await Deno.readTextFile(path)) as LeaseRecord;
      } catch {
        // Torn (its writer died mid-write) or just removed.
      }
      if (
        record && typeof record.generation === "string" && processAlive(record.pid, record.since)
      ) {
        leased.add(record.generation);
      } else if (record || !entry.name.endsWith(".json") || await abandoned(path, entry.name)) {
        await Deno.remove(path).catch(() => {});
      }
    }
  } catch {
    // No leases.
  }
  return leased;
}

/**
 * Whether a lease with no readable record is abandoned rather than being
 * written: its writer (the pid its name starts with) is gone, or it has been
 * torn for a minute. A writer killed between creating and filling it leaves
 * one; this process's own may be mid-write.
 */
async function abandoned(path: string, name: string): Promise<boolean> {
  const info = await Deno.stat(path).catch(() => null);
  if (info === null) return false;
  const written = info.mtime?.getTime() ?? 0;
  const pid = Number(/^(\d+)-/.exec(name)?.[1]);
  if (pid !== process.pid && !processAlive(pid, new Date(written).toISOString())) return true;
  return Date.now() - written > 60_000;
}

/** Leftovers of writes through a rename that a crash interrupted. */
const TEMPORARY = [
  "current.tmp-",
  `${STAMPS_FILE}.tmp-`,
  `${CACHE_FILE}.tmp-`,
  `${RUN_FILES.progress}.tmp-`,
  `${RUN_FILES.failure}.tmp-`,
];

async function readCurrentName(indexDir: string): Promise<string | null> {
  try {
    return (await Deno.readTextFile(join(indexDir, "current"))).trim();
  } catch {
    return null;
  }
}

/** Segments of generations this process read, by folder: a generation never changes. */
const known = new Map<string, string[]>();

/** Notes the segments of a generation this process just published, sparing a read of its manifest. */
export function noteSegments(indexDir: string, generation: string, segments: string[]): void {
  if (known.size > 64) known.clear();
  known.set(join(indexDir, generation), segments);
}

/** Segments a generation's manifest lists, or null when it cannot be read. */
async function segmentsOf(indexDir: string, generation: string): Promise<string[] | null> {
  const path = join(indexDir, generation);
  const cached = known.get(path);
  if (cached) return cached;
  try {
    const text = await Deno.readTextFile(join(path, "manifest.json"));
    const manifest = JSON.parse(text) as Partial<IndexManifest>;
    const segments = (manifest.segments ?? []).map((segment) => segment.name);
    if (known.size > 64) known.clear();
    known.set(path, segments);
    return segments;
  } catch {
    return null;
  }
}

/** Options of `reclaim`. */
export interface ReclaimOptions {
  /** Generations kept besides the live and leased ones (the writer's own, say). */
  keep?: Iterable<string>;
  /** Segments kept besides those of kept generations: one being written by this process. */
  keepSegments?: Iterable<string>;
}

/**
 * Removes generations and segments that neither `current`, a live lease nor
 * `options` reference, and leftovers of interrupted writes. Run by the
 * writer, under the index lock, after a publish. A segment is kept when a
 * kept generation's manifest cannot be read (it may still be needed).
 * Failures are ignored: garbage is retried on the next publish.
 * @returns The names removed.
 */
export async function reclaim(indexDir: string, options: ReclaimOptions = {}): Promise<string[]> {
  const live = await readCurrentName(indexDir);
  const keep = new Set([...options.keep ?? [], ...await leasedGenerations(indexDir)]);
  if (live) keep.add(live);
  const keepSegments = new Set(options.keepSegments ?? []);
  for (const generation of keep) {
    const segments = await segmentsOf(indexDir, generation);
    if (segments === null && generation === live) return []; // cannot tell what is live
    for (const segment of segments ?? []) keepSegments.add(segment);
  }
  const removed: string[] = [];
  let entries: Deno.DirEntry[] = [];
  try {
    entries = await Array.fromAsync(Deno.readDir(indexDir));
  } catch {
    return removed;
  }
  // Generations first: a crash between the two leaves segments no generation lists, collected next time.
  const order = (name: string) => name.startsWith("gen-") ? 0 : 1;
  entries.sort((a, b) => order(a.name) - order(b.name));
  for (const entry of entries) {
    const { name } = entry;
    const stale = (GENERATION_NAME.test(name) && !keep.has(name)) ||
      (SEGMENT_NAME.test(name) && !keepSegments.has(name)) ||
      (TEMPORARY.some((prefix) => name.startsWith(prefix)) &&
        !name.endsWith(`.tmp-${process.pid}`));
    if (!stale) continue;
    await Deno.remove(join(indexDir, name), { recursive: true }).then(
      () => removed.push(name),
      () => {},
    );
  }
  return removed;
}
