/**
 * The state of a corpus's index, read from disk without loading a model or
 * embedding anything: ready, indexing (with the writer's progress once it
 * reports one), stale (and why), failed (with the error) or absent.
 */
import { join } from "node:path";
import { WayfinderError } from "../error.ts";
import { type Hints, hintsFor, type RebuildFix, worded } from "../hints.ts";
import { rowsIn } from "../row_ranges.ts";
import { type TreeChanges, treeChanges } from "../pipeline/mod.ts";
import {
  currentGeneration,
  identityChanges,
  type IndexManifest,
  processAlive,
  readIndexLock,
  readManifest,
  readRunFailure,
  readRunProgress,
  type RecordedSettings,
  type RunFailure,
  type RunProgress,
  verifyGeneration,
} from "../store/mod.ts";
import {
  buildDrift,
  declaresBundle,
  effectiveSettings,
  type IndexSettings,
  walkOptionsOf,
} from "./corpus_settings.ts";
import type { ModelIdentity } from "../embed/mod.ts";
import { type ModelDifference, modelDifference } from "./model_difference.ts";
import { FolderRecorder, writeFolderRecord } from "./folder_stamps.ts";
import type { EmbedderSettings, Locations } from "./open_models.ts";

/**
 * What `corpus.status()` and `wayfinder status` report.
 *
 * @example No index yet, then one
 * ```ts
 * import assert from "node:assert/strict";
 * import { FakeEmbedder, openCorpus } from "../mod.ts";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/auth.ts`, "export function refreshToken() {\n  return fetchToken();\n}\n");
 * await Deno.writeTextFile(`${root}/README.md`, "# Auth\n\nRefresh the token before it expires.\n");
 * const dataDir = await Deno.makeTempDir();
 * const corpus = await openCorpus(root, { dataDir, embedder: new FakeEmbedder() });
 * assert.equal((await corpus.status()).state, "absent");
 * await corpus.index();
 * const status = await corpus.status();
 * assert.equal(status.files, 2);
 * assert.ok(status.generation);
 * await corpus.close();
 * await Deno.remove(root, { recursive: true });
 * await Deno.remove(dataDir, { recursive: true });
 * ```
 */
export interface CorpusStatus {
  /**
   * The index's state, as the `status` command reports it: ready to search,
   * being indexed, stale (the tree or the settings moved on), failed (the
   * last run failed) or absent (never indexed).
   */
  state: "ready" | "indexing" | "stale" | "failed" | "absent";
  /** The tree's absolute path. */
  root: string;
  /** The index folder. */
  indexDir: string;
  /** The live generation, when there is one. */
  generation: string | null;
  /** When the live generation was written (ISO). */
  updatedAt: string | null;
  /** Files the live generation holds. */
  files: number;
  /** Passages the live generation holds. */
  chunks: number;
  /** The model that embedded the live generation, or null when there is none. */
  model: { name: string; provider: string; sha256: string; dimensions: number } | null;
  /** Bytes the index folder holds on disk (live and previous generation included). */
  diskBytes: number;
  /**
   * With a PostgreSQL or Orama store: where it is, its live generation, and
   * whether it holds what the local working copy holds (`inStep`).
   */
  store?: {
    location: string;
    generation: string | null;
    chunks: number;
    /** Rows published without their vector yet. */
    pending: number;
    inStep: boolean;
  };
  /**
   * Present when the live generation was published while its run was still
   * embedding: lexical search covers every chunk, dense search `covered`.
   */
  dense?: { covered: number; total: number };
  /**
   * Present when the tree or the settings moved on since the live
   * generation: files changed, added and deleted (root-relative, sorted),
   * and the differences other than files (model, chunking, format).
   */
  stale?: { changed: string[]; added: string[]; deleted: string[]; reasons: string[] };
  /**
   * Indexed files that are there but cannot be read now (a permission taken
   * away): not deleted, their chunks stay in the index until they can be read.
   */
  unreadable?: string[];
  /** The process holding the index lock (an index run or a watcher). */
  lock?: { pid: number; since: string };
  /**
   * What to do next, worded for the caller, when a plain index run is not
   * it or there is no index: build one, or rebuild one built with another
   * model or model setup.
   */
  hint?: string;
}

