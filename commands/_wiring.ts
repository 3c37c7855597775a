/**
 * Turns resolved settings into the library's options, in one place, so
 * every command opens corpora and models the same way.
 */
import { resolve } from "node:path";
import type { EmbedderSettings } from "../src/mod.ts";
import {
  type BuildSettingName,
  checkQualifiers,
  chosen,
  type Config,
  type ConfiguredCorpus,
  type ConfiguredCorpusOptions,
  type ConfiguredSearchOptions,
  type Locations,
  openConfiguredCorpus,
  originOf,
  parseGoverning,
  type RerankerSettings,
  type SettingKey,
} from "../src/cli/mod.ts";
import type { CommandContext } from "./_command.ts";

/** Settings every command that reads or writes an index accepts. */
export const INDEX_SETTINGS = [
  "output",
  "debug",
  "dataDir",
  "indexDir",
  "store",
  "staticTier",
] as const satisfies readonly SettingKey[];

/** Settings that choose and tune the embedder. */
export const EMBEDDER_SETTINGS = [
  "model",
  "embedder",
  "staticShare",
  "embedderUrl",
  "embedderApiKeyEnv",
  "embedderTimeoutMs",
  "threads",
  "batchSize",
  "longInput",
] as const satisfies readonly SettingKey[];

/** Settings that decide which files become which chunks: what `index` and `fit-inputs` share. */
export const CHUNKING_SETTINGS = [
  "include",
  "exclude",
  "maxFileBytes",
  "maxChunkChars",
  "knowledge",
] as const satisfies readonly SettingKey[];

/** Settings that define how an index is built: what `index`, `status` and `watch` share. */
export const BUILD_SETTINGS = [
  ...INDEX_SETTINGS,
  ...EMBEDDER_SETTINGS,
  ...CHUNKING_SETTINGS,
  "vectorQuantization",
] as const satisfies readonly SettingKey[];

/** Settings that shape what a search returns. */
export const SEARCH_SETTINGS = [
  "limit",
  "minScore",
  "mode",
  "path",
  "type",
  "lang",
  "rerank",
  "reranker",
  "rerankerUrl",
  "rerankerTimeoutMs",
  "expand",
  "checkFresh",
  "diverse",
  "lambda",
  "fetchK",
  "contextChars",
  "knowledge",
  "current",
  "asOf",
  "conceptStatus",
  "conceptType",
  "pathPrefix",
  "governing",
  "expandLinks",
] as const satisfies readonly SettingKey[];

/** Opens the corpus the settings name, hands it to `use`, and closes it whatever happens. */
export async function withCorpus<T>(
  config: Config,
  context: CommandContext,
  use: (corpus: ConfiguredCorpus) => Promise<T>,
): Promise<T> {
  const corpus = await openConfiguredCorpus(
    corpusRoot(config, context),
    corpusOptions(config, context),
  );
  try {
    return await use(corpus);
  } finally {
    await corpus.close();
  }
}

/** The corpus root argument, resolved against the working directory. */
export function corpusRoot(config: Config, context: CommandContext, position = 0): string {
  return resolve(context.cwd, config.positionals[position] ?? ".");
}

/** Where a compiled binary or the repository keeps its models and grammars. */
export function locationsOf(context: CommandContext): Locations {
  return { executableDir: context.executableDir ?? undefined, projectDir: context.projectDir };
}

/**
 * The embedder settings. Those that define an index (provider, model, URL,
 * long-input policy) are passed only when chosen, so an index's recorded
 * ones win over defaults.
 */
export function embedderSettings(config: Config, context: CommandContext): EmbedderSettings {
  const s = config.settings;
  return {
    provider: chosen(config, "embedder"),
    model: s.model,
    modelOrigin: originOf(config, "model"),
    url: s.embedderUrl,
    apiKey: s.embedderApiKeyEnv ? context.env[s.embedderApiKeyEnv] : undefined,
    timeoutMs: s.embedderTimeoutMs,
    threads: s.threads,
    batchSize: s.batchSize,
    longInput: chosen(config, "longInput"),
    staticShare: chosen(config, "staticShare"),
  };
}

