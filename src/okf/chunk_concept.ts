import { chunkMarkdown } from "../chunk/mod.ts";
import type { Chunk, SourceFile } from "../types.ts";
import { readConcept } from "./concept.ts";

/**
 * The passages of one concept: its Markdown chunks without the front matter
 * (metadata, not a passage), without footnote definitions (OKF attributes
 * claims through `sources`) and without bare headings (each passage's input
 * already names its heading path), unless those are all the concept has.
 * Each passage carries the concept's metadata as `metadata.concept`.
 */
export function chunkConcept(file: SourceFile, options: { maxChars?: number } = {}): Chunk[] {
  const concept = readConcept(file.path, file.content);
  const chunks = chunkMarkdown(file, options).filter((c) => c.type !== "front_matter");
  const body = chunks.filter((c) => c.type !== "footnote" && c.type !== "heading");
  const kept = body.length > 0 ? body : chunks;
  return kept.map((chunk) => ({ ...chunk, metadata: { ...chunk.metadata, concept } }));
}