/** `CorpusStatus` with the index run's details, as the `status` command and the MCP server report them. */
export interface StatusReport extends CorpusStatus {
  /** The running writer's last report, while one runs. */
  progress?: RunProgress;
  /** The last failed run, until a later run succeeds. */
  failure?: RunFailure;
}

/** The index's state. */
export type CorpusState = CorpusStatus["state"];

/** Why an index no longer matches its tree or its settings. */
export type Staleness = NonNullable<CorpusStatus["stale"]>;

/** What the status is computed from: the corpus and the caller's explicit settings. */
export interface StatusInput {
  root: string;
  indexDir: string;
  excludeDirs: string[];
  chosen: { embedder: EmbedderSettings; index: IndexSettings };
  /** The identity of an embedder the caller passed in, compared as it is instead of by settings. */
  givenModel?: ModelIdentity;
  locations?: Locations;
  /** How a reason words its fix. @default the CLI's wording */
  hints?: Hints;
  /** The rebuild the hint names, from the index's recorded settings. @default the plain `index --rebuild` */
  rebuildFix?: (recorded: RecordedSettings | undefined) => Promise<RebuildFix>;
}

/** Computes the state of a corpus's index. @throws {WayfinderError} `io` when it cannot be read. */
export async function corpusStatus(input: StatusInput): Promise<StatusReport> {
  return (await inspectCorpus(input)).status;
}

/**
 * The status, and the walk behind it: what a run would find, for an `index`
 * that has nothing to do (null when there was no readable index to compare).
 */
export async function inspectCorpus(
  input: StatusInput,
): Promise<{ status: StatusReport; walked: TreeChanges | null }> {
  const { root, indexDir, hints = hintsFor("cli") } = input;
  const [progress, failure] = await Promise.all([
    readRunProgress(indexDir),
    readRunFailure(indexDir),
  ]);
  const holder = readIndexLock(indexDir);
  let manifest: IndexManifest | null = null;
  let formatProblem: string | undefined;
  const before = await currentGeneration(indexDir).catch(() => null);
  try {
    manifest = await readManifest(indexDir, root);
  } catch (error) {
    if (!(error instanceof WayfinderError && error.code === "stale_index")) throw error;
    formatProblem = worded(error, hints).message;
  }
  const generation = await currentGeneration(indexDir).catch(() => null);
  // Only when no run published in between is the manifest read that generation's.
  const damage = manifest && generation && generation === before
    ? await verifyGeneration(indexDir, generation, manifest)
    : null;
  const status: StatusReport = {
    state: "ready",
    ...describe(root, indexDir, manifest, generation),
    diskBytes: await diskBytes(indexDir),
  };
  if (holder?.alive) status.lock = { pid: holder.pid, since: holder.since };
  if (progress && processAlive(progress.pid, progress.startedAt)) status.progress = progress;
  if (failure) status.failure = failure;
  let walked: TreeChanges | null = null;
  let rebuild = false;
  const folders = new FolderRecorder();
  if (formatProblem) {
    status.stale = { changed: [], added: [], deleted: [], reasons: [formatProblem] };
  } else if (manifest) {
    ({ stale: status.stale, walked, rebuild } = await staleness(input, manifest, folders));
    // The tree matches exactly: its folders, as this walk listed them, vouch for it until they move.
    if (!status.stale && generation && generation === before && !folders.empty) {
      await writeFolderRecord(indexDir, { generation, folders: folders.folders });
    }
  }
  if (walked?.unreadable.length) status.unreadable = walked.unreadable;
  if (damage) {
    status.stale ??= { changed: [], added: [], deleted: [], reasons: [] };
    status.stale.reasons.unshift(
      `the index is damaged (${damage}); ${hints.index(root)} to rebuild it`,
    );
  }
  const waiting = rowsIn(manifest?.pending);
  if (manifest && waiting > 0) {
    status.dense = { covered: manifest.chunkCount - waiting, total: manifest.chunkCount };
    const reason = `${waiting} of ${manifest.chunkCount} chunks are not embedded yet`;
    status.stale ??= { changed: [], added: [], deleted: [], reasons: [] };
    status.stale.reasons.push(reason);
  }
  status.state = stateOf(status, manifest !== null || formatProblem !== undefined);
  if (status.state === "absent") status.hint = hints.index(root);
  // While a run goes, it may be the rebuild: the hint waits for it to end.
  else if (rebuild && manifest && status.state !== "indexing") {
    status.hint = hints.rebuild(root, await input.rebuildFix?.(manifest.settings));
  }
  return { status, walked };
}

