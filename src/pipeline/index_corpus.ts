import xxhash from "xxhash-wasm";
import type { Chunk, Quantization, SourceFile } from "../types.ts";
import { detectLanguage, type WalkResult, walkTree } from "../walk/mod.ts";
import { chunkFile, type CodeChunker, splitToFit } from "../chunk/mod.ts";
import { assertFits, fitInputs } from "../fit/mod.ts";
import { type Embedder, identityFingerprint } from "../embed/mod.ts";
import {
  acquireIndexLock,
  assertSameModel,
  openIndex,
  type RecordedSettings,
  type StoredIndex,
  writeGeneration,
} from "../store/mod.ts";
import { chunkConcept, isReservedFile } from "../okf/mod.ts";
import { embeddingInput, INPUT_FORMAT, KNOWLEDGE_INPUT_FORMAT } from "./embedding_input.ts";

/** Bumped when chunking changes, so unchanged files are re-chunked (their vectors still reused by id). */
export const CHUNKER_VERSION = 1;

export interface IndexOptions {
  root: string;
  indexDir: string;
  embedder: Embedder;
  chunker: CodeChunker;
  include?: string[];
  exclude?: string[];
  maxFileBytes?: number;
  /** Chunk budget in non-whitespace characters. */
  maxChunkChars?: number;
  longInput: "reject" | "truncate";
  /** Ignore the previous index (e.g. after a model change). */
  rebuild?: boolean;
  onProgress?: (progress: IndexProgress) => void;
  /** Written into the manifest, for `search` and later runs to read back. */
  settings?: RecordedSettings;
  /** An OKF bundle: concepts become passages with their metadata; reserved files are skipped. */
  knowledge?: boolean;
  /** Vector codes to keep for a fast first pass of dense search. @default "none" */
  quantization?: Quantization;
}

export interface IndexProgress {
  phase: "walk" | "chunk" | "embed" | "write";
  filesDone: number;
  filesTotal: number;
  chunksDone: number;
  chunksTotal: number;
}

/** The summary `index --output json` prints. */
export interface IndexSummary {
  root: string;
  index: string;
  files: { seen: number; changed: number; deleted: number; skipped: number };
  skipped: WalkResult["skipped"];
  embeddedChunks: number;
  reusedChunks: number;
  removedChunks: number;
  truncatedChunks: number;
  elapsedMs: number;
  /** True when the index was already up to date and nothing was written. */
  current: boolean;
  generation: string | null;
}

interface FileRecord {
  hash: string;
  bytes: number;
  chunkIds: string[];
}

/**
 * Brings the index of `root` up to date: walks, hashes each file, re-chunks
 * only changed files, embeds only chunks whose ids are new, and publishes a
 * new generation atomically. Holds the corpus lock throughout.
 */
export async function indexCorpus(options: IndexOptions): Promise<IndexSummary> {
  const started = performance.now();
  const lock = await acquireIndexLock(options.indexDir);
  try {
    return await update(options, started);
  } finally {
    await lock.release();
  }
}

/** What the walk found and what of the previous generation carries over. */
interface Plan {
  walked: WalkResult;
  files: Record<string, FileRecord>;
  chunks: Chunk[];
  /** Row i's vector, or null when chunk i still needs embedding. */
  vectors: (Float32Array | null)[];
  /** Rows to embed. */
  toEmbed: number[];
  changed: number;
  reused: number;
  deleted: number;
  removed: number;
}

