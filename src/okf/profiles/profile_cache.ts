/**
 * The local cache of Profile sources under the data root:
 * `profiles/git/<key>.git` is a bare mirror of each source repository and
 * `profiles/packages/<key>/<commit>/<path>` the package files at a commit.
 * Only `get` fills it; validate reads the package folders.
 */
import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { WayfinderError } from "../../error.ts";
import { runGit } from "./git.ts";
import { PROFILE_FILE } from "./profile_package.ts";

function keyOf(url: string): string {
  return createHash("sha256").update(url).digest("hex").slice(0, 16);
}

function mirrorOf(dataRoot: string, url: string): string {
  return join(dataRoot, "profiles", "git", `${keyOf(url)}.git`);
}

/**
 * Folder of the package at `path` in `url` at `commit`.
 * @throws {WayfinderError} `config` when `path` is absolute or climbs out of the repository.
 */
export function packageDir(dataRoot: string, url: string, commit: string, path: string): string {
  const clean = normalize(path).replace(/\/+$/, "");
  if (clean.startsWith("/") || clean === ".." || clean.startsWith("../")) {
    throw new WayfinderError("config", `Profile path '${path}' must stay inside its repository`);
  }
  return join(dataRoot, "profiles", "packages", keyOf(url), commit, clean);
}

/**
 * Whether the package folder `dir` is fully in the cache. Its Profile file is
 * moved in last, so it marks completion; the folder alone does not, since a
 * package nested in it (a child extending its repository's root) may have
 * been extracted first.
 */
export function isCachedPackage(dir: string): boolean {
  return existsSync(join(dir, PROFILE_FILE));
}

/**
 * Fetches `url` into its mirror and returns the commit `ref` names now.
 * @throws {WayfinderError} `io` when the source is unreachable or has no such ref.
 */
export async function fetchRef(dataRoot: string, url: string, ref: string): Promise<string> {
  const mirror = await syncMirror(dataRoot, url);
  return await runGit(["--git-dir", mirror, "rev-parse", "--verify", `${ref}^{commit}`], {
    doing: `Cannot resolve ref '${ref}' of Profile source '${url}'`,
  });
}

/** Makes sure the mirror holds `commit`, fetching only when it does not. Returns true when it fetched. */
export async function ensureCommit(
  dataRoot: string,
  url: string,
  commit: string,
): Promise<boolean> {
  const mirror = mirrorOf(dataRoot, url);
  if (existsSync(mirror) && await hasCommit(mirror, commit)) return false;
  await syncMirror(dataRoot, url);
  if (!await hasCommit(mirror, commit)) {
    throw new WayfinderError(
      "io",
      `Profile source '${url}' no longer has the locked commit ${commit}`,
    );
  }
  return true;
}

async function hasCommit(mirror: string, commit: string): Promise<boolean> {
  try {
    await runGit(["--git-dir", mirror, "cat-file", "-e", `${commit}^{commit}`], { doing: "" });
    return true;
  } catch {
    return false;
  }
}

async function syncMirror(dataRoot: string, url: string): Promise<string> {
  const mirror = mirrorOf(dataRoot, url);
  const doing = `Cannot fetch Profile source '${url}'`;
  if (existsSync(mirror)) {
    await runGit(
      [
        "--git-dir",
        mirror,
        "fetch",
        "--quiet",
        "--prune",
        "--",
        url,
        "+refs/heads/*:refs/heads/*",
        "+refs/tags/*:refs/tags/*",
      ],
      { doing },
    );
    return mirror;
  }
  mkdirSync(dirname(mirror), { recursive: true });
  const partial = `${mirror}.partial-${Deno.pid}`;
  rmSync(partial, { recursive: true, force: true });
  await runGit(["clone", "--bare", "--quiet", "--", url, partial], { doing });
  renameSync(partial, mirror);
  return mirror;
}

/**
 * Writes the package files at `commit` into the cache unless they are already there.
 * @throws {WayfinderError} `io` when the path does not exist at that commit.
 */
export async function extractPackage(
  dataRoot: string,
  url: string,
  commit: string,
  path: string,
): Promise<string> {
  const dest = packageDir(dataRoot, url, commit, path);
  if (isCachedPackage(dest)) return dest;
  const staging = `${dest}.partial-${Deno.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  // A private index file keeps the shared mirror untouched by the checkout.
  await runGit(
    ["--git-dir", mirrorOf(dataRoot, url), "--work-tree", staging, "checkout", commit, "--", path],
    {
      env: { GIT_INDEX_FILE: join(staging, ".index") },
      doing: `Cannot read Profile path '${path}' of '${url}' at ${commit.slice(0, 12)}`,
    },
  );
  rmSync(join(staging, ".index"), { force: true });
  moveInto(join(staging, normalize(path)), dest);
  rmSync(staging, { recursive: true, force: true });
  return dest;
}

/**
 * Moves the checked-out tree `from` to `dest`. When `dest` already holds part
 * of it (packages nested in this one, extracted earlier from the same commit,
 * so the same files), only what is missing moves, each folder's Profile file
 * last so the package reads as cached only once it is whole.
 */
function moveInto(from: string, dest: string): void {
  const there = lstatSync(dest, { throwIfNoEntry: false });
  if (!there) return renameSync(from, dest);
  if (!there.isDirectory() || !lstatSync(from).isDirectory()) return;
  const names = readdirSync(from).sort((a, b) =>
    Number(a === PROFILE_FILE) - Number(b === PROFILE_FILE)
  );
  for (const name of names) moveInto(join(from, name), join(dest, name));
}
