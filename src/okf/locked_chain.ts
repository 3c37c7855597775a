/**
 * The Profile chain validate applies, read only from wayfinder.lock and the
 * cache `get` filled: never from the network. When either is missing or
 * stale the chain is unresolved, with the reason.
 */
import { dirname } from "node:path";
import type { ProfileChain } from "./apply_profile.ts";
import { configurationSha256, lockPathOf, readLock } from "./lock_file.ts";
import { isCachedPackage, packageDir } from "./profile_cache.ts";
import { readProfilePackage } from "./profile_package.ts";
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
  const get = `run 'wayfinder get ${project}'`;
  const lock = readLock(lockFile);
  if (!lock) {
    return {
      ok: false,
      reason: `Profile '${bound.name}' is not locked: there is no ${lockFile}; ${get}`,
    };
  }
  if (lock.configuration_sha256 !== configurationSha256(binding)) {
    return {
      ok: false,
      reason:
        `${lockFile} is stale: its configuration_sha256 does not match wayfinder.json; ${get}`,
    };
  }
  const locked = lock.profiles[bound.name];
  if (!locked) {
    return { ok: false, reason: `Profile '${bound.name}' is missing from ${lockFile}; ${get}` };
  }
  const packages = [];
  for (const pkg of [locked, ...(locked.parents ?? [])]) {
    const dir = packageDir(
      dataRoot,
      gitLocation(pkg.source, project),
      pkg.resolved_commit,
      pkg.path,
    );
    if (!isCachedPackage(dir)) {
      return {
        ok: false,
        reason: `Profile package '${pkg.path}' at ${
          pkg.resolved_commit.slice(0, 12)
        } is not in the cache under ${dataRoot}; ${get}`,
      };
    }
    packages.push(readProfilePackage(dir));
  }
  return { ok: true, chain: { bound, packages }, commit: locked.resolved_commit };
}
