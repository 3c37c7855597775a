/**
 * `wayfinder.lock`, written by `get` beside wayfinder.json: the commit each
 * bound Profile (and each parent in its chain) resolved to, and a hash of
 * the binding's sources so a changed binding is noticed.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { oneLine, WayfinderError } from "../../error.ts";
import type { Binding } from "./read_binding.ts";

/** One package pinned to a commit. */
export interface LockedPackage {
  profile_id: string;
  profile_release: string;
  /** The git source as wayfinder.json (or the child package) writes it. */
  source: string;
  path: string;
  resolved_commit: string;
}

/** A bound Profile pinned: the package itself, then its parents nearest first. */
export interface LockedProfile extends LockedPackage {
  requested_ref: string;
  parents: LockedPackage[];
}

/** The lock file's content. */
export interface Lock {
  lock_version: 1;
  configuration_sha256: string;
  profiles: Record<string, LockedProfile>;
}

/** The lock file that belongs to a wayfinder.json. */
export function lockPathOf(configFile: string): string {
  return join(dirname(configFile), "wayfinder.lock");
}

/**
 * sha256 of the binding's sources as written, in canonical JSON (sorted
 * keys). It covers what decides what `get` fetches; editing a project's
 * vocabulary or actors leaves the lock current.
 */
export function configurationSha256(binding: Binding): string {
  const sources = Object.fromEntries(binding.profiles.map((p) => [p.name, p.written]));
  return createHash("sha256").update(canonicalJson({ version: binding.version, profiles: sources }))
    .digest("hex");
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** A lock as read from disk: the lock (null when there is none), or why it cannot be used. */
export type LockRead = { ok: true; lock: Lock | null } | { ok: false; problem: string };

/** Reads a lock without throwing for its content, so `get` can replace a bad one. */
export function loadLock(path: string): LockRead {
  if (!existsSync(path)) return { ok: true, lock: null };
  let data;
  try {
    data = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    return { ok: false, problem: oneLine((error as Error).message) };
  }
  if (
    data?.lock_version !== 1 || typeof data.configuration_sha256 !== "string" ||
    !isObject(data.profiles)
  ) {
    return { ok: false, problem: "not a lock_version 1 file" };
  }
  for (const [name, entry] of Object.entries(data.profiles)) {
    const problem = profileProblem(`profiles.${name}`, entry);
    if (problem) return { ok: false, problem };
  }
  return { ok: true, lock: data as Lock };
}

// In the order validate reads them, so the first gap named is the one that mattered.
const PACKAGE_FIELDS = ["source", "path", "profile_id", "profile_release"] as const;
/** A git object name: sha-1, or sha-256 in a sha-256 repository. */
const COMMIT = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** What is wrong with a locked Profile entry (the fields validate and get read), if anything. */
function profileProblem(where: string, entry: unknown): string | null {
  const own = packageProblem(where, entry);
  if (own) return own;
  const { requested_ref, parents } = entry as Record<string, unknown>;
  if (typeof requested_ref !== "string") return `${where} lacks a string 'requested_ref'`;
  if (parents === undefined) return null;
  if (!Array.isArray(parents)) return `${where}.parents is not a list`;
  for (const [i, parent] of parents.entries()) {
    const problem = packageProblem(`${where}.parents[${i}]`, parent);
    if (problem) return problem;
  }
  return null;
}

function packageProblem(where: string, entry: unknown): string | null {
  if (!isObject(entry)) return `${where} is not an object`;
  for (const field of PACKAGE_FIELDS) {
    if (typeof entry[field] !== "string" || entry[field] === "") {
      return `${where} lacks a string '${field}'`;
    }
    if (field === "path" && !COMMIT.test(String(entry.resolved_commit))) {
      return `${where} lacks a 'resolved_commit' (a full hex commit id)`;
    }
  }
  return null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Reads a lock, or null when there is none.
 * @throws {WayfinderError} `config` when the file is not a well-formed version 1 lock.
 */
export function readLock(path: string): Lock | null {
  const read = loadLock(path);
  if (!read.ok) {
    throw new WayfinderError(
      "config",
      `Cannot read lock '${path}': ${read.problem}; run 'wayfinder get' to rewrite it`,
    );
  }
  return read.lock;
}

/** The lock as written to disk: pretty JSON with a final newline. */
export function lockText(lock: Lock): string {
  return JSON.stringify(lock, null, 2) + "\n";
}

/** Writes the lock unless the file already holds exactly this text. Returns true when it wrote. */
export function writeLock(path: string, lock: Lock): boolean {
  const text = lockText(lock);
  if (existsSync(path) && readFileSync(path, "utf8") === text) return false;
  try {
    writeFileSync(path, text);
  } catch (error) {
    throw new WayfinderError("io", `Cannot write '${path}': ${(error as Error).message}`);
  }
  return true;
}
