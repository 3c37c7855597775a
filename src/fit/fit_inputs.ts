import type { Chunk } from "../types.ts";

/** Options for {@linkcode fitInputs}. */
export interface FitOptions {
  /** The model's token budget per input, special tokens included. */
  maxTokens: number;
  /** What the embed stage does with an input over budget. */
  policy: "reject" | "truncate";
  /** The text that will be embedded for a chunk. @default {(chunk) => chunk.content} */
  textOf?: (chunk: Chunk) => string;
}

/** One chunk's token count against the budget. */
export interface FitInput {
  chunkId: string;
  sourcePath: string;
  lineStart: number;
  lineEnd: number;
  tokens: number;
  fits: boolean;
}

/** Token counts of every input, for the pre-check and for diagnostics. */
export interface FitReport {
  inputs: FitInput[];
  /** How many inputs exceed `maxTokens`. */
  overLimit: number;
  maxTokens: number;
  policy: "reject" | "truncate";
}

/**
 * Counts the tokens of each chunk's input and marks those over budget.
 * Counting is sequential: tokenizers are cheap and share one model.
 */
export async function fitInputs(
  chunks: Chunk[],
  countTokens: (text: string) => Promise<number>,
  options: FitOptions,
): Promise<FitReport> {
  const textOf = options.textOf ?? ((chunk: Chunk) => chunk.content);
  const inputs: FitInput[] = [];
  let overLimit = 0;
  for (const chunk of chunks) {
    const tokens = await countTokens(textOf(chunk));
    const fits = tokens <= options.maxTokens;
    if (!fits) overLimit++;
    inputs.push({
      chunkId: chunk.id,
      sourcePath: chunk.sourcePath,
      lineStart: chunk.lineStart,
      lineEnd: chunk.lineEnd,
      tokens,
      fits,
    });
  }
  return { inputs, overLimit, maxTokens: options.maxTokens, policy: options.policy };
}
