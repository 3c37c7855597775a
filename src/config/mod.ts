/**
 * The one configuration module every subcommand reads settings through.
 * @module
 */
export { type DataEnv, dataRootFrom } from "./data_root.ts";
export { defaultThreads } from "./default_threads.ts";
export { type Setting, type SettingKey, SETTINGS } from "./settings.ts";
export { processDataRoot } from "./process_data_root.ts";
export { type CommandSpec, helpText, type ParsedFlags, parseFlags } from "./parse_flags.ts";
export {
  chosen,
  type Config,
  findConfigFile,
  KNOWN_TOP_LEVEL_KEYS,
  originOf,
  resolveConfig,
  type ResolveOptions,
  type Settings,
  type SettingSource,
} from "./resolve_config.ts";