/**
 * The cross-encoder settings: a GGUF path or a TEI URL. When both are set,
 * the one from the stronger source (flag > environment > file) is used; two
 * flags are refused by the config module.
 */
export function rerankerSettings(config: Config): RerankerSettings {
  const s = config.settings;
  const useUrl = s.rerankerUrl !== undefined &&
    (s.reranker === undefined || strength(config, "rerankerUrl") >= strength(config, "reranker"));
  return useUrl
    ? { url: s.rerankerUrl, timeoutMs: s.rerankerTimeoutMs }
    : { model: s.reranker, threads: s.threads };
}

function strength(config: Config, key: SettingKey): number {
  return ["default", "file", "env", "flag"].indexOf(config.sources[key] ?? "default");
}

/** Everything `openConfiguredCorpus` needs from the settings. */
export function corpusOptions(config: Config, context: CommandContext): ConfiguredCorpusOptions {
  const s = config.settings;
  return {
    indexDir: s.indexDir,
    dataDir: s.dataDir,
    store: s.store,
    staticTier: s.staticTier,
    embedder: embedderSettings(config, context),
    reranker: rerankerSettings(config),
    include: chosen(config, "include"),
    exclude: chosen(config, "exclude"),
    maxFileBytes: chosen(config, "maxFileBytes"),
    maxChunkChars: chosen(config, "maxChunkChars"),
    quantization: chosen(config, "vectorQuantization"),
    knowledge: s.knowledge,
    locations: locationsOf(context),
    fromConfig: fromConfig(config),
  };
}

/** Each build setting's option name, by its setting key. */
const BUILD_OPTIONS: Partial<Record<SettingKey, BuildSettingName>> = {
  embedder: "provider",
  embedderUrl: "url",
  model: "model",
  longInput: "longInput",
  staticShare: "staticShare",
  include: "include",
  exclude: "exclude",
  maxFileBytes: "maxFileBytes",
  maxChunkChars: "maxChunkChars",
  vectorQuantization: "quantization",
  knowledge: "knowledge",
};

/** The build settings an environment variable or wayfinder.json chose: a rebuild reads them again. */
function fromConfig(config: Config): BuildSettingName[] {
  return Object.entries(BUILD_OPTIONS)
    .filter(([key]) => ["env", "file"].includes(config.sources[key as SettingKey] ?? ""))
    .map(([, name]) => name);
}

/** The search options the flags ask for. */
export function searchOptions(config: Config): ConfiguredSearchOptions {
  const s = config.settings;
  const options: ConfiguredSearchOptions = {
    limit: s.limit,
    mode: s.mode,
    minScore: s.minScore,
    filter: { paths: s.path, types: s.type, languages: s.lang },
    // Naming a cross-encoder on the command line asks for reranking.
    rerank: s.rerank ??
      (config.sources.rerankerUrl === "flag" || config.sources.reranker === "flag"
        ? 50
        : undefined),
    diverse: s.diverse ? { lambda: s.lambda, fetchK: s.fetchK } : undefined,
    expand: s.expand,
    contextChars: s.contextChars,
    checkFresh: s.checkFresh,
    policy: {
      current: s.current,
      asOf: s.asOf,
      status: s.conceptStatus,
      conceptTypes: s.conceptType,
      pathPrefixes: s.pathPrefix,
      governing: parseGoverning(s.governing, originOf(config, "governing")),
      expandLinks: s.expandLinks,
      origins: { asOf: originOf(config, "asOf"), governing: originOf(config, "governing") },
    },
  };
  // A search checks it too; here `mcp` refuses a lone --as-of when it starts, not at each call.
  checkQualifiers(options.policy!);
  return options;
}

/**
 * The data root the settings give for a folder (flags, environment, that
 * folder's nearest wayfinder.json, default): where `get` run there caches
 * Profiles, so every command looks for them in the same place.
 */
export function dataRootAt(config: Config): (dir: string) => string {
  return (dir) => config.forTarget(dir, ["dataDir"]).settings.dataDir;
}
