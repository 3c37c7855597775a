import {
  aggregateDiagnostics,
  type FitDiagnostic,
  type FitNote,
  type UnfitPassage,
} from "../fit/mod.ts";
import {
  chunkSource,
  type ChunkSourceOptions,
  type SourceSettings,
  walkSources,
} from "./chunk_source.ts";
import { embeddingInput } from "./embedding_input.ts";
import type { FittedChunk } from "./fit_chunks.ts";

/** What `fitCorpus` walks, chunks and fits. */
export interface FitCorpusOptions extends SourceSettings, ChunkSourceOptions, FitInputsOptions {}

/** What `fit-inputs` reports beyond the counts. */
export interface FitInputsOptions {
  /** List every embedding input's text (`--show-inputs`), so a reader can check what is embedded. */
  showInputs?: boolean;
}

/** One embedding input, exactly as `index` embeds it, and the lines of the chunk it stands for. */
export interface FitInput {
  /** The passage's chunk id. */
  chunkId: string;
  /** The file it comes from, relative to the root. */
  sourcePath: string;
  /** Its first line, 1-based. */
  lineStart: number;
  /** Its last line, inclusive. */
  lineEnd: number;
  /** As the model's tokenizer counted the text. */
  tokens: number;
  /** The context (path and symbol; a concept's title, description and headings) and the passage. */
  text: string;
}

/** How a tree's embedding inputs fit the model: what `fit-inputs` prints. */
export interface FitInputsReport {
  /** The tree's absolute path. */
  root: string;
  /** The model whose tokenizer counted. */
  model: string;
  /** The model's token budget. */
  maxTokens: number;
  /** Files walked, and files the walk skipped. */
  files: { seen: number; skipped: number };
  /** Chunks as chunked. */
  chunks: number;
  /** Embedding inputs of the chunks that fit. */
  inputs: number;
  /** Chunks cut into more than one input. */
  splitChunks: number;
  /** Tokens of the longest input. */
  largestInput: number;
  /** Sorted by path, then code. */
  diagnostics: FitDiagnostic[];
  /** Chunks whose body cannot fit even one character at a time. */
  unfit: UnfitPassage[];
  /** With `showInputs`: every input of the chunks that fit, in walk order. */
  embeddingInputs?: FitInput[];
}

/**
 * Walks and chunks a tree as `index` does, and fits every chunk to the
 * model's token budget with the same fitter, counting with the model's
 * tokenizer; nothing is embedded or written.
 */
export async function fitCorpus(options: FitCorpusOptions): Promise<FitInputsReport> {
  const walked = await walkSources(options);
  const fitted: FittedChunk[] = [];
  for (const file of walked.files) fitted.push(...await chunkSource(file, options));
  const notes: FitNote[] = fitted.flatMap(({ chunk, codes }) =>
    codes.map((code) => ({
      code,
      chunkId: chunk.id,
      sourcePath: chunk.sourcePath,
      lineStart: chunk.lineStart,
      lineEnd: chunk.lineEnd,
    }))
  );
  const fits = fitted.filter((f) => !f.unfit);
  return {
    root: options.root,
    model: options.embedder.identity.name,
    maxTokens: options.embedder.identity.maxTokens,
    files: { seen: walked.files.length, skipped: walked.skipped.length },
    chunks: fitted.length,
    inputs: fits.reduce((n, f) => n + f.fragments.length, 0),
    splitChunks: fits.filter((f) => f.fragments.length > 1).length,
    largestInput: fits.reduce((most, f) => f.tokens.reduce((m, t) => Math.max(m, t), most), 0),
    diagnostics: aggregateDiagnostics(notes),
    unfit: fitted.flatMap((f) => (f.unfit ? [f.unfit] : [])),
    ...(options.showInputs ? { embeddingInputs: fits.flatMap(inputsOf) } : {}),
  };
}

function inputsOf({ fragments, tokens }: FittedChunk): FitInput[] {
  return fragments.map((chunk, i) => ({
    chunkId: chunk.id,
    sourcePath: chunk.sourcePath,
    lineStart: chunk.lineStart,
    lineEnd: chunk.lineEnd,
    tokens: tokens[i]!,
    text: embeddingInput(chunk),
  }));
}
