import type { Chunk } from "../types.ts";
import { sliceChunk } from "../chunk/mod.ts";
import type { Embedder } from "../embed/mod.ts";
import {
  diagnosticCodes,
  type FitBudget,
  type FitDiagnosticCode,
  type FitPassage,
  fitPassage,
  type UnfitPassage,
} from "../fit/mod.ts";
import { embeddingContext } from "./embedding_input.ts";

/** One chunk as chunked, and the chunks its embedding inputs became. */
export interface FittedChunk {
  /** The chunk as the chunker cut it. */
  chunk: Chunk;
  /**
   * Exact, consecutive slices of `chunk`, one per embedding input (the chunk
   * itself when its input fits); the whole chunk, over budget, when it cannot fit.
   */
  fragments: Chunk[];
  /** Tokens of each fragment's input; empty when the chunk cannot fit. */
  tokens: number[];
  codes: FitDiagnosticCode[];
  /** Set when even one character of the body, without context, is over budget. */
  unfit?: UnfitPassage;
}

// Prose is cut at whitespace; everything else is line-structured.
const PROSE_LANGUAGES = new Set(["markdown", "text"]);
const LINE_TYPES = new Set(["table", "code", "front_matter"]);

/** The embedder's tokenizer and budget, for documents. */
export function tokenBudget(embedder: Pick<Embedder, "identity" | "countTokens">): FitBudget {
  return {
    maxTokens: embedder.identity.maxTokens,
    countTokens: (text) => embedder.countTokens(text, "document"),
  };
}

/** What the fitter sees of a chunk: its passage, context and table header. */
function passageOf(chunk: Chunk): FitPassage {
  const header = chunk.metadata.tableHeader;
  const passage: FitPassage = {
    text: chunk.content,
    context: embeddingContext(chunk),
    lines: LINE_TYPES.has(chunk.type) || !PROSE_LANGUAGES.has(chunk.language),
  };
  if (typeof header === "string") {
    // Rows after the header (or a later part without it) carry it as context.
    const from = chunk.content.startsWith(header) ? header.length : 0;
    passage.header = { text: `${header}\n`, from };
  }
  return passage;
}

/**
 * Fits one chunk to the model's budget with {@link fitPassage} and turns its
 * fragments into chunks whose `embeddingInput` is exactly what was counted.
 */
export async function fitChunk(chunk: Chunk, budget: FitBudget): Promise<FittedChunk> {
  const passage = passageOf(chunk);
  const fitted = await fitPassage(passage, budget);
  if (!fitted.fits) {
    const { id: chunkId, sourcePath, lineStart, lineEnd } = chunk;
    const unfit = { chunkId, sourcePath, lineStart, lineEnd, tokens: fitted.unfit!.tokens };
    return { chunk, fragments: [chunk], tokens: [], codes: [], unfit };
  }
  const { fragments } = fitted;
  const tokens = fragments.map((f) => f.tokens);
  const codes = diagnosticCodes(fitted);
  if (fragments.length === 1 && !fitted.contextOmitted && !passage.header) {
    return { chunk, fragments: [chunk], tokens, codes };
  }
  const pieces = fragments.map(({ start, end }, i) => {
    const metadata: Record<string, unknown> = { ...chunk.metadata };
    delete metadata.embeddingText;
    if (fragments.length > 1) {
      Object.assign(metadata, { fitPart: i + 1, fitParts: fragments.length });
    }
    if (fitted.contextOmitted) metadata.contextOmitted = true;
    else if (passage.header && start >= passage.header.from) {
      metadata.embeddingText = passage.header.text + chunk.content.slice(start, end);
    }
    return fragments.length === 1
      ? { ...chunk, metadata }
      : sliceChunk(chunk, start, end, metadata);
  });
  return { chunk, fragments: pieces, tokens, codes };
}

/** Fits each chunk in turn; tokenizers are cheap and share one model. */
export async function fitChunks(
  chunks: readonly Chunk[],
  budget: FitBudget,
): Promise<FittedChunk[]> {
  const fitted: FittedChunk[] = [];
  for (const chunk of chunks) fitted.push(await fitChunk(chunk, budget));
  return fitted;
}
