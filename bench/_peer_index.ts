/**
 * Builds throwaway indexes for the peer-protocol benchmark with the real
 * pipeline: either a directory through `indexCorpus` (walk → chunk → fit →
 * embed → store) or ready-made chunks written as one generation.
 */
import { dirname, join } from "node:path";
import { mkdir, writeFile } from "node:fs/promises";
import { BUILD_DEFAULTS } from "../src/build_defaults.ts";
import { createCodeChunker, makeChunk } from "../src/chunk/mod.ts";
import { type Embedder, identityFingerprint } from "../src/embed/mod.ts";
import {
  embeddingInput,
  indexCorpus,
  type IndexSummary,
  INPUT_FORMAT,
} from "../src/pipeline/mod.ts";
import { openIndex, type StoredIndex, writeGeneration } from "../src/store/mod.ts";
import { detectLanguage } from "../src/walk/mod.ts";
import type { Chunk } from "../src/types.ts";

/** Writes `{relativePath: text}` under `root`. */
export async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    const target = join(root, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, text);
  }
}

/** Indexes `root` into `indexDir` with the product defaults and opens it. */
export async function indexDirectory(
  root: string,
  indexDir: string,
  embedder: Embedder,
  exclude: string[] = [],
): Promise<{ index: StoredIndex; summary: IndexSummary; phaseMs: Record<string, number> }> {
  // Time from the start to the first report of each phase, then to the end.
  const started = performance.now();
  const firstSeen: Record<string, number> = {};
  const summary = await indexCorpus({
    onProgress: (p) => (firstSeen[p.phase] ??= performance.now() - started),
    root,
    indexDir,
    embedder,
    chunker: await createCodeChunker(),
    exclude,
    maxChunkChars: BUILD_DEFAULTS.maxChunkChars,
    longInput: "reject",
    rebuild: true,
  });
  const end = performance.now() - started;
  const at = (phase: string) => firstSeen[phase] ?? end;
  // "embed" is first reported after the first batch, so chunk+fit includes that batch.
  const phaseMs = {
    walkChunkFitAndFirstBatch: Math.round(at("embed") - at("walk")),
    restOfEmbedding: Math.round(at("write") - at("embed")),
    write: Math.round(end - at("write")),
  };
  const index = await openIndex(indexDir);
  if (!index) throw new Error(`index at ${indexDir} did not open`);
  return { index, summary, phaseMs };
}

/** A passage given by the fixture itself rather than cut by a chunker. */
export interface GivenChunk {
  id: string;
  sourcePath: string;
  content: string;
  type: string;
  metadata?: Record<string, unknown>;
}

/**
 * Stores given passages as-is (one file each), embedding them exactly as the
 * pipeline would (`embeddingInput`), and opens the result. The fixture's id
 * is kept in `metadata.caseId` for judging.
 */
export async function indexGivenChunks(
  given: GivenChunk[],
  indexDir: string,
  embedder: Embedder,
): Promise<StoredIndex> {
  const chunks: Chunk[] = given.map((g) => {
    const file = {
      path: g.sourcePath,
      absolutePath: `/${g.sourcePath}`,
      content: g.content,
      bytes: new TextEncoder().encode(g.content).length,
    };
    return makeChunk(file, {
      start: 0,
      end: g.content.length,
      type: g.type,
      language: detectLanguage(g.sourcePath),
      metadata: { ...g.metadata, caseId: g.id },
    });
  });
  const vectors = await embedder.embedDocuments(chunks.map(embeddingInput));
  const files: Record<string, { hash: string; bytes: number; chunkIds: string[] }> = {};
  for (const c of chunks) {
    files[c.sourcePath] = { hash: c.id, bytes: c.content.length, chunkIds: [c.id] };
  }
  await writeGeneration(indexDir, {
    manifest: {
      root: "/given",
      identity: embedder.identity,
      fingerprint: identityFingerprint(embedder.identity),
      inputFormat: INPUT_FORMAT,
      files,
    },
    chunks,
    vectors,
  });
  const index = await openIndex(indexDir);
  if (!index) throw new Error(`index at ${indexDir} did not open`);
  return index;
}

/**
 * A copy of `index` without its front-matter chunks, whose other chunks are
 * embedded with their file's front-matter title on the first line (through
 * `metadata.embeddingText`, which `embeddingInput` prefers over the content).
 * Only the dense side changes: BM25 still indexes content, symbol and path.
 */
export async function indexWithTitles(
  index: StoredIndex,
  titles: Record<string, string>,
  indexDir: string,
  embedder: Embedder,
): Promise<StoredIndex> {
  const chunks = index.chunks.filter((c) => c.type !== "front_matter").map((c) => {
    const title = titles[c.sourcePath];
    if (!title) return c;
    const body = typeof c.metadata.embeddingText === "string"
      ? c.metadata.embeddingText
      : c.content;
    return { ...c, metadata: { ...c.metadata, embeddingText: `${title}\n${body}` } };
  });
  const vectors = await embedder.embedDocuments(chunks.map(embeddingInput));
  await writeGeneration(indexDir, {
    manifest: {
      root: index.manifest.root,
      identity: embedder.identity,
      fingerprint: identityFingerprint(embedder.identity),
      inputFormat: INPUT_FORMAT,
      files: {},
    },
    chunks,
    vectors,
  });
  const opened = await openIndex(indexDir);
  if (!opened) throw new Error(`index at ${indexDir} did not open`);
  return opened;
}
