/**
 * The `wayfinder index <root> … --rebuild` command a stale-index error names
 * as its fix, with the flags that make the rebuild build what the failing
 * run asked for. A rebuild discards the index and its recorded settings, so
 * the command repeats what the caller chose itself (the command line) and
 * what came only from the record; what an environment variable or
 * wayfinder.json chose is read again by the rebuild and not repeated.
 */
import type { RecordedSettings } from "../store/mod.ts";
import type { IndexSettings } from "./corpus_settings.ts";
import type { EmbedderSettings } from "./open_models.ts";

/** The build settings a caller can choose, by their option names. */
export type BuildSettingName =
  | "provider"
  | "model"
  | "url"
  | "longInput"
  | "include"
  | "exclude"
  | "maxFileBytes"
  | "maxChunkChars"
  | "quantization"
  | "knowledge";

/** Each build setting's `index` flag and the value a rebuild takes when nothing chooses it. */
const FLAGS: Record<Exclude<BuildSettingName, "knowledge">, { flag: string; default?: unknown }> = {
  provider: { flag: "--embedder", default: "llama" },
  url: { flag: "--embedder-url" },
  model: { flag: "--model" },
  longInput: { flag: "--long-input", default: "reject" },
  include: { flag: "--include", default: [] },
  exclude: { flag: "--exclude", default: [] },
  maxFileBytes: { flag: "--max-file-bytes", default: 1_048_576 },
  maxChunkChars: { flag: "--max-chunk-chars", default: 1500 },
  quantization: { flag: "--quantization", default: "none" },
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

/** `wayfinder index <root> [flags] --rebuild`, one line, values quoted where a shell needs it. */
export function rebuildCommand(input: RebuildInput): string {
  const words = ["wayfinder", "index", shellWord(input.root)];
  for (const [flag, value] of rebuildFlags(input)) {
    words.push(flag);
    if (value !== undefined) words.push(shellWord(value));
  }
  return [...words, "--rebuild"].join(" ");
}

/** The flags, each with its value (none for a switch). */
function rebuildFlags(input: RebuildInput): [string, string?][] {
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
    ...chosen.index,
  };
  const theirs: Record<string, unknown> = {
    ...recorded,
    provider: recorded?.embedder.provider,
    url: sameProvider ? recorded?.embedder.url : undefined,
    model: sameProvider ? recorded?.embedder.model : undefined,
  };
  const flags: [string, string?][] = [];
  const push = (flag: string, value: unknown) => {
    if (!Array.isArray(value)) flags.push([flag, String(value)]);
    // An empty list chosen on purpose (`--include ''`) clears one wayfinder.json gives.
    else if (value.length === 0) flags.push([flag, ""]);
    else for (const item of value) flags.push([flag, String(item)]);
  };
  for (const [name, { flag, default: fallback }] of Object.entries(FLAGS)) {
    if (mine[name] !== undefined) {
      // The caller's own choice is repeated, even a default: it may override the environment.
      if (!fromConfig.has(name as BuildSettingName)) push(flag, mine[name]);
      continue;
    }
    const value = theirs[name];
    if (value !== undefined && JSON.stringify(value) !== JSON.stringify(fallback)) {
      push(flag, value);
    }
  }
  const knowledge = knowledgeFlag(input, fromConfig.has("knowledge"));
  if (knowledge) flags.push([knowledge]);
  return flags;
}

/** `--knowledge` or `--no-knowledge` when a rebuild would otherwise decide otherwise. */
function knowledgeFlag(input: RebuildInput, fromConfig: boolean): string | undefined {
  const { recorded, looksLikeBundle } = input;
  const mine = input.chosen.index.knowledge;
  if (mine !== undefined) return fromConfig ? undefined : mine ? "--knowledge" : "--no-knowledge";
  if (recorded?.knowledgeOff && looksLikeBundle) return "--no-knowledge";
  if (!recorded?.knowledgeOff && recorded?.knowledge && !looksLikeBundle) return "--knowledge";
  return undefined;
}

/** A value as a shell word: as it is when it is plain, else in double quotes. */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : JSON.stringify(value);
}
