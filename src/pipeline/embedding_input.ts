import type { Chunk } from "../types.ts";

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

/** What a knowledge passage carries about its concept (see `src/okf/concept.ts`). */
interface ConceptContext {
  title: string;
  description?: string;
}

/** The passage text: a chunker's `metadata.embeddingText` (a table fragment with its header) or the content. */
function passageOf(chunk: Chunk): string {
  return typeof chunk.metadata.embeddingText === "string"
    ? chunk.metadata.embeddingText
    : chunk.content;
}

/** What kind of block a passage is, when that tells the model something. */
function structureOf(chunk: Chunk): string | undefined {
  const language = chunk.metadata.codeLanguage;
  if (chunk.type === "code") return typeof language === "string" ? `code (${language})` : "code";
  return ["table", "list", "blockquote"].includes(chunk.type) ? chunk.type : undefined;
}

/**
 * `okf-context-v2`: the labeled concept title, its description when short,
 * the full heading path and the structural context, then the passage. With
 * `metadata.contextOmitted` (the context could not fit the model's budget)
 * the input is the passage alone, `okf-body-v1`.
 */
function knowledgeInput(chunk: Chunk, concept: ConceptContext): string {
  const passage = passageOf(chunk);
  if (chunk.metadata.contextOmitted === true) return passage;
  const lines = [`Title: ${concept.title}`];
  const description = concept.description;
  if (description && [...description].length <= MAX_DESCRIPTION_SCALARS) {
    lines.push(`Description: ${description}`);
  }
  const headings = chunk.metadata.headingPath;
  if (Array.isArray(headings) && headings.length) lines.push(`Section: ${headings.join(" > ")}`);
  const structure = structureOf(chunk);
  if (structure) lines.push(`Context: ${structure}`);
  return `${lines.join("\n")}\n\n${passage}`;
}

/**
 * The text a chunk is embedded as. Code and plain text: its path and symbol
 * on a first line give the model the context a bare method body lacks; the
 * passage follows. A knowledge passage (one with `metadata.concept`) gets
 * its concept's context instead (`okf-context-v2`).
 */
export function embeddingInput(chunk: Chunk): string {
  const concept = chunk.metadata.concept as ConceptContext | undefined;
  if (concept) return knowledgeInput(chunk, concept);
  const label = chunk.symbol ? `${chunk.sourcePath} ${chunk.symbol}` : chunk.sourcePath;
  return `${label}\n${passageOf(chunk)}`;
}