function stateOf(status: StatusReport, exists: boolean): CorpusState {
  if (status.progress) return "indexing";
  // A first run holds the lock a while (a tree's walk, the model's load) before it reports
  // progress. Over a live index the holder may be a watcher waiting for changes: not there.
  if (status.lock && !exists) return "indexing";
  if (status.failure) return "failed";
  if (!exists) return "absent";
  return status.stale ? "stale" : "ready";
}

function describe(
  root: string,
  indexDir: string,
  manifest: IndexManifest | null,
  generation: string | null,
) {
  const identity = manifest?.identity;
  return {
    root,
    indexDir,
    generation: manifest ? generation : null,
    updatedAt: manifest?.createdAt ?? null,
    files: manifest ? Object.keys(manifest.files).length : 0,
    chunks: manifest?.chunkCount ?? 0,
    model: identity
      ? {
        name: identity.name,
        provider: identity.provider,
        sha256: identity.sha256,
        dimensions: identity.dimensions,
      }
      : null,
  };
}

/**
 * The staleness of a live index (undefined when it matches its tree and
 * settings), the walk, and whether only a rebuild mends it: a plain run
 * refuses an index built with another model.
 */
async function staleness(
  input: StatusInput,
  manifest: IndexManifest,
  folders: FolderRecorder,
): Promise<{ stale?: Staleness; walked: TreeChanges; rebuild: boolean }> {
  const settings = effectiveSettings(
    input.chosen,
    manifest.settings,
    await declaresBundle(input.root),
  );
  const reasons = buildDrift(manifest, settings.index.knowledge);
  const recordedChars = manifest.settings?.maxChunkChars;
  if (recordedChars !== undefined && recordedChars !== settings.index.maxChunkChars) {
    reasons.push(`maxChunkChars ${recordedChars} → ${settings.index.maxChunkChars}`);
  }
  const codes = manifest.quantization ?? "none";
  if (codes !== settings.index.quantization) {
    reasons.push(`quantization ${codes} → ${settings.index.quantization}`);
  }
  const model = input.givenModel
    ? givenModelDifference(manifest.identity, input.givenModel)
    : await modelDifference(manifest.identity, settings.embedder, input.locations);
  reasons.push(...model.reasons);
  const changes = await treeChanges(input.root, manifest.files, {
    ...walkOptionsOf(settings.index, input.excludeDirs),
    onFolder: folders.add,
  });
  const { changed, added, deleted } = changes;
  const moved = changed.length + added.length + deleted.length;
  const stale = moved === 0 && reasons.length === 0
    ? undefined
    : { changed, added, deleted, reasons };
  return { stale, walked: changes, rebuild: model.rebuildMends };
}

/** Total size of the files under a folder; 0 when it does not exist. */
async function diskBytes(dir: string): Promise<number> {
  let total = 0;
  try {
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) total += await diskBytes(path);
      else if (entry.isFile) total += (await Deno.stat(path).catch(() => ({ size: 0 }))).size;
    }
  } catch {
    // Gone or unreadable: counts as empty.
  }
  return total;
}

/** How an embedder passed in as an object differs from the index's: field by field of its identity. */
function givenModelDifference(built: ModelIdentity, given: ModelIdentity): ModelDifference {
  const reasons = identityChanges(built, given).map((key) =>
    `${key} ${JSON.stringify(built[key])} → ${JSON.stringify(given[key])}`
  );
  return { reasons, rebuildMends: true };
}
