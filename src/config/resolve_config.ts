import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { oneLine, WayfinderError } from "../error.ts";
import type { ParsedFlags } from "./parse_flags.ts";
import { dataRootFrom } from "./data_root.ts";
import { type Setting, type SettingKey, SETTINGS } from "./settings.ts";
import { BUILD_DEFAULTS } from "../build_defaults.ts";

/** Where a setting's value came from, for messages like "model (from WAYFINDER_EMBEDDING_MODEL)". */
export type SettingSource = "flag" | "env" | "file" | "default";

type SettingOf<K extends SettingKey> = (typeof SETTINGS)[K];
type ValueOf<K extends SettingKey> = SettingOf<K>["type"] extends "bool" ? boolean
  : SettingOf<K>["type"] extends "int" | "number" ? number
  : SettingOf<K>["type"] extends "list" ? string[]
  : SettingOf<K> extends { choices: readonly (infer C)[] } ? C
  : string;

/** Every setting, resolved. Settings without a default may be undefined. */
export type Settings = {
  [K in SettingKey]: SettingOf<K> extends { default: unknown } | { computed: true } ? ValueOf<K>
    : ValueOf<K> | undefined;
};

/** The frozen result of merging flags, environment, wayfinder.json and defaults. */
export interface Config {
  settings: Readonly<Settings>;
  sources: Readonly<Partial<Record<SettingKey, SettingSource>>>;
  positionals: readonly string[];
  /** The nearest wayfinder.json at or above the target, if any. */
  configFile: string | null;
  /** The directory that relative paths in wayfinder.json resolve against. */
  configDir: string | null;
  /** The project root for commands that take one, else the working directory. */
  target: string;
  /** Things to tell the user about wayfinder.json on stderr, once per run (unknown keys). */
  warnings: readonly string[];
  /**
   * The same flags and environment over the wayfinder.json nearest another
   * target: what a command serving several roots reads for each. `keys`
   * narrows it to the settings wanted (default: the command's own).
   */
  forTarget(target: string, keys?: readonly SettingKey[]): Config;
}

export interface ResolveOptions {
  env: Record<string, string | undefined>;
  cwd: string;
  /** Directory to start looking for wayfinder.json from (the command's root argument). */
  target?: string;
}

const CONFIG_FILE = "wayfinder.json";

/** Top-level keys wayfinder.json may hold: the Profile binding's, then each setting's section. */
export const KNOWN_TOP_LEVEL_KEYS: readonly string[] = [
  "$schema",
  "version",
  "profiles",
  ...new Set(
    Object.values(SETTINGS as Record<string, Setting>).flatMap((s) =>
      s.file ? [s.file.split(".")[0]!] : []
    ),
  ),
];

/** Dotted wayfinder.json keys of every setting, and the sections they sit in. */
const FILE_KEYS: readonly string[] = Object.values(SETTINGS as Record<string, Setting>)
  .flatMap((s) => s.file ? [s.file] : []);
const SECTIONS = new Set(FILE_KEYS.filter((k) => k.includes(".")).map((k) => k.split(".")[0]!));

/**
 * One warning per key nothing reads, at the top level or inside a settings
 * section: a typo there must not pass unnoticed.
 */
function unknownKeyWarnings(path: string, data: Record<string, unknown>): string[] {
  const warnings: string[] = [];
  const warn = (what: string, key: string, known: readonly string[]) =>
    warnings.push(
      `Unknown ${what} '${key}' in '${path}': wayfinder does not read it${didYouMean(key, known)}`,
    );
  for (const [key, value] of Object.entries(data)) {
    if (!KNOWN_TOP_LEVEL_KEYS.includes(key)) warn("top-level key", key, KNOWN_TOP_LEVEL_KEYS);
    else if (SECTIONS.has(key) && typeof value === "object" && value && !Array.isArray(value)) {
      for (const inner of Object.keys(value)) {
        if (!FILE_KEYS.includes(`${key}.${inner}`)) warn("key", `${key}.${inner}`, FILE_KEYS);
      }
    }
  }
  return warnings;
}

/** "; did you mean 'x'?" for a known word at most two edits away, else "". */
function didYouMean(word: string, known: readonly string[]): string {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of known) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best === undefined ? "" : `; did you mean '${best}'?`;
}

