/**
 * Opens the models a corpus needs from plain settings: the embedder
 * (in-process llama.cpp or an HTTP server) and the cross-encoder (a GGUF
 * file or a TEI server).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defaultThreads } from "../config/mod.ts";
import { WayfinderError } from "../error.ts";
import { type Hints, hintsFor } from "../hints.ts";
import {
  type Embedder,
  HttpEmbedder,
  HttpReranker,
  JointEmbedder,
  LlamaEmbedder,
  LlamaReranker,
  type Reranker,
  StaticEmbedder,
} from "../embed/mod.ts";
import { resolveModelPath, staticModelPathFor } from "../model/mod.ts";
import { INPUT_FORMAT } from "../pipeline/mod.ts";
import { type CodeChunker, createCodeChunker } from "../chunk/mod.ts";
import type { PassageScorer } from "../search/mod.ts";
import type { CorpusOptions } from "./corpus.ts";
import { BUILD_DEFAULTS } from "../build_defaults.ts";

/**
 * Which embedder to open and how. Unset fields fall back to the index's record, then defaults.
 *
 * @example Settings name a model the corpus opens when it needs one
 * ```ts
 * import assert from "node:assert/strict";
 * import { FakeEmbedder, openCorpus, WayfinderError } from "../mod.ts";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/auth.ts`, "export function refreshToken() {\n  return fetchToken();\n}\n");
 * await Deno.writeTextFile(`${root}/README.md`, "# Auth\n\nRefresh the token before it expires.\n");
 * const dataDir = await Deno.makeTempDir();
 * const corpus = await openCorpus(root, { dataDir, embedder: { model: `${root}/missing.gguf`, threads: 1 } });
 * // Nothing loads a model until a run or a search needs one.
 * assert.equal((await corpus.status()).state, "absent");
 * await assert.rejects(corpus.index(), (error) => error instanceof WayfinderError && error.code === "no_model");
 * await corpus.close();
 * await Deno.remove(root, { recursive: true });
 * await Deno.remove(dataDir, { recursive: true });
 * ```
 */
export interface EmbedderSettings {
  /** Where vectors come from: llama.cpp in process, a static model, or an HTTP server. @default "llama" */
  provider?: "llama" | "static" | "ollama" | "openai" | "tei";
  /**
   * GGUF path for llama (default: `models/embedding.gguf`), static model path for static
   * (default: `models/embedding.static`), the remote model name otherwise.
   */
  model?: string;
  /** Where `model` came from ("--model", a variable, wayfinder.json), for messages. */
  modelOrigin?: string;
  /** Base URL of an HTTP embedder. */
  url?: string;
  /** The API key an HTTP embedder sends. */
  apiKey?: string;
  /** Per-request timeout of an HTTP embedder. @default 30000 */
  timeoutMs?: number;
  /** llama.cpp CPU threads. @default the idle cores, 1 to 8 (see `defaultThreads`) */
  threads?: number;
  /** @default 32 */
  /** Passages embedded per call. @default 32 */
  batchSize?: number;
  /** What to do with passages over the model's token budget. @default "reject" */
  longInput?: "reject" | "truncate";
  /**
   * With a static model beside the GGUF (`embedding.static`), its share of each
   * cosine: passages and queries are embedded by both, as joint vectors
   * (`JointEmbedder`); 0 embeds with the GGUF alone. In-process llama only.
   * @default 0.2
   */
  staticShare?: number;
  /** The format of the text embedded (part of the identity); the corpus sets it for knowledge bundles. */
  inputFormat?: number | string;
  /**
   * The vector size of an HTTP embedder, when known; without it the server
   * embeds one probe text when the embedder opens.
   */
  dimensions?: number;
}

/** A cross-encoder to open: a GGUF file in process, or a TEI `/rerank` server. */
export type RerankerSettings = Exclude<NonNullable<CorpusOptions["reranker"]>, PassageScorer>;

/** The repository this module belongs to: its `models/` is the library's default model folder. */
export const REPOSITORY = fileURLToPath(new URL("../..", import.meta.url));

/** Where default models and grammars are looked for. */
export interface Locations {
  /** The folder of a compiled binary: its `models/` and `grammars/` come first. */
  executableDir?: string;
  /** The repository root: its `models/embedding.gguf` is the last resort. @default this repository */
  projectDir?: string;
}

