/**
 * `wayfinder get`: resolves each Profile the binding names, follows its
 * parent chain, pins every package to a commit in `wayfinder.lock`, caches
 * the package files, and installs their skills into the project. With an
 * unchanged binding and a lock whose packages are cached it runs no git
 * command at all. Skills change only once every chain resolved and the lock
 * is written, so the installed skills always match the lock.
 */
import { existsSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { WayfinderError } from "../../error.ts";
import { applySkills, planSkills, staleSkills } from "./install_skills.ts";
import {
  configurationSha256,
  loadLock,
  type Lock,
  type LockedPackage,
  type LockedProfile,
  lockPathOf,
  writeLock,
} from "./lock_file.ts";
import {
  ensureCommit,
  extractPackage,
  fetchRef,
  isCachedPackage,
  packageDir,
} from "./profile_cache.ts";
import { type ProfilePackage, readProfilePackage } from "./profile_package.ts";
import { type BoundProfile, gitLocation, readBinding } from "./read_binding.ts";

/** Options for {@link getProfiles}. */
export interface GetOptions {
  /** The project's wayfinder.json. */
  configFile: string;
  /** Data root; the cache lives under `<dataRoot>/profiles`. */
  dataRoot: string;
  /** Re-resolve every ref even when the lock is current. @default false */
  update?: boolean;
}

/** One package of a resolved chain. */
export interface ChainLink {
  /** Git source as written, and as a location git can use. */
  written: string;
  url: string;
  ref: string;
  path: string;
  commit: string;
  /** The cached package folder. */
  dir: string;
  pkg: ProfilePackage;
}

/** What {@link getProfiles} did. */
export interface GetResult {
  lockFile: string;
  /** Null when no Profile is bound any more and get removed the lock. */
  lock: Lock | null;
  /** False when the lock already held exactly this content. */
  lockWritten: boolean;
  /** True when no Profile is bound any more and get removed the lock an earlier run wrote. */
  lockRemoved: boolean;
  /** Sources git fetched from during this run (empty when everything was cached). */
  fetched: string[];
  /** Skill folders written. */
  installed: string[];
  /** Skill folders `get` had installed whose package no longer ships a skill, removed. */
  removed: string[];
  /** Bound Profile name → its chain, the bound package first. */
  chains: Record<string, ChainLink[]>;
  /** Top-level keys of wayfinder.json that nothing defines. */
  unknownKeys: string[];
  /** Why the lock that was there could not be read, when get replaced it. */
  replacedLock?: string;
}

interface Context {
  dataRoot: string;
  projectDir: string;
  fetched: Set<string>;
}

/** Parent chains longer than this are taken for a cycle. */
const MAX_CHAIN = 8;

/**
 * Resolves, locks, caches and installs the Profiles bound in `configFile`.
 * @throws {WayfinderError} `config` for a malformed binding, lock or package; `io` when git fails.
 */
export async function getProfiles(options: GetOptions): Promise<GetResult> {
  const binding = readBinding(options.configFile);
  if (binding.profiles.length === 0) return unbindAll(options.configFile, binding.unknownKeys);
  const lockFile = lockPathOf(options.configFile);
  const sha = configurationSha256(binding);
  // get is the command that writes locks: one it cannot read is replaced, not a dead end.
  const read = loadLock(lockFile);
  const old = read.ok ? read.lock : null;
  const frozen = !options.update && old?.configuration_sha256 === sha ? old : null;
  const ctx: Context = {
    dataRoot: options.dataRoot,
    projectDir: dirname(options.configFile),
    fetched: new Set(),
  };
  const chains: Record<string, ChainLink[]> = {};
  const profiles: Record<string, LockedProfile> = {};
  for (const bound of binding.profiles) {
    const chain = await resolveChain(ctx, bound, frozen?.profiles[bound.name]);
    chains[bound.name] = chain;
    profiles[bound.name] = lockedProfile(bound, chain);
  }
  const lock: Lock = { lock_version: 1, configuration_sha256: sha, profiles };
  // Checked before the lock is written: a refused skill leaves lock and skills as they were.
  const plan = planSkills(ctx.projectDir, skillsOf(chains));
  const lockWritten = writeLock(lockFile, lock);
  const { installed, removed } = applySkills(plan);
  return {
    lockFile,
    lock,
    lockWritten,
    lockRemoved: false,
    fetched: [...ctx.fetched],
    installed,
    removed,
    chains,
    unknownKeys: binding.unknownKeys,
    ...(read.ok ? {} : { replacedLock: read.problem }),
  };
}

/**
 * With no Profile bound any more, removes what an earlier get left: the lock
 * and the skills it installed, so nothing pins or ships an unbound Profile.
 * @throws {WayfinderError} `config` when there is nothing to remove: get has nothing to do.
 */
function unbindAll(configFile: string, unknownKeys: string[]): GetResult {
  const lockFile = lockPathOf(configFile);
  const projectDir = dirname(configFile);
  const hadLock = existsSync(lockFile);
  if (!hadLock && staleSkills(projectDir, new Set()).length === 0) {
    throw new WayfinderError(
      "config",
      `'${configFile}' binds no Profiles: name one under 'profiles' for get to resolve`,
    );
  }
  try {
    rmSync(lockFile, { force: true });
  } catch (error) {
    throw new WayfinderError("io", `Cannot remove '${lockFile}': ${(error as Error).message}`);
  }
  const { installed, removed } = applySkills(planSkills(projectDir, new Map()));
  return {
    lockFile,
    lock: null,
    lockWritten: false,
    lockRemoved: hadLock,
    fetched: [],
    installed,
    removed,
    chains: {},
    unknownKeys,
  };
}

/** The skill folder of every package that names one, by Profile id (once, though chains share parents). */
function skillsOf(chains: Record<string, ChainLink[]>): Map<string, string> {
  const skills = new Map<string, string>();
  for (const link of Object.values(chains).flat()) {
    if (link.pkg.skill && !skills.has(link.pkg.id)) {
      skills.set(link.pkg.id, join(link.dir, link.pkg.skill));
    }
  }
  return skills;
}

async function resolveChain(
  ctx: Context,
  bound: BoundProfile,
  pinned?: LockedProfile,
): Promise<ChainLink[]> {
  const chain: ChainLink[] = [];
  let next: Omit<ChainLink, "commit" | "dir" | "pkg"> & { commit?: string } = {
    written: bound.written.git,
    url: bound.source.git,
    ref: bound.source.ref,
    path: bound.source.path,
    commit: pinned?.path === bound.source.path ? pinned.resolved_commit : undefined,
  };
  for (;;) {
    if (chain.length === MAX_CHAIN) {
      throw new WayfinderError(
        "config",
        `Profile '${bound.name}' has a parent chain longer than ${MAX_CHAIN}`,
      );
    }
    const commit = next.commit ?? await fetchCommit(ctx, next.url, next.ref);
    const dir = await materialize(ctx, next.url, commit, next.path);
    const link = { ...next, commit, dir, pkg: readProfilePackage(dir) };
    if (chain.some((l) => l.url === link.url && l.commit === commit && l.path === link.path)) {
      throw new WayfinderError(
        "config",
        `Profile '${bound.name}' extends itself through '${link.path}'`,
      );
    }
    chain.push(link);
    const parent = link.pkg.extends;
    if (!parent) return chain;
    const lockedParent = pinned?.parents[chain.length - 1];
    next = parent.git === undefined
      // No git: the same repository at the same commit.
      ? { written: link.written, url: link.url, ref: link.ref, path: parent.path, commit }
      : {
        written: parent.git,
        url: gitLocation(parent.git, ctx.projectDir),
        ref: parent.ref ?? "HEAD",
        path: parent.path,
        commit: lockedParent?.source === parent.git && lockedParent.path === parent.path
          ? lockedParent.resolved_commit
          : undefined,
      };
  }
}

async function fetchCommit(ctx: Context, url: string, ref: string): Promise<string> {
  ctx.fetched.add(url);
  return await fetchRef(ctx.dataRoot, url, ref);
}

/** The package folder at a pinned commit: from the cache when there, else from git. */
async function materialize(
  ctx: Context,
  url: string,
  commit: string,
  path: string,
): Promise<string> {
  const cached = packageDir(ctx.dataRoot, url, commit, path);
  if (isCachedPackage(cached)) return cached;
  if (await ensureCommit(ctx.dataRoot, url, commit)) ctx.fetched.add(url);
  return await extractPackage(ctx.dataRoot, url, commit, path);
}

function lockedProfile(bound: BoundProfile, chain: ChainLink[]): LockedProfile {
  const [self, ...parents] = chain.map(lockedPackage);
  return { ...self!, requested_ref: bound.source.ref, parents };
}

function lockedPackage(link: ChainLink): LockedPackage {
  return {
    profile_id: link.pkg.id,
    profile_release: link.pkg.release,
    source: link.written,
    path: link.path,
    resolved_commit: link.commit,
  };
}
