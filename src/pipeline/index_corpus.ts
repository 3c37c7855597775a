import xxhash from "xxhash-wasm";
import type { Chunk, SourceFile } from "../types.ts";
import { detectLanguage, type WalkResult, walkTree } from "../walk/mod.ts";
import { chunkFile, type CodeChunker, splitToFit } from "../chunk/mod.ts";
import { assertFits, fitInputs } from "../fit/mod.ts";
import { type Embedder, identityFingerprint } from "../embed/mod.ts";
import {
  acquireIndexLock,
  assertSameModel,
  openIndex,
  type StoredIndex,
  writeGeneration,
} from "../store/mod.ts";
import { embeddingInput, INPUT_FORMAT } from "./embedding_input.ts";

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

async function update(options: IndexOptions, started: number): Promise<IndexSummary> {
  const { embedder, root } = options;
  const fingerprint = identityFingerprint(embedder.identity);
  const report = (progress: IndexProgress) => options.onProgress?.(progress);

  let previous: StoredIndex | null = options.rebuild ? null : await openIndex(options.indexDir);
  if (previous) assertSameModel(previous.manifest, embedder.identity, fingerprint, root);
  if (previous && previous.manifest.chunkerVersion !== CHUNKER_VERSION) {
    previous = forgetFileRecords(previous);
  }

  report({ phase: "walk", filesDone: 0, filesTotal: 0, chunksDone: 0, chunksTotal: 0 });
  const walked = await walkTree(root, {
    include: options.include,
    exclude: options.exclude,
    maxFileBytes: options.maxFileBytes,
  });
  const { h64ToString } = await xxhash();

  const previousFiles: Record<string, FileRecord> = previous?.manifest.files ?? {};
  const previousChunks = new Map<string, number>();
  previous?.chunks.forEach((chunk, i) => previousChunks.set(chunk.id, i));

  const files: Record<string, FileRecord> = {};
  const chunks: Chunk[] = [];
  const vectors: (Float32Array | null)[] = [];
  const toEmbed: number[] = [];
  let changed = 0;
  let reused = 0;

  const total = walked.files.length;
  for (const [n, file] of walked.files.entries()) {
    const hash = h64ToString(file.content);
    const before = previousFiles[file.path];
    let fileChunks: Chunk[];
    if (before && before.hash === hash && previous) {
      fileChunks = before.chunkIds.map((id) => previous!.chunks[previousChunks.get(id)!]!);
    } else {
      changed++;
      fileChunks = await chunkOne(file, options);
    }
    files[file.path] = { hash, bytes: file.bytes, chunkIds: fileChunks.map((c) => c.id) };
    for (const chunk of fileChunks) {
      const at = previousChunks.get(chunk.id);
      chunks.push(chunk);
      if (at !== undefined && previous) {
        vectors.push(
          previous.vectors.subarray(at * previous.dimensions, (at + 1) * previous.dimensions),
        );
        reused++;
      } else {
        vectors.push(null);
        toEmbed.push(chunks.length - 1);
      }
    }
    report({ phase: "chunk", filesDone: n + 1, filesTotal: total, chunksDone: 0, chunksTotal: 0 });
  }

  const deleted = Object.keys(previousFiles).filter((path) => !(path in files)).length;
  const keptIds = new Set(chunks.map((c) => c.id));
  const removed = previous ? previous.chunks.filter((c) => !keptIds.has(c.id)).length : 0;
  const summary = (
    embedded: number,
    truncated: number,
    generation: string | null,
  ): IndexSummary => ({
    root,
    index: options.indexDir,
    files: { seen: total, changed, deleted, skipped: walked.skipped.length },
    skipped: walked.skipped,
    embeddedChunks: embedded,
    reusedChunks: reused,
    removedChunks: removed,
    truncatedChunks: truncated,
    elapsedMs: Math.round(performance.now() - started),
    current: generation === null,
    generation,
  });

  if (previous && changed === 0 && deleted === 0 && toEmbed.length === 0 && removed === 0) {
    return summary(0, 0, null);
  }

  const inputs = toEmbed.map((i) => embeddingInput(chunks[i]!));
  const fit = await fitInputs(
    toEmbed.map((i) => chunks[i]!),
    (text) => embedder.countTokens(text, "document"),
    { maxTokens: embedder.identity.maxTokens, policy: options.longInput, textOf: embeddingInput },
  );
  if (options.longInput === "reject") assertFits(fit);

  const batch = 128; // progress granularity; the embedder batches internally
  for (let start = 0; start < toEmbed.length; start += batch) {
    const slice = toEmbed.slice(start, start + batch);
    const embedded = await embedder.embedDocuments(slice.map((_, n) => inputs[start + n]!));
    slice.forEach((chunkIndex, n) => (vectors[chunkIndex] = embedded[n]!));
    report({
      phase: "embed",
      filesDone: total,
      filesTotal: total,
      chunksDone: Math.min(start + batch, toEmbed.length),
      chunksTotal: toEmbed.length,
    });
  }

  report({
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
      inputFormat: INPUT_FORMAT,
      files,
    },
    chunks,
    vectors: vectors as Float32Array[],
  });
  return summary(toEmbed.length, fit.overLimit, generation);
}

/**
 * Chunks one file, then splits any chunk whose embedding input exceeds the
 * model's token budget at line boundaries, so long declarations are embedded
 * whole in pieces rather than rejected or truncated.
 */
async function chunkOne(file: SourceFile, options: IndexOptions): Promise<Chunk[]> {
  const { embedder } = options;
  const language = detectLanguage(file.path);
  const chunks = chunkFile(file, language, options.chunker, { maxChars: options.maxChunkChars });
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
