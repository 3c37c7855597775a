/**
 * The static model file: one vector per vocabulary token, with the
 * vocabulary itself, so a static embedder needs nothing else to run.
 *
 * Layout (little-endian): the magic `WFSTATIC`, a u32 format version, a
 * u32 byte length of the JSON header, the header, zero padding to a
 * multiple of 4 bytes, then `vocabSize × dimensions` float16 values, row by
 * row in token-id order.
 */
import { readFile } from "node:fs/promises";
import { WayfinderError } from "../error.ts";
import { manifestPathFor, type ModelManifest } from "./manifest.ts";

const MAGIC = "WFSTATIC";
/** Bumped when the layout or the meaning of a field changes. */
export const STATIC_FORMAT_VERSION = 1;

/** How text becomes token ids: llama.cpp's WordPiece, over the GGUF's vocabulary. */
export interface StaticTokenizer {
  /** "wordpiece": words start with "▁", continuations carry no marker (llama.cpp's form). */
  kind: "wordpiece";
  /** Token texts by id, as the GGUF stores them. */
  tokens: string[];
  unk: number;
  /** Wrapped around every input by the source model; the static model drops them when pooling. */
  cls: number | null;
  sep: number | null;
}

/** Where a GGUF's static model goes by default: `models/embedding.gguf` → `models/embedding.static`. */
export function staticModelPathFor(ggufPath: string): string {
  return ggufPath.replace(/\.gguf$/i, "") + ".static";
}

/** The JSON header of a static model file. */
export interface StaticModelHeader {
  name: string;
  /** The model the vectors were distilled from. */
  source: { name: string; sha256: string };
  dimensions: number;
  vocabSize: number;
  /** How the vectors were made, for the record. */
  method: {
    pooling: string;
    pcaDims: number;
    /** The strongest components left out before the kept ones (absent in older files: none). */
    droppedComponents?: number;
    /** Share of the source outputs' variance the kept components explain. */
    explainedVariance: number;
    sifCoefficient: number;
  };
  /** Prepended to queries, as the source model's manifest says. */
  queryPrefix: string;
  tokenizer: StaticTokenizer;
}

/** A static model in memory: its header and its vectors as float32, row by row. */
export interface StaticModel {
  header: StaticModelHeader;
  vectors: Float32Array;
}

/** Encodes a static model; the same model always gives the same bytes. */
export function encodeStaticModel(header: StaticModelHeader, vectors: Float32Array): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(header));
  const start = align4(16 + json.length);
  const bytes = new Uint8Array(start + vectors.length * 2);
  bytes.set(new TextEncoder().encode(MAGIC), 0);
  const view = new DataView(bytes.buffer);
  view.setUint32(8, STATIC_FORMAT_VERSION, true);
  view.setUint32(12, json.length, true);
  bytes.set(json, 16);
  bytes.set(new Uint8Array(Float16Array.from(vectors).buffer), start);
  return bytes;
}

function align4(n: number): number {
  return (n + 3) & ~3;
}

/**
 * Reads and checks a static model file against the manifest beside it.
 *
 * @throws {WayfinderError} "no_model" when the file is missing; "model" when it is not a static
 *   model, is truncated, or does not match its manifest's size or SHA-256.
 */
export async function readStaticModel(
  path: string,
): Promise<{ model: StaticModel; sha256: string; manifest: ModelManifest }> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") {
      throw new WayfinderError("no_model", `Cannot load static model: '${path}' does not exist`, {
        cause: error,
      });
    }
    throw new WayfinderError("model", `Cannot read static model '${path}': ${code}`, {
      cause: error,
    });
  }
  const model = decodeStaticModel(bytes, path);
  const manifest = await readStaticManifest(path);
  if (manifest.bytes !== bytes.length) {
    throw bad(path, `it is ${bytes.length} bytes, its manifest says ${manifest.bytes}`);
  }
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  const sha256 = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join(
    "",
  );
  if (manifest.sha256 !== sha256) {
    throw bad(path, "its SHA-256 does not match its manifest");
  }
  return { model, sha256, manifest };
}

/** The manifest beside a static model file; a static model is never used without one. */
export async function readStaticManifest(path: string): Promise<ModelManifest> {
  let manifest: ModelManifest;
  try {
    manifest = JSON.parse(await readFile(manifestPathFor(path), "utf8"));
  } catch (error) {
    throw bad(path, `its manifest '${manifestPathFor(path)}' cannot be read`, error);
  }
  if (manifest.kind !== "static") throw bad(path, "its manifest does not describe a static model");
  return manifest;
}

/** Parses the bytes of a static model file, checking its layout. */
export function decodeStaticModel(bytes: Uint8Array, path: string): StaticModel {
  if (bytes.length < 16 || new TextDecoder().decode(bytes.subarray(0, 8)) !== MAGIC) {
    throw bad(path, "it is not a wayfinder static model");
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(8, true);
  if (version !== STATIC_FORMAT_VERSION) {
    throw bad(path, `its format version is ${version}, this build reads ${STATIC_FORMAT_VERSION}`);
  }
  const length = view.getUint32(12, true);
  if (16 + length > bytes.length) throw bad(path, "it is truncated");
  let header: StaticModelHeader;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(16, 16 + length)));
  } catch (error) {
    throw bad(path, "its header is not valid JSON", error);
  }
  const start = align4(16 + length);
  const values = header.vocabSize * header.dimensions;
  if (bytes.length !== start + values * 2) throw bad(path, "it is truncated");
  if (header.tokenizer?.tokens?.length !== header.vocabSize) {
    throw bad(path, "its vocabulary does not match its vector count");
  }
  // Copied out: `bytes` may be a view (node's readFile gives a Buffer, whose `slice` is one).
  const halves = new Float16Array(Uint8Array.prototype.slice.call(bytes, start).buffer, 0, values);
  return { header, vectors: Float32Array.from(halves) };
}

function bad(path: string, why: string, cause?: unknown): WayfinderError {
  return new WayfinderError("model", `Cannot load static model '${path}': ${why}`, { cause });
}
