/**
 * The Profile chain validate applies, read only from wayfinder.lock and the
 * cache `get` filled: never from the network. When either is missing or
 * stale the chain is unresolved, with the reason.
 */
import { dirname } from "node:path";
import type { ProfileChain } from "./apply_profile.ts";
import {
  configurationSha256,
  type Lock,
  type LockedPackage,
  type LockedProfile,
  lockPathOf,
  readLock,
} from "./lock_file.ts";
import { isCachedPackage, packageDir } from "./profile_cache.ts";
import { type ProfileParent, readProfilePackage } from "./profile_package.ts";
import { type Binding, type BoundProfile, gitLocation } from "./read_binding.ts";

/** A chain ready to apply, or why there is none. */
export type LockedChain = { ok: true; chain: ProfileChain; commit: string } | {
  ok: false;
  reason: string;
};

/**
 * Loads `bound`'s chain from the lock and cache.
 * @throws {WayfinderError} `config` when the lock or a cached package is malformed.
 */
export function lockedChain(binding: Binding, bound: BoundProfile, dataRoot: string): LockedChain {
  const lockFile = lockPathOf(binding.file);
  const project = dirname(binding.file);
  const unresolved = (why: string): LockedChain => ({
    ok: false,
    reason: `${why}; run 'wayfinder get ${project}'`,
  });
  const locked = lockedEntry(readLock(lockFile), lockFile, binding, bound);
  if (typeof locked === "string") return unresolved(locked);
  const entries = [locked, ...(locked.parents ?? [])];
  const packages = [];
  for (const [i, pkg] of entries.entries()) {
    const dir = packageDir(
      dataRoot,
      gitLocation(pkg.source, project),
      pkg.resolved_commit,
      pkg.path,
    );
    if (!isCachedPackage(dir)) {
      const at = pkg.resolved_commit.slice(0, 12);
      return unresolved(
        `Profile package '${pkg.path}' at ${at} is not in the cache under ${dataRoot}`,
      );
    }
    const read = readProfilePackage(dir);
    if (!isLockedParent(read.extends, pkg, entries[i + 1])) {
      return unresolved(
        `${lockFile} does not match the Profile packages: the chain of '${bound.name}' is not the one '${pkg.path}' extends`,
      );
    }
    packages.push(read);
  }
  return { ok: true, chain: { bound, packages }, commit: locked.resolved_commit };
}

/** The lock's entry for `bound`, or why the lock does not pin it as wayfinder.json binds it. */
function lockedEntry(
  lock: Lock | null,
  lockFile: string,
  binding: Binding,
  bound: BoundProfile,
): LockedProfile | string {
  if (!lock) return `Profile '${bound.name}' is not locked: there is no ${lockFile}`;
  if (lock.configuration_sha256 !== configurationSha256(binding)) {
    return `${lockFile} is stale: its configuration_sha256 does not match wayfinder.json`;
  }
  const locked = lock.profiles[bound.name];
  if (!locked) return `Profile '${bound.name}' is missing from ${lockFile}`;
  // The hash covers the binding, not the entry: a hand-edited entry must not pass for it.
  const { git, path } = bound.written;
  if (locked.source !== git || locked.path !== path || locked.requested_ref !== bound.source.ref) {
    return `${lockFile} does not match wayfinder.json: its entry for Profile '${bound.name}' names another source, ref or path`;
  }
  return locked;
}

/**
 * Whether `next` is the parent `extends` names as get pins it: the same
 * repository at the same commit when `extends` names no git, none when it
 * is not there.
 */
function isLockedParent(
  parent: ProfileParent | undefined,
  child: LockedPackage,
  next: LockedPackage | undefined,
): boolean {
  if (!parent || !next) return !parent && !next;
  if (next.path !== parent.path) return false;
  return parent.git === undefined
    ? next.source === child.source && next.resolved_commit === child.resolved_commit
    : next.source === parent.git;
}