async function update(options: IndexOptions, started: number): Promise<IndexSummary> {
  const { embedder, root } = options;
  const fingerprint = identityFingerprint(embedder.identity);
  let previous: StoredIndex | null = options.rebuild ? null : await openIndex(options.indexDir);
  if (previous) assertSameModel(previous.manifest, embedder.identity, fingerprint, root);
  if (previous && previous.manifest.chunkerVersion !== CHUNKER_VERSION) {
    previous = forgetFileRecords(previous);
  }
  const plan = await planUpdate(options, previous);
  const summary = (embedded: number, truncated: number, generation: string | null) =>
    summarise(options, plan, { embedded, truncated, generation, started });
  const { changed, deleted, toEmbed, removed } = plan;
  const quantization = options.quantization ?? "none";
  const sameCodes = (previous?.manifest.quantization ?? "none") === quantization;
  if (
    previous && sameCodes && changed === 0 && deleted === 0 && toEmbed.length === 0 &&
    removed === 0
  ) {
    return summary(0, 0, null);
  }
  const { embedded, truncated } = await embedMissing(options, plan);
  const total = plan.walked.files.length;
  options.onProgress?.({
    phase: "write",
    filesDone: total,
    filesTotal: total,
    chunksDone: toEmbed.length,
    chunksTotal: toEmbed.length,
  });
  const generation = await writeGeneration(options.indexDir, {
    manifest: {
      root,
      identity: embedder.identity,
      fingerprint,
      chunkerVersion: CHUNKER_VERSION,
      inputFormat: options.knowledge ? KNOWLEDGE_INPUT_FORMAT : INPUT_FORMAT,
      settings: options.settings,
      files: plan.files,
      quantization,
    },
    chunks: plan.chunks,
    vectors: plan.vectors as Float32Array[],
  });
  return summary(embedded, truncated, generation);
}

/**
 * Walks the tree and hashes each file: an unchanged file keeps its chunks,
 * a changed one is chunked again; a chunk whose id the previous generation
 * holds keeps its vector.
 */
async function planUpdate(options: IndexOptions, previous: StoredIndex | null): Promise<Plan> {
  const report = (progress: IndexProgress) => options.onProgress?.(progress);
  report({ phase: "walk", filesDone: 0, filesTotal: 0, chunksDone: 0, chunksTotal: 0 });
  const walked = await walkTree(options.root, {
    include: options.include,
    exclude: options.exclude,
    maxFileBytes: options.maxFileBytes,
  });
  const { h64ToString } = await xxhash();
  const previousFiles: Record<string, FileRecord> = previous?.manifest.files ?? {};
  const previousChunks = new Map<string, number>();
  previous?.chunks.forEach((chunk, i) => previousChunks.set(chunk.id, i));

  const plan: Plan = {
    walked,
    files: {},
    chunks: [],
    vectors: [],
    toEmbed: [],
    changed: 0,
    reused: 0,
    deleted: 0,
    removed: 0,
  };
  const total = walked.files.length;
  for (const [n, file] of walked.files.entries()) {
    const hash = h64ToString(file.content);
    const before = previousFiles[file.path];
    let fileChunks: Chunk[];
    if (before && before.hash === hash && previous) {
      fileChunks = before.chunkIds.map((id) => previous.chunks[previousChunks.get(id)!]!);
    } else {
      plan.changed++;
      fileChunks = await chunkOne(file, options);
    }
    plan.files[file.path] = { hash, bytes: file.bytes, chunkIds: fileChunks.map((c) => c.id) };
    for (const chunk of fileChunks) {
      const at = previousChunks.get(chunk.id);
      plan.chunks.push(chunk);
      if (at !== undefined && previous) {
        const d = previous.dimensions;
        plan.vectors.push(previous.vectors.subarray(at * d, (at + 1) * d));
        plan.reused++;
      } else {
        plan.vectors.push(null);
        plan.toEmbed.push(plan.chunks.length - 1);
      }
    }
    report({ phase: "chunk", filesDone: n + 1, filesTotal: total, chunksDone: 0, chunksTotal: 0 });
  }
  if (previous && plan.toEmbed.length > 0) reuseByInput(plan, previous, h64ToString);
  plan.deleted = Object.keys(previousFiles).filter((path) => !(path in plan.files)).length;
  const keptIds = new Set(plan.chunks.map((c) => c.id));
  plan.removed = previous ? previous.chunks.filter((c) => !keptIds.has(c.id)).length : 0;
  return plan;
}

/**
 * Gives a chunk without a vector the previous generation's vector for the
 * same embedding input: a line shift or a metadata-only edit changes a
 * chunk's id but not what the model would read.
 */
