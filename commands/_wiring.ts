/**
 * Turns resolved settings into the real parts a command needs: the index
 * directory of a corpus, the embedder, the code chunker. Kept in one place so
 * every command wires them the same way.
 */
import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Config, SettingKey } from "../src/config/mod.ts";
import { defaultThreads } from "../src/config/mod.ts";
import { WayfinderError } from "../src/error.ts";
import { type CodeChunker, createCodeChunker } from "../src/chunk/mod.ts";
import { type Embedder, HttpEmbedder, LlamaEmbedder, LlamaReranker } from "../src/embed/mod.ts";
import { resolveModelPath } from "../src/model/mod.ts";
import { INPUT_FORMAT } from "../src/pipeline/mod.ts";
import { dataRootFrom, indexDirFor } from "../src/store/mod.ts";
import type { CommandContext } from "./_command.ts";

/** Settings every command that reads or writes an index accepts. */
export const INDEX_SETTINGS = [
  "output",
  "debug",
  "dataDir",
  "indexDir",
] as const satisfies readonly SettingKey[];

/** Settings that choose and tune the embedder. */
export const EMBEDDER_SETTINGS = [
  "model",
  "embedder",
  "embedderUrl",
  "embedderApiKeyEnv",
  "embedderTimeoutMs",
  "threads",
  "batchSize",
  "longInput",
] as const satisfies readonly SettingKey[];

/** The corpus root argument, checked to be an existing directory. */
export function corpusRoot(config: Config, context: CommandContext, position = 0): string {
  const root = resolve(context.cwd, config.positionals[position] ?? ".");
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    throw new WayfinderError("io", `Cannot open '${root}': not a directory`);
  }
  return root;
}

/**
 * The tree-sitter chunker. A compiled binary finds its grammars in
 * `grammars/` beside itself (as `deno task compile` lays them out).
 */
export async function openCodeChunker(context: CommandContext): Promise<CodeChunker> {
  const shipped = context.executableDir ? join(context.executableDir, "grammars") : null;
  return await createCodeChunker(shipped && existsSync(shipped) ? { grammarDir: shipped } : {});
}

/** `--index-dir` if given, else `<data root>/indexes/<corpus>`. */
export function indexDirOf(config: Config, context: CommandContext, root: string): string {
  const { indexDir, dataDir } = config.settings;
  if (indexDir) return indexDir;
  return indexDirFor(dataDir ?? dataRootFrom(context.env), root);
}

/** The embedder the settings ask for. In-process llama.cpp unless an HTTP embedder is configured. */
export async function openEmbedder(config: Config, context: CommandContext): Promise<Embedder> {
  const s = config.settings;
  if (s.embedder !== "llama") {
    if (!s.embedderUrl) {
      throw new WayfinderError(
        "usage",
        `The ${s.embedder} embedder needs --embedder-url or embedding.url in wayfinder.json`,
      );
    }
    if (!s.model) {
      throw new WayfinderError(
        "usage",
        `The ${s.embedder} embedder needs --model NAME or embedding.model in wayfinder.json`,
      );
    }
    return await HttpEmbedder.create({
      protocol: s.embedder,
      url: s.embedderUrl,
      model: s.model,
      batchSize: s.batchSize,
      timeoutMs: s.embedderTimeoutMs,
      apiKey: context.env[s.embedderApiKeyEnv],
      longInput: s.longInput,
      inputFormat: INPUT_FORMAT,
    });
  }
  const source = config.sources.model;
  const model = resolveModelPath({
    flag: source === "flag" ? s.model : undefined,
    env: source === "env" ? s.model : undefined,
    config: source === "file" ? s.model : undefined,
    configDir: config.configDir ?? undefined,
    executableDir: context.executableDir ?? undefined,
    projectDir: context.projectDir,
  });
  return await LlamaEmbedder.create({
    modelPath: model.path,
    threads: s.threads ?? defaultThreads(),
    batchSize: s.batchSize,
    longInput: s.longInput,
    inputFormat: INPUT_FORMAT,
  });
}

/**
 * The cross-encoder `--reranker` names, loaded for `what` (the flag or run
 * that asked for reranking, named in the error when none is configured).
 */
export async function openReranker(config: Config, what: string): Promise<LlamaReranker> {
  const s = config.settings;
  if (!s.reranker) {
    throw new WayfinderError(
      "usage",
      `${what} needs a cross-encoder: pass --reranker PATH (a GGUF reranker)`,
    );
  }
  return await LlamaReranker.create({
    modelPath: s.reranker,
    threads: s.threads ?? defaultThreads(),
  });
}
