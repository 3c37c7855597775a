/**
 * The one configuration module every subcommand reads settings through.
 * @module
 */
export { defaultThreads, type Setting, type SettingKey, SETTINGS } from "./settings.ts";
export { type CommandSpec, helpText, type ParsedFlags, parseFlags } from "./parse_flags.ts";
export {
  type Config,
  findConfigFile,
  resolveConfig,
  type ResolveOptions,
  type Settings,
  type SettingSource,
} from "./resolve_config.ts";