function reuseByInput(plan: Plan, previous: StoredIndex, hash: (text: string) => string): void {
  const rows = new Map<string, number>();
  previous.chunks.forEach((chunk, row) => rows.set(hash(embeddingInput(chunk)), row));
  const d = previous.dimensions;
  plan.toEmbed = plan.toEmbed.filter((i) => {
    const row = rows.get(hash(embeddingInput(plan.chunks[i]!)));
    if (row === undefined) return true;
    plan.vectors[i] = previous.vectors.subarray(row * d, (row + 1) * d);
    plan.reused++;
    return false;
  });
}

/** Fits and embeds the chunks the plan lacks vectors for; says how many inputs were embedded and truncated. */
async function embedMissing(
  options: IndexOptions,
  plan: Plan,
): Promise<{ embedded: number; truncated: number }> {
  const { embedder } = options;
  const { chunks, vectors } = plan;
  // Identical inputs (a vendored copy, a repeated block) are embedded once.
  const byInput = new Map<string, number[]>();
  for (const i of plan.toEmbed) {
    const input = embeddingInput(chunks[i]!);
    byInput.set(input, [...(byInput.get(input) ?? []), i]);
  }
  const toEmbed = [...byInput.values()].map((rows) => rows[0]!);
  const inputs = [...byInput.keys()];
  plan.reused += plan.toEmbed.length - toEmbed.length;
  const fit = await fitInputs(
    toEmbed.map((i) => chunks[i]!),
    (text) => embedder.countTokens(text, "document"),
    { maxTokens: embedder.identity.maxTokens, policy: options.longInput, textOf: embeddingInput },
  );
  if (options.longInput === "reject") assertFits(fit);
  const total = plan.walked.files.length;
  const batch = 128; // progress granularity; the embedder batches internally
  for (let start = 0; start < toEmbed.length; start += batch) {
    const slice = toEmbed.slice(start, start + batch);
    const embedded = await embedder.embedDocuments(slice.map((_, n) => inputs[start + n]!));
    slice.forEach((_, n) => {
      for (const row of byInput.get(inputs[start + n]!)!) vectors[row] = embedded[n]!;
    });
    options.onProgress?.({
      phase: "embed",
      filesDone: total,
      filesTotal: total,
      chunksDone: Math.min(start + batch, toEmbed.length),
      chunksTotal: toEmbed.length,
    });
  }
  return { embedded: toEmbed.length, truncated: fit.overLimit };
}

function summarise(
  options: IndexOptions,
  plan: Plan,
  outcome: { embedded: number; truncated: number; generation: string | null; started: number },
): IndexSummary {
  return {
    root: options.root,
    index: options.indexDir,
    files: {
      seen: plan.walked.files.length,
      changed: plan.changed,
      deleted: plan.deleted,
      skipped: plan.walked.skipped.length,
    },
    skipped: plan.walked.skipped,
    embeddedChunks: outcome.embedded,
    reusedChunks: plan.reused,
    removedChunks: plan.removed,
    truncatedChunks: outcome.truncated,
    elapsedMs: Math.round(performance.now() - outcome.started),
    current: outcome.generation === null,
    generation: outcome.generation,
  };
}

/**
 * Chunks one file, then splits any chunk whose embedding input exceeds the
 * model's token budget at line boundaries, so long declarations are embedded
 * whole in pieces rather than rejected or truncated.
 */
async function chunkOne(file: SourceFile, options: IndexOptions): Promise<Chunk[]> {
  const { embedder } = options;
  const language = detectLanguage(file.path);
  const maxChars = options.maxChunkChars;
  const concept = options.knowledge && language === "markdown";
  // In a bundle, index.md and log.md are navigation and history, not knowledge.
  if (concept && isReservedFile(file.path)) return [];
  const chunks = concept
    ? chunkConcept(file, { maxChars })
    : chunkFile(file, language, options.chunker, { maxChars });
  const fits = async (candidate: Chunk) =>
    (await embedder.countTokens(embeddingInput(candidate), "document")) <=
      embedder.identity.maxTokens;
  const fitted: Chunk[] = [];
  for (const chunk of chunks) fitted.push(...await splitToFit(chunk, fits));
  return fitted;
}

/** After a chunker change, forget per-file records so every file is re-chunked; vectors stay reusable by id. */
function forgetFileRecords(previous: StoredIndex): StoredIndex {
  return { ...previous, manifest: { ...previous.manifest, files: {} } };
}