/** Levenshtein distance: insertions, deletions and substitutions. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(
        previous[j]! + 1,
        row[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = row;
  }
  return previous[b.length]!;
}

/** Walks up from `start` to the filesystem root and returns the first wayfinder.json. */
export function findConfigFile(start: string): string | null {
  let dir = resolve(start);
  if (existsSync(dir) && !statSync(dir).isDirectory()) dir = dirname(dir);
  for (;;) {
    const candidate = join(dir, CONFIG_FILE);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

function readConfigFile(path: string): Record<string, unknown> {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new WayfinderError(
      "config",
      `Cannot read config '${path}': ${oneLine((error as Error).message)}`,
    );
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new WayfinderError("config", `Cannot read config '${path}': expected a JSON object`);
  }
  return data as Record<string, unknown>;
}

function lookup(data: Record<string, unknown>, dotted: string): unknown {
  let value: unknown = data;
  for (const part of dotted.split(".")) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function convert(key: SettingKey, raw: unknown, origin: string, baseDir: string): unknown {
  const s: Setting = SETTINGS[key];
  const bad = (why: string) =>
    new WayfinderError(
      origin.startsWith("wayfinder.json") ? "config" : "usage",
      `Invalid value ${JSON.stringify(raw)} for ${origin}: ${why}`,
    );
  switch (s.type) {
    case "bool":
      if (typeof raw === "boolean") return raw;
      if (/^(1|true|yes)$/i.test(String(raw))) return true;
      if (/^(0|false|no)$/i.test(String(raw))) return false;
      throw bad("expected true or false");
    case "int":
    case "number": {
      const text = String(raw).trim();
      const n = typeof raw === "number" ? raw : Number(text);
      // Decimal only: Number() would also take 0x10 and 0b1.
      const decimal = typeof raw === "number" || s.type === "int" ||
        /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text);
      if (text === "" || !Number.isFinite(n) || !decimal) throw bad("expected a number");
      if (s.type === "number" && s.min !== undefined && n < s.min) {
        throw bad(`expected at least ${s.min}`);
      }
      if (s.type === "int") {
        const min = s.min ?? 0;
        // Decimal digits only: Number() would also take 0x10 and 1e2.
        if (!Number.isInteger(n) || n < min || (typeof raw === "string" && !/^\d+$/.test(text))) {
          throw bad(`expected a whole number ≥ ${min}`);
        }
      }
      if (s.max !== undefined && n > s.max) throw bad(`expected at most ${s.max}`);
      return n;
    }
    case "list": {
      // A JSON object in wayfinder.json lists its pairs as key=value ("knowledge.governing").
      const list = Array.isArray(raw)
        ? raw.map(String)
        : typeof raw === "object" && raw !== null
        ? Object.entries(raw).map(([key, value]) => `${key}=${value}`)
        : String(raw).split(",").map((v) => v.trim()).filter(Boolean);
      return s.paths ? list.map((item) => resolve(baseDir, item)) : list;
    }
    case "choice": {
      const value = s.aliases?.[String(raw)] ?? String(raw);
      if (!s.choices!.includes(value)) throw bad(`expected one of ${s.choices!.join(", ")}`);
      return value;
    }
    case "path":
      if (typeof raw !== "string" || raw === "") throw bad("expected a path");
      return resolve(baseDir, raw);
    case "store":
      if (typeof raw !== "string" || raw === "") throw bad("expected a folder or a store URL");
      return resolveStoreUrl(raw, baseDir, bad);
    default:
      if (typeof raw !== "string" || raw === "") throw bad("expected text");
      return raw;
  }
}

/** Where a setting's value came from, in the words a message should use. */
export function originOf(config: Config, key: SettingKey): string | undefined {
  const s: Setting = SETTINGS[key];
  switch (config.sources[key]) {
    case "flag":
      return `--${s.flag}`;
    case "env":
      return s.env;
    case "file":
      return `wayfinder.json '${s.file}'`;
    default:
      return undefined;
  }
}

/**
 * The value of a setting the user chose (by flag, variable or file), or
 * undefined when it is only the default: lets settings recorded in an index
 * win over defaults but not over a choice.
 */
export function chosen<K extends SettingKey>(config: Config, key: K): Settings[K] | undefined {
  return config.sources[key] === "default" ? undefined : config.settings[key];
}

/**
 * Fills the defaults that depend on the machine, the environment or another
 * setting, so no caller re-derives them: the data root and a llama model path made absolute against where it was written (the
 * working directory for a flag or variable, wayfinder.json's folder for the file).
 */
function computeDefaults(
  settings: Record<string, unknown>,
  sources: Partial<Record<SettingKey, SettingSource>>,
  options: ResolveOptions,
  configDir: string | null,
): void {
  if ("dataDir" in settings && settings.dataDir === undefined) {
    settings.dataDir = dataRootFrom(options.env);
    sources.dataDir = "default";
  }
  // In-process models are files, found from where they were named; HTTP models are names.
  const provider = settings.embedder ?? BUILD_DEFAULTS.provider;
  if (typeof settings.model === "string" && (provider === "llama" || provider === "static")) {
    settings.model = resolve(sources.model === "file" ? configDir! : options.cwd, settings.model);
  }
}

/** A flag given without the one it qualifies would be silently ignored: refuse it. */
function refuseLoneQualifiers(
  keys: readonly SettingKey[],
  settings: Record<string, unknown>,
  sources: Partial<Record<SettingKey, SettingSource>>,
): void {
  for (const key of keys) {
    const setting: Setting = SETTINGS[key];
    const needs = setting.qualifies as SettingKey | undefined;
    if (needs && keys.includes(needs) && sources[key] === "flag" && !settings[needs]) {
      throw new WayfinderError(
        "usage",
        `--${setting.flag} applies only with --${SETTINGS[needs].flag}`,
      );
    }
  }
}

/** Two flags that do one job two ways leave no way to tell which the user meant. */
function refuseAlternatives(
  keys: readonly SettingKey[],
  sources: Partial<Record<SettingKey, SettingSource>>,
): void {
  for (const key of keys) {
    const setting: Setting = SETTINGS[key];
    const other = setting.alternativeTo as SettingKey | undefined;
    if (other && sources[key] === "flag" && sources[other] === "flag") {
      throw new WayfinderError(
        "usage",
        `--${setting.flag} and --${SETTINGS[other].flag} are alternatives; pass one`,
      );
    }
  }
}

/**
 * Merges one command's settings: flags > environment > nearest
 * wayfinder.json at or above the target > defaults. Values are checked and
 * converted here, so commands receive typed, validated settings.
 */
export function resolveConfig(
  keys: readonly SettingKey[],
  flags: ParsedFlags,
  options: ResolveOptions,
): Config {
  const target = resolve(options.cwd, options.target ?? ".");
  const configFile = findConfigFile(target);
  const fileData = configFile ? readConfigFile(configFile) : {};
  const configDir = configFile ? dirname(configFile) : null;
  const settings: Record<string, unknown> = {};
  const sources: Partial<Record<SettingKey, SettingSource>> = {};
  for (const key of keys) {
    const s: Setting = SETTINGS[key];
    const fromFlag = flags.values[key];
    const fromEnv = s.env ? options.env[s.env] : undefined;
    const fromFile = s.file ? lookup(fileData, s.file) : undefined;
    if (fromFlag !== undefined) {
      settings[key] = convert(key, fromFlag, `--${s.flag}`, options.cwd);
      sources[key] = "flag";
    } else if (fromEnv !== undefined && fromEnv !== "") {
      settings[key] = convert(key, fromEnv, s.env!, options.cwd);
      sources[key] = "env";
    } else if (fromFile !== undefined && fromFile !== null) {
      settings[key] = convert(key, fromFile, `wayfinder.json '${s.file}'`, configDir!);
      sources[key] = "file";
    } else {
      settings[key] = Array.isArray(s.default) ? [...s.default] : s.default;
      if (s.default !== undefined) sources[key] = "default";
    }
  }
  computeDefaults(settings, sources, options, configDir);
  refuseLoneQualifiers(keys, settings, sources);
  refuseAlternatives(keys, sources);
  return Object.freeze({
    settings: Object.freeze(settings) as unknown as Settings,
    sources: Object.freeze(sources),
    positionals: Object.freeze([...flags.positionals]),
    configFile,
    configDir,
    target,
    warnings: Object.freeze(configFile ? unknownKeyWarnings(configFile, fileData) : []),
    forTarget: (other: string, only = keys) =>
      resolveConfig(only, flags, { ...options, target: other }),
  });
}

/**
 * A store URL with its file part resolved like a "path": a folder, or
 * `orama:FILE`, against the folder the setting was written in; a
 * `postgres://` URL as it is. Any other scheme is refused.
 */
function resolveStoreUrl(raw: string, baseDir: string, bad: (why: string) => Error): string {
  if (/^postgres(?:ql)?:\/\//i.test(raw)) return raw;
  if (/^orama:/i.test(raw)) {
    const file = raw.slice("orama:".length);
    if (file === "") throw bad("expected orama:FILE");
    return `orama:${resolve(baseDir, file)}`;
  }
  if (/^file:\/\//i.test(raw)) return fileURLToPath(raw);
  // A scheme of two letters or more; one letter is a Windows drive.
  if (/^[a-z][a-z0-9+.-]+:/i.test(raw)) {
    throw bad("expected a folder, postgres://… or orama:FILE");
  }
  return resolve(baseDir, raw);
}
