import { join } from "node:path";
import type { Chunk, Quantization } from "../types.ts";
import { _bytesLE, _HashedWriter } from "./_durable.ts";
import { ChunkTableBuilder } from "./chunk_table.ts";
import { LexicalBuilder } from "./lexical_index.ts";
import { binaryCode, CODE_FILES, codeBytes, codeFileBytes, int8Code } from "./quantize.ts";

/** File names inside a generation directory. */
export const FILES = {
  manifest: "manifest.json",
  chunks: "chunks.bin",
  text: "text.bin",
  lexical: "lexical.bin",
  vectors: "vectors.f32",
} as const;

/**
 * The size each data file of a fixed layout must have for a generation of
 * `rows` rows: the vectors, and their codes with a quantization.
 */
export function fixedSizes(
  rows: number,
  dimensions: number,
  quantization: Quantization = "none",
): Record<string, number> {
  const sizes: Record<string, number> = { [FILES.vectors]: rows * dimensions * 4 };
  if (quantization !== "none") {
    sizes[CODE_FILES[quantization]] = codeFileBytes(quantization, rows, dimensions);
  }
  return sizes;
}

/**
 * Writes one generation's data files as rows arrive: passages go straight
 * to `text.bin`, vectors to `vectors.f32` (and their codes to the code file),
 * while only compact metadata and the full-text postings are kept until
 * `finish`. So building never holds a serialised copy of the whole index.
 */
export class GenerationWriter {
  #table = new ChunkTableBuilder();
  #lexical = new LexicalBuilder();
  #scales: number[] = [];
  #code: Int8Array | Uint8Array;

  private constructor(
    private readonly genDir: string,
    private readonly dimensions: number,
    private readonly quantization: Quantization,
    private readonly writers: Record<"text" | "vectors" | "codes", _HashedWriter | null>,
  ) {
    this.#code = quantization === "int8"
      ? new Int8Array(dimensions)
      : new Uint8Array(quantization === "binary" ? codeBytes("binary", dimensions) : 0);
  }

  /** Creates the data files in `genDir`, which exists and is empty. */
  static async create(
    genDir: string,
    dimensions: number,
    quantization: Quantization,
  ): Promise<GenerationWriter> {
    const writers = {
      text: await _HashedWriter.create(join(genDir, FILES.text)),
      vectors: await _HashedWriter.create(join(genDir, FILES.vectors)),
      codes: quantization === "none"
        ? null
        : await _HashedWriter.create(join(genDir, CODE_FILES[quantization])),
    };
    return new GenerationWriter(genDir, dimensions, quantization, writers);
  }

  /** Appends the next row: a chunk and its vector (`dimensions` floats). */
  async add(chunk: Chunk, vector: Float32Array): Promise<void> {
    const content = chunk.content;
    this.#table.add(chunk, await this.writers.text!.writeText(content));
    this.#lexical.add(chunk, content);
    await this.writers.vectors!.write(_bytesLE(vector));
    if (this.quantization === "int8") {
      this.#scales.push(int8Code(vector, this.#code as Int8Array));
    } else if (this.quantization === "binary") {
      binaryCode(vector, this.#code as Uint8Array);
    }
    if (this.writers.codes) {
      const code = this.#code;
      await this.writers.codes.write(new Uint8Array(code.buffer, code.byteOffset, code.length));
    }
  }

  /** Writes the metadata and full-text files, closes everything; returns each file's xxh64. */
  async finish(): Promise<Record<string, string>> {
    const checksums: Record<string, string> = {};
    checksums[FILES.text] = await this.writers.text!.close();
    checksums[FILES.vectors] = await this.writers.vectors!.close();
    if (this.writers.codes && this.quantization !== "none") {
      if (this.quantization === "int8") {
        await this.writers.codes.write(_bytesLE(Float32Array.from(this.#scales)));
      }
      checksums[CODE_FILES[this.quantization]] = await this.writers.codes.close();
    }
    for (
      const [name, parts] of [
        [FILES.chunks, () => this.#table.encode()],
        [FILES.lexical, () => this.#lexical.encode()],
      ] as const
    ) {
      const writer = await _HashedWriter.create(join(this.genDir, name));
      try {
        for (const part of parts()) await writer.write(part);
      } catch (error) {
        writer.abandon(); // `abandon()` below knows only the streamed files
        throw error;
      }
      checksums[name] = await writer.close();
    }
    return checksums;
  }

  /** Closes the files of a write that failed; the caller removes the directory. */
  abandon(): void {
    for (const writer of Object.values(this.writers)) writer?.abandon();
  }
}
