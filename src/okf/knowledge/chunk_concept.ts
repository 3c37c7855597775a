import {
  chunkBudget,
  chunkId,
  chunkMarkdown,
  countNonWhitespace,
  makeChunk,
} from "../../chunk/mod.ts";
import type { Chunk, SourceFile } from "../../types.ts";
import { type ConceptMeta, readConcept } from "./concept.ts";

/** The type of the one passage of a concept whose file holds nothing but its metadata. */
export const SUMMARY_TYPE = "summary";

/**
 * The passages of one concept: its Markdown chunks without the front matter
 * (metadata, not a passage), without footnote definitions (OKF attributes
 * claims through `sources`) and without bare headings (each passage's input
 * already names its heading path), unless those are all the concept has.
 * A concept with no body at all is one {@link summaryPassage}, so every
 * concept can be found and can govern. Each passage carries the concept's
 * metadata as `metadata.concept`.
 */
export function chunkConcept(file: SourceFile, options: { maxChars?: number } = {}): Chunk[] {
  const concept = readConcept(file.path, file.content);
  const all = chunkMarkdown(file, options);
  const chunks = all.filter((c) => c.type !== "front_matter");
  const body = chunks.filter((c) => c.type !== "footnote" && c.type !== "heading");
  const kept = body.length > 0
    ? body
    : chunks.length > 0
    ? chunks
    : [summaryPassage(file, concept, all.find((c) => c.type === "front_matter"))];
  return kept.map((chunk) => ({ ...chunk, metadata: { ...chunk.metadata, concept } }));
}

/**
 * A body-less concept's passage: its description, else its title, as plain
 * text, with the title as its symbol (so the title is searchable lexically).
 * Its lines are the front matter's, where that text lives; the YAML itself
 * never becomes a passage. The embedding input then reads
 * `Title: <title>` and the description once, as the passage.
 */
function summaryPassage(file: SourceFile, concept: ConceptMeta, frontMatter?: Chunk): Chunk {
  const text = concept.description ?? concept.title;
  const span = makeChunk(file, {
    start: frontMatter?.startOffset ?? 0,
    end: frontMatter?.endOffset ?? file.content.length,
    type: SUMMARY_TYPE,
    language: "markdown",
    symbol: concept.title,
  });
  const id = chunkId(file.path, span.lineStart, span.lineEnd, SUMMARY_TYPE, text);
  return { ...span, id, content: text };
}

/** A Markdown footnote definition line, `[^label]: text`. */
const FOOTNOTE_DEFINITION = /^ {0,3}\[\^[^\]\n]+\]:/m;

/** The headings every path starts with. */
function sharedHeadings(paths: string[][]): string[] {
  const [first = [], ...rest] = paths;
  const shared = first.findIndex((h, i) => rest.some((p) => p[i] !== h));
  return shared === -1 ? first : first.slice(0, shared);
}

/**
 * Where the first passage's section starts: its heading line, when one comes
 * before it. `chunkConcept` drops bare headings, so they are read again here.
 */
function sectionStart(file: SourceFile, first: Chunk, maxChars?: number): number {
  const heading = chunkMarkdown(file, { maxChars }).findLast((c) =>
    c.type === "heading" && c.endOffset <= first.startOffset
  );
  if (!heading) return first.startOffset;
  // A footnote definition between would become retrievable: start at the passage then.
  const between = file.content.slice(heading.endOffset, first.startOffset);
  if (FOOTNOTE_DEFINITION.test(between)) return first.startOffset;
  // A heading passage starts at its text; its line starts at its `#` marks.
  return file.content.lastIndexOf("\n", heading.startOffset - 1) + 1;
}

/**
 * A concept's passages as one `concept` passage: the text from the first
 * one's heading (the later ones keep theirs too) to the last passage, under
 * the headings they share. Undefined when there is a single
 * passage, when a footnote definition lies between two, or when the text is
 * over the chunk budget (non-whitespace characters, as the chunkers count them).
 */
export function joinConcept(
  file: SourceFile,
  passages: Chunk[],
  options: { maxChars?: number } = {},
): Chunk | undefined {
  if (passages.length < 2) return undefined;
  // The join takes every line between its passages: a footnote definition
  // there would become retrievable, so such a concept stays in passages.
  for (let i = 1; i < passages.length; i++) {
    const between = file.content.slice(passages[i - 1].endOffset, passages[i].startOffset);
    if (FOOTNOTE_DEFINITION.test(between)) return undefined;
  }
  const start = sectionStart(file, passages[0], options.maxChars);
  const end = passages[passages.length - 1].endOffset;
  if (countNonWhitespace(file.content.slice(start, end)) > chunkBudget(options.maxChars)) {
    return undefined;
  }
  const headingPath = sharedHeadings(
    passages.map((p) => Array.isArray(p.metadata.headingPath) ? p.metadata.headingPath : []),
  );
  const symbol = headingPath.length ? headingPath.join(" > ") : undefined;
  const whole = makeChunk(file, {
    start,
    end,
    type: "concept",
    language: "markdown",
    symbol,
    metadata: { headingPath },
  });
  return { ...whole, metadata: { ...whole.metadata, concept: passages[0].metadata.concept } };
}
