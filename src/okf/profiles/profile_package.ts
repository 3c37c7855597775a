/**
 * A Profile package: `wayfinder-profile.json` format 2. Identity, the
 * vocabulary it declares, an optional parent (`extends`), an optional
 * skill folder, and rules as data.
 */
import { readFileSync, realpathSync } from "node:fs";
import { join, relative } from "node:path";
import { oneLine, WayfinderError } from "../../error.ts";
import type { Severity } from "../conformance/mod.ts";
import type { VocabularyEntry } from "./read_binding.ts";

/** The file that makes a folder a Profile package. */
export const PROFILE_FILE = "wayfinder-profile.json";

/** A rule's check: a JSON Schema over a subject's facts, or a named builtin. */
export interface RuleCheck {
  subject?: string;
  /** Check each item of this list of the subject's facts instead of the subject. */
  each?: string;
  /** The item field named in messages for failing items (default `value`). */
  failing_field?: string;
  schema?: Record<string, unknown>;
  builtin?: string;
  params?: Record<string, unknown>;
}

/** One Profile rule. */
export interface ProfileRule {
  id: string;
  severity: Severity;
  description?: string;
  /** A template with {placeholders}, or templates by outcome (builtins). */
  message: string | Record<string, string>;
  check: RuleCheck;
  tests?: {
    slots?: Record<string, string[]>;
    valid?: unknown[];
    invalid?: unknown[];
  };
}

/** A parent named by a package: the same repository and commit unless `git` is given. */
export interface ProfileParent {
  path: string;
  git?: string;
  ref?: string;
}

/** A parsed Profile package. */
export interface ProfilePackage {
  id: string;
  release: string;
  docs?: string;
  /** Folder of the skill, relative to the package. */
  skill?: string;
  extends?: ProfileParent;
  types: VocabularyEntry[];
  tags: VocabularyEntry[];
  relationships: VocabularyEntry[];
  frontmatterKeys: VocabularyEntry[];
  defs: Record<string, unknown>;
  rules: ProfileRule[];
}

const SEVERITIES = ["error", "advisory", "note"];

/**
 * Reads the package in `dir`.
 * @throws {WayfinderError} `config` when the file is missing, not JSON, or not format 2.
 */
export function readProfilePackage(dir: string): ProfilePackage {
  const file = join(dir, PROFILE_FILE);
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new WayfinderError(
      "config",
      `Cannot read Profile '${file}': ${oneLine((error as Error).message)}`,
    );
  }
  const bad = (why: string) => new WayfinderError("config", `Invalid Profile '${file}': ${why}`);
  if (data?.format !== 2) {
    throw bad(`'format' must be 2, not ${JSON.stringify(data?.format ?? null)}`);
  }
  if (typeof data.id !== "string" || !data.id) throw bad("'id' must be a non-empty string");
  const rules = Array.isArray(data.rules) ? data.rules : [];
  for (const rule of rules) {
    const ok = typeof rule?.id === "string" && SEVERITIES.includes(rule.severity) &&
      typeof rule.check === "object" && (rule.check.schema || rule.check.builtin);
    if (!ok) {
      throw bad(`rule ${JSON.stringify(rule?.id ?? null)} needs an id, a severity and a check`);
    }
  }
  const skill = data.skill;
  if (
    skill !== undefined &&
    (typeof skill !== "string" || skill.startsWith("/") || skill.split("/").includes(".."))
  ) {
    throw bad("'skill' must be a folder inside the package");
  }
  if (skill !== undefined && leadsOutOf(dir, skill)) {
    throw bad(`'skill' leads out of the package through a link ('${skill}')`);
  }
  const ext = data.extends as ProfileParent | undefined;
  if (ext !== undefined && (typeof ext !== "object" || typeof ext.path !== "string")) {
    throw bad("'extends' must be {path, git?, ref?}");
  }
  return {
    id: data.id,
    release: String(data.release ?? ""),
    docs: typeof data.docs === "string" ? data.docs : undefined,
    skill: skill as string | undefined,
    extends: ext,
    types: list(data.types),
    tags: list(data.tags),
    relationships: list(data.relationships),
    frontmatterKeys: list(data.frontmatter_keys),
    defs: (data.$defs ?? {}) as Record<string, unknown>,
    rules: rules as ProfileRule[],
  };
}

/** Whether `path` in `dir` exists and, links followed, is not inside `dir`. */
function leadsOutOf(dir: string, path: string): boolean {
  let real: string;
  try {
    real = realpathSync(join(dir, path));
  } catch {
    return false; // Not there: the package ships no skill.
  }
  const inside = relative(realpathSync(dir), real);
  return inside === ".." || inside.startsWith("../");
}

function list(value: unknown): VocabularyEntry[] {
  return Array.isArray(value) ? value.filter((v) => typeof v?.name === "string") : [];
}
