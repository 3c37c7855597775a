/** Synthetic generations for store tests, the kill test's child and the size benchmark. */
import type { ModelIdentity } from "../../embed/embedder.ts";
import type { Chunk } from "../../types.ts";
import type { GenerationData } from "../write_generation.ts";

export function testIdentity(dimensions: number): ModelIdentity {
  return {
    name: "synthetic",
    provider: "fake",
    sha256: "0".repeat(64),
    dimensions,
    queryPrefix: "",
    pooling: "none",
    normalize: true,
    maxTokens: 512,
    longInput: "reject",
    inputFormat: 1,
  };
}

const WORDS = (
  "user session cache fetch parse render server client request response error handler config " +
  "load save index search vector chunk model embed query result file path stream buffer queue " +
  "retry timeout socket header cookie token schema table column migrate"
).split(" ");

/** A deterministic generation of `count` chunks; `seed` changes content and vectors. */
export function syntheticGeneration(
  count: number,
  dimensions: number,
  seed = 1,
): GenerationData & { vectors: Float32Array[] } {
  let state = seed >>> 0 || 1;
  const random = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const word = () => WORDS[Math.floor(random() * WORDS.length)]!;
  const chunks: Chunk[] = [];
  const vectors: Float32Array[] = [];
  const files: GenerationData["manifest"]["files"] = {};
  for (let i = 0; i < count; i++) {
    const sourcePath = `src/module_${i % 40}/file_${i % 400}.ts`;
    const name = `${word()}${word()[0]!.toUpperCase()}${word().slice(1)}${i}`;
    const body = Array.from({ length: 120 }, word).join(" ");
    const content = `export function ${name}(input: string) {\n  // ${body}\n  return input;\n}\n`;
    const chunk: Chunk = {
      id: `${seed}-${i}`,
      sourcePath,
      lineStart: i + 1,
      lineEnd: i + 4,
      startOffset: i * 100,
      endOffset: i * 100 + content.length,
      type: "function",
      language: "typescript",
      symbol: name,
      content,
      metadata: { seed, i, note: "ünïcode ✓" },
    };
    chunks.push(chunk);
    const vector = new Float32Array(dimensions);
    for (let d = 0; d < dimensions; d++) vector[d] = random() * 2 - 1;
    vectors.push(vector);
    const file = (files[sourcePath] ??= { hash: `h${seed}-${i % 400}`, bytes: 0, chunkIds: [] });
    file.bytes += content.length;
    file.chunkIds.push(chunk.id);
  }
  return {
    manifest: {
      root: "/corpus",
      identity: testIdentity(dimensions),
      fingerprint: `fp-${dimensions}`,
      files,
    },
    chunks,
    vectors,
  };
}

/** A seeded uniform random source in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** A random unit vector: normally distributed components (Box–Muller), normalised. */
export function unitVector(dimensions: number, random: () => number): Float32Array {
  const vector = new Float32Array(dimensions);
  let norm = 0;
  for (let d = 0; d < dimensions; d++) {
    const x = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    vector[d] = x;
    norm += x * x;
  }
  norm = Math.sqrt(norm);
  for (let d = 0; d < dimensions; d++) vector[d]! /= norm;
  return vector;
}

/**
 * Chunk `i` of a synthetic code base with passages of realistic size: 2–19
 * comment lines of ten words (about 200–1,400 bytes, 800 on average), 25
 * chunks per file, 40 files per folder.
 */
export function realisticChunk(i: number, random: () => number): Chunk {
  const word = () => WORDS[Math.floor(random() * WORDS.length)]!;
  const file = Math.floor(i / 25);
  const sourcePath = `src/module_${Math.floor(file / 40)}/file_${file}.ts`;
  const name = `${word()}${word()[0]!.toUpperCase()}${word().slice(1)}${i}`;
  const lines = Array.from(
    { length: 2 + Math.floor(random() * 18) },
    () => `  // ${Array.from({ length: 10 }, word).join(" ")}`,
  );
  // Joined, not concatenated: V8 keeps a concatenation as a rope, which the writer's first read
  // flattens into a second copy; real passages, slices of a file's text, are flat already.
  const content = [`export function ${name}(input: string) {`, ...lines, "  return input;", "}", ""]
    .join("\n");
  const line = (i % 25) * 24 + 1;
  return {
    id: `${i.toString(16).padStart(8, "0")}${"0".repeat(32)}`,
    sourcePath,
    lineStart: line,
    lineEnd: line + lines.length + 2,
    startOffset: (i % 25) * 1500,
    endOffset: (i % 25) * 1500 + content.length,
    type: "function",
    language: "typescript",
    symbol: name,
    content,
    metadata: {},
  };
}

/**
 * Version `version` of the first file of a synthetic generation: its
 * passages with the same ids, other text and constant vectors.
 */
export function editedFile(
  data: GenerationData & { vectors: Float32Array[] },
  version: number,
): { path: string; chunks: Chunk[]; vectors: Float32Array[] } {
  const path = data.chunks[0]!.sourcePath;
  const chunks = data.chunks.filter((chunk) => chunk.sourcePath === path).map((chunk) => ({
    ...chunk,
    content: `${chunk.content}// version ${version}\n`,
  }));
  const dimensions = data.manifest.identity.dimensions;
  return {
    path,
    chunks,
    vectors: chunks.map(() => new Float32Array(dimensions).fill(version + 1)),
  };
}