/** Opens the embedder `settings` describe; `hints` words what a missing setting needs. */
export async function openEmbedder(
  settings: EmbedderSettings,
  locations: Locations = {},
  hints: Hints = hintsFor("cli"),
): Promise<Embedder> {
  const provider = settings.provider ?? BUILD_DEFAULTS.provider;
  const longInput = settings.longInput ?? BUILD_DEFAULTS.longInput;
  if (provider === "static") {
    return await StaticEmbedder.open({
      modelPath: resolveStaticModel(settings, locations).path,
      inputFormat: settings.inputFormat ?? INPUT_FORMAT,
    });
  }
  if (provider !== "llama") {
    if (!settings.url) {
      throw new WayfinderError(
        "usage",
        `The ${provider} embedder needs ${hints.embedderSetting("url")}`,
      );
    }
    if (!settings.model) {
      throw new WayfinderError(
        "usage",
        `The ${provider} embedder needs ${hints.embedderSetting("model")}`,
      );
    }
    return await HttpEmbedder.create({
      protocol: provider,
      url: settings.url,
      model: settings.model,
      batchSize: settings.batchSize,
      timeoutMs: settings.timeoutMs,
      apiKey: settings.apiKey,
      longInput,
      inputFormat: settings.inputFormat ?? INPUT_FORMAT,
      dimensions: settings.dimensions,
    });
  }
  const model = resolveModelPath({
    model: settings.model,
    origin: settings.modelOrigin,
    executableDir: locations.executableDir,
    projectDir: locations.projectDir ?? REPOSITORY,
  });
  const share = settings.staticShare ?? BUILD_DEFAULTS.staticShare;
  const beside = staticModelPathFor(model.path);
  const transformer = await LlamaEmbedder.create({
    modelPath: model.path,
    threads: await threadsFor(settings),
    batchSize: settings.batchSize,
    longInput,
    inputFormat: settings.inputFormat ?? INPUT_FORMAT,
  });
  if (share === 0 || !existsSync(beside)) return transformer;
  const opened: Embedder[] = [transformer];
  try {
    const staticModel = await StaticEmbedder.open({
      modelPath: beside,
      inputFormat: settings.inputFormat ?? INPUT_FORMAT,
    });
    opened.push(staticModel);
    return new JointEmbedder(transformer, staticModel, share);
  } catch (error) {
    await Promise.all(opened.map((embedder) => embedder.close()));
    throw error;
  }
}

/** The static model the settings name, else `models/embedding.static` beside the executable or in the project. */
export function resolveStaticModel(settings: EmbedderSettings, locations: Locations = {}) {
  return resolveModelPath({
    model: settings.model,
    origin: settings.modelOrigin,
    executableDir: locations.executableDir,
    projectDir: locations.projectDir ?? REPOSITORY,
    fileName: "embedding.static",
    what: "a static model",
    fix: "Run 'wayfinder model distill' (or 'wayfinder model prepare --static')",
  });
}

/** The threads a model runs on: the caller's choice, else what this machine can spare now. */
async function threadsFor(settings: { threads?: number }): Promise<number> {
  return settings.threads ?? await defaultThreads();
}

/**
 * Opens the cross-encoder `settings` name; `what` (the flag or run that
 * asked) goes into the error, and `hints` words how to name one.
 */
export async function openReranker(
  settings: RerankerSettings,
  what: string,
  hints: Hints = hintsFor("cli"),
): Promise<Reranker> {
  if (settings.url) {
    return HttpReranker.create({ url: settings.url, timeoutMs: settings.timeoutMs });
  }
  if (!settings.model) {
    throw new WayfinderError(
      "usage",
      `${what} needs a cross-encoder: ${hints.crossEncoder()}`,
    );
  }
  return await LlamaReranker.create({
    modelPath: settings.model,
    threads: await threadsFor(settings),
  });
}

/** The tree-sitter chunker; a compiled binary finds its grammars in `grammars/` beside itself. */
export async function openCodeChunker(locations: Locations = {}): Promise<CodeChunker> {
  const shipped = locations.executableDir ? join(locations.executableDir, "grammars") : null;
  return await createCodeChunker(shipped && existsSync(shipped) ? { grammarDir: shipped } : {});
}
