/**
 * The `wayfinder index <root> … --rebuild` command a stale-index error names
 * as its fix, with the flags that make the rebuild build what the failing
 * run asked for. A rebuild discards the index and its recorded settings, so
 * the command repeats what the caller chose itself (the command line) and
 * what came only from the record; what an environment variable or
 * wayfinder.json chose is read again by the rebuild and not repeated.
 */
import type { RebuildFix } from "../hints.ts";
import type { RecordedSettings } from "../store/mod.ts";
import { BUILD_DEFAULTS } from "../build_defaults.ts";
import type { IndexSettings } from "./corpus_settings.ts";
import type { EmbedderSettings } from "./open_models.ts";

/** The build settings a caller can choose, by their option names. */
export type BuildSettingName =
  | "provider"
  | "model"
  | "url"
  | "longInput"
  | "staticShare"
  | "include"
  | "exclude"
  | "maxFileBytes"
  | "maxChunkChars"
  | "quantization"
  | "knowledge";

/** Each build setting's `index` flag and the value a rebuild takes when nothing chooses it. */
const FLAGS: Record<Exclude<BuildSettingName, "knowledge">, { flag: string; default?: unknown }> = {
  provider: { flag: "--embedder", default: BUILD_DEFAULTS.provider },
  url: { flag: "--embedder-url" },
  model: { flag: "--model" },
  longInput: { flag: "--long-input", default: BUILD_DEFAULTS.longInput },
  staticShare: { flag: "--static-share", default: BUILD_DEFAULTS.staticShare },
  include: { flag: "--include", default: BUILD_DEFAULTS.include },
  exclude: { flag: "--exclude", default: BUILD_DEFAULTS.exclude },
  maxFileBytes: { flag: "--max-file-bytes", default: BUILD_DEFAULTS.maxFileBytes },
  maxChunkChars: { flag: "--max-chunk-chars", default: BUILD_DEFAULTS.maxChunkChars },
  quantization: { flag: "--quantization", default: BUILD_DEFAULTS.quantization },
};

/** What the failing run was given and what the index recorded. */
export interface RebuildInput {
  root: string;
  chosen: { embedder: EmbedderSettings; index: IndexSettings };
  /** Chosen settings that came from an environment variable or wayfinder.json. */
  fromConfig?: readonly BuildSettingName[];
  recorded: RecordedSettings | undefined;
  /** The root's index.md declares okf_version: a rebuild indexes it as a bundle unasked. */
  looksLikeBundle: boolean;
}

/**
 * `wayfinder index <root> [flags] --rebuild` (one line, values quoted where a
 * shell needs it), and its flags that only the record gave: what a
 * rebuild from the caller's own settings alone (the MCP `index` tool's, a
 * library's `index({ rebuild: true })`) does not keep.
 */
export function rebuildFix(input: RebuildInput): RebuildFix {
  const flags = rebuildFlags(input);
  const words = (chosen: Flag[]) =>
    chosen.flatMap(([flag, value]) => value === undefined ? [flag] : [flag, shellWord(value)]);
  return {
    command: ["wayfinder", "index", shellWord(input.root), ...words(flags), "--rebuild"].join(" "),
    recorded: words(flags.filter(([, , recorded]) => recorded)).join(" "),
  };
}

/** A flag, its value (none for a switch), and whether only the record gave it. */
type Flag = [flag: string, value: string | undefined, recorded: boolean];

function rebuildFlags(input: RebuildInput): Flag[] {
  const { chosen, recorded } = input;
  const fromConfig = new Set(input.fromConfig ?? []);
  const e = chosen.embedder;
  // The recorded model and URL belong to the recorded provider only.
  const sameProvider = e.provider === undefined || e.provider === recorded?.embedder.provider;
  const mine: Record<string, unknown> = {
    provider: e.provider,
    url: e.url,
    model: e.model,
    longInput: e.longInput,
    staticShare: e.staticShare,
    ...chosen.index,
  };
  const theirs: Record<string, unknown> = {
    ...recorded,
    provider: recorded?.embedder.provider,
    url: sameProvider ? recorded?.embedder.url : undefined,
    model: sameProvider ? recorded?.embedder.model : undefined,
    staticShare: sameProvider ? recorded?.embedder.staticShare : undefined,
  };
  const flags: Flag[] = [];
  const push = (flag: string, value: unknown, fromRecord: boolean) => {
    if (!Array.isArray(value)) flags.push([flag, String(value), fromRecord]);
    // An empty list chosen on purpose (`--include ''`) clears one wayfinder.json gives.
    else if (value.length === 0) flags.push([flag, "", fromRecord]);
    else for (const item of value) flags.push([flag, String(item), fromRecord]);
  };
  for (const [name, { flag, default: fallback }] of Object.entries(FLAGS)) {
    if (mine[name] !== undefined) {
      // The caller's own choice is repeated, even a default: it may override the environment.
      if (!fromConfig.has(name as BuildSettingName)) push(flag, mine[name], false);
      continue;
    }
    const value = theirs[name];
    if (value !== undefined && JSON.stringify(value) !== JSON.stringify(fallback)) {
      push(flag, value, true);
    }
  }
  const knowledge = knowledgeFlag(input, fromConfig.has("knowledge"));
  if (knowledge) flags.push([knowledge.flag, undefined, knowledge.recorded]);
  return flags;
}

/** `--knowledge` or `--no-knowledge` when a rebuild would otherwise decide otherwise. */
function knowledgeFlag(
  input: RebuildInput,
  fromConfig: boolean,
): { flag: string; recorded: boolean } | undefined {
  const { recorded, looksLikeBundle } = input;
  const mine = input.chosen.index.knowledge;
  if (mine !== undefined) {
    return fromConfig
      ? undefined
      : { flag: mine ? "--knowledge" : "--no-knowledge", recorded: false };
  }
  if (recorded?.knowledgeOff && looksLikeBundle) return { flag: "--no-knowledge", recorded: true };
  if (!recorded?.knowledgeOff && recorded?.knowledge && !looksLikeBundle) {
    return { flag: "--knowledge", recorded: true };
  }
  return undefined;
}

/** A value as a shell word: as it is when it is plain, else in double quotes. */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : JSON.stringify(value);
}
