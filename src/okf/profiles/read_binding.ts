/**
 * The Profile binding in `wayfinder.json`: `{"version": 1, "profiles": {name:
 * {source: {git, ref, path}, applies_to, types, tags, relationships,
 * actors}}}`. The same file holds this tool's own settings; any other
 * top-level key is returned as unknown so callers can report it.
 */
import { readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import { KNOWN_TOP_LEVEL_KEYS } from "../../config/mod.ts";
import { oneLine, WayfinderError } from "../../error.ts";

/** A named, described vocabulary entry (a type, tag or relationship name). */
export interface VocabularyEntry {
  name: string;
  description?: string;
}

/** Where a Profile package lives: a git repository, a ref in it, a folder in that. */
export interface ProfileSource {
  /** A URL, or an absolute path (relative paths in the file resolve against its folder). */
  git: string;
  ref: string;
  path: string;
}

/** One bound Profile with the project's own vocabulary. */
export interface BoundProfile {
  name: string;
  source: ProfileSource;
  /** The source exactly as the file writes it (what the lock records and hashes). */
  written: { git: string; ref?: string; path: string };
  /** Absolute bundle directories the Profile governs, never none; `["."]` (the project folder) when left out. */
  appliesTo: string[];
  /** `applies_to` entries, as written, that name no existing folder: the Profile governs nothing there. */
  missingFolders: string[];
  types: VocabularyEntry[];
  tags: VocabularyEntry[];
  relationships: VocabularyEntry[];
  /** Actor id → record; an actor counts as declared when its record has a non-empty name. */
  actors: Record<string, Record<string, unknown>>;
}

/** The binding part of a wayfinder.json. */
export interface Binding {
  file: string;
  version: 1;
  profiles: BoundProfile[];
  /** Top-level keys neither the binding nor the tool's settings define. */
  unknownKeys: string[];
  /** The raw file text, for locating keys in messages. */
  text: string;
}

/**
 * Reads the binding from `file`. A file without `profiles` binds nothing
 * (its `profiles` list is empty) but still reports unknown keys.
 * @throws {WayfinderError} `config` when the file is not JSON or the binding is malformed.
 */
export function readBinding(file: string): Binding {
  const { text, data } = readConfigJson(file);
  const bad = (why: string) =>
    new WayfinderError("config", `Invalid Profile binding in '${file}': ${why}`);
  if (!isObject(data)) throw bad("expected a JSON object");
  const unknownKeys = Object.keys(data).filter((k) => !KNOWN_TOP_LEVEL_KEYS.includes(k));
  if (data.profiles === undefined) return { file, version: 1, profiles: [], unknownKeys, text };
  if (data.version !== 1) {
    throw bad(`'version' must be 1, not ${JSON.stringify(data.version ?? null)}`);
  }
  if (!isObject(data.profiles)) throw bad("'profiles' must be an object of named Profiles");
  const dir = dirname(file);
  const profiles = Object.entries(data.profiles).map(([name, raw]) =>
    boundProfile(name, raw, dir, bad)
  );
  return { file, version: 1, profiles, unknownKeys, text };
}

/**
 * Whether `file` has a `profiles` key, even an empty one: a file that binds,
 * as opposed to one holding only this tool's settings.
 * @throws {WayfinderError} `config` when the file is not JSON.
 */
export function hasBinding(file: string): boolean {
  const { data } = readConfigJson(file);
  return isObject(data) && data.profiles !== undefined;
}

function readConfigJson(file: string): { text: string; data: unknown } {
  try {
    const text = readFileSync(file, "utf8");
    return { text, data: JSON.parse(text) };
  } catch (error) {
    throw new WayfinderError(
      "config",
      `Cannot read config '${file}': ${oneLine((error as Error).message)}`,
    );
  }
}

/** Keys a profile entry and its source may hold; a typo must not silently bind nothing. */
const PROFILE_KEYS = ["source", "applies_to", "types", "tags", "relationships", "actors"];
const SOURCE_KEYS = ["git", "ref", "path"];

function boundProfile(
  name: string,
  raw: unknown,
  dir: string,
  bad: (why: string) => WayfinderError,
): BoundProfile {
  if (!isObject(raw)) throw bad(`profiles.${name} must be an object`);
  rejectUnknownKeys(raw, PROFILE_KEYS, `profiles.${name}`, bad);
  const source = raw.source;
  if (!isObject(source) || !isText(source.git) || !isText(source.path)) {
    throw bad(`profiles.${name}.source needs 'git' and 'path' strings`);
  }
  rejectUnknownKeys(source, SOURCE_KEYS, `profiles.${name}.source`, bad);
  if (source.ref !== undefined && !isText(source.ref)) {
    throw bad(`profiles.${name}.source.ref must be a non-empty string`);
  }
  // Left out, a Profile governs the bundle in the project folder itself.
  const appliesTo = raw.applies_to ?? ["."];
  if (!Array.isArray(appliesTo) || !appliesTo.every(isText)) {
    throw bad(`profiles.${name}.applies_to must be a list of folders`);
  }
  if (appliesTo.length === 0) {
    // An empty list would bind a Profile that governs nothing, silently.
    throw bad(
      `profiles.${name}.applies_to is empty: name the bundle folders it governs, or leave it out for the project folder`,
    );
  }
  const actors = raw.actors ?? {};
  if (!isObject(actors) || !Object.values(actors).every(isObject)) {
    throw bad(`profiles.${name}.actors must map actor ids to records`);
  }
  return {
    name,
    source: {
      git: gitLocation(source.git, dir),
      ref: (source.ref as string | undefined) ?? "HEAD",
      path: source.path,
    },
    written: {
      git: source.git,
      ...(source.ref === undefined ? {} : { ref: source.ref as string }),
      path: source.path,
    },
    appliesTo: appliesTo.map((p) => resolve(dir, p)),
    missingFolders: appliesTo.filter((p) => !isDirectory(resolve(dir, p))),
    types: vocabulary(raw.types, `profiles.${name}.types`, bad),
    tags: vocabulary(raw.tags, `profiles.${name}.tags`, bad),
    relationships: vocabulary(raw.relationships, `profiles.${name}.relationships`, bad),
    actors: actors as Record<string, Record<string, unknown>>,
  };
}

function rejectUnknownKeys(
  entry: Record<string, unknown>,
  known: string[],
  where: string,
  bad: (why: string) => WayfinderError,
): void {
  const key = Object.keys(entry).find((k) => !known.includes(k));
  if (key === undefined) return;
  const near = known.find((k) => k === key.replaceAll("-", "_").toLowerCase());
  const hint = near ? `; did you mean '${near}'?` : `; expected ${known.join(", ")}`;
  throw bad(`${where} has an unknown key '${key}'${hint}`);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function vocabulary(
  value: unknown,
  where: string,
  bad: (why: string) => WayfinderError,
): VocabularyEntry[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((v) => isObject(v) && isText(v.name))) {
    throw bad(`${where} must be a list of {name, description} entries`);
  }
  return value as VocabularyEntry[];
}

/** URLs and scp-style remotes stay as written; a local path resolves against the binding's folder. */
export function gitLocation(git: string, dir: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(git) || /^[^/]+@[^/]+:/.test(git)) return git;
  return isAbsolute(git) ? git : resolve(dir, git);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isText(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "";
}
