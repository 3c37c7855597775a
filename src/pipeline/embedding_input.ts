import type { Chunk } from "../types.ts";
import { SUMMARY_TYPE } from "../okf/mod.ts";

/**
 * Version of the text built from a chunk of a code tree for embedding. Part
 * of the model identity: changing `embeddingInput` must bump it, so old
 * vectors are never mixed with new ones.
 */
export const INPUT_FORMAT = 1;

/** The input format of knowledge bundles: concept context before each passage. */
export const KNOWLEDGE_INPUT_FORMAT = "okf-context-v2";

/** Descriptions longer than this stay in metadata and out of the input. */
const MAX_DESCRIPTION_SCALARS = 240;

/** What a knowledge passage carries about its concept (see `src/okf/knowledge/concept.ts`). */
interface ConceptContext {
  title: string;
  description?: string;
}

/** What kind of block a passage is, when that tells the model something. */
function structureOf(chunk: Chunk): string | undefined {
  const language = chunk.metadata.codeLanguage;
  if (chunk.type === "code") return typeof language === "string" ? `code (${language})` : "code";
  return ["table", "list", "blockquote"].includes(chunk.type) ? chunk.type : undefined;
}

/**
 * `okf-context-v2`: the labeled concept title, its description when short,
 * the full heading path and the structural context, each on a line, then a
 * blank line before the passage. A body-less concept's summary passage is
 * its description already: it is not said twice.
 */
function knowledgeContext(chunk: Chunk, concept: ConceptContext): string {
  const lines = [`Title: ${concept.title}`];
  const description = chunk.type === SUMMARY_TYPE ? undefined : concept.description;
  if (description && [...description].length <= MAX_DESCRIPTION_SCALARS) {
    lines.push(`Description: ${description}`);
  }
  const headings = chunk.metadata.headingPath;
  if (Array.isArray(headings) && headings.length) lines.push(`Section: ${headings.join(" > ")}`);
  const structure = structureOf(chunk);
  if (structure) lines.push(`Context: ${structure}`);
  return `${lines.join("\n")}\n\n`;
}

/**
 * The context derived for a chunk, embedded before its passage. Code and
 * plain text: its path and symbol on a first line give the model what a bare
 * method body lacks. A knowledge passage (one with `metadata.concept`) gets
 * its concept's context instead (`okf-context-v2`). The fitter counts it
 * with every fragment, so `embeddingInput` builds on it.
 */
export function embeddingContext(chunk: Chunk): string {
  const concept = chunk.metadata.concept as ConceptContext | undefined;
  if (concept) return knowledgeContext(chunk, concept);
  const label = chunk.symbol ? `${chunk.sourcePath} ${chunk.symbol}` : chunk.sourcePath;
  return `${label}\n`;
}

/**
 * The text a chunk is embedded as: its context, then the passage. A chunker
 * may supply `metadata.embeddingText` (e.g. a table fragment with its header
 * rows) to stand in for the raw content; the fitter sets
 * `metadata.contextOmitted` on fragments that could not carry the context
 * (for knowledge passages that is `okf-body-v1`, the passage alone).
 */
export function embeddingInput(chunk: Chunk): string {
  const body = typeof chunk.metadata.embeddingText === "string"
    ? chunk.metadata.embeddingText
    : chunk.content;
  return chunk.metadata.contextOmitted === true ? body : embeddingContext(chunk) + body;
}
