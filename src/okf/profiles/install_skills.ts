/**
 * Copies Profile packages' skill folders into the project, where coding
 * agents look for skills: `.claude/skills/<id>/` and `.agents/skills/<id>/`,
 * and removes the ones this tool installed that no package ships any more.
 * Everything is checked before anything is written ({@link planSkills}), so
 * a refusal leaves the project as it was.
 */
import {
  cpSync,
  existsSync,
  lstatSync,
  readdirSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { WayfinderError } from "../../error.ts";

/** The folders a skill is installed into, relative to the project. */
export const SKILL_HOMES = [".claude/skills", ".agents/skills"];

/**
 * Written into every skill folder `get` installs: only a folder carrying it
 * is ever replaced or removed, so a skill the user wrote is never touched.
 */
export const SKILL_MARKER = ".wayfinder-skill";

/** What {@link applySkills} did, as folder paths. */
export interface SkillChanges {
  installed: string[];
  removed: string[];
}

/** One skill to install: its folder in the cache and the project folders it is copied to. */
interface SkillCopy {
  id: string;
  source: string;
  dests: string[];
}

/** The checked work of {@link applySkills}. */
export interface SkillPlan {
  projectDir: string;
  copies: SkillCopy[];
}

/**
 * Checks every skill (Profile id → its skill folder in the cache) against
 * the project before anything is written.
 * @throws {WayfinderError} `config` for an id that cannot name a folder, a skill folder that is a link or holds a link out of itself; `io` when a folder `get` did not install is in the way.
 */
export function planSkills(projectDir: string, skills: ReadonlyMap<string, string>): SkillPlan {
  const copies: SkillCopy[] = [];
  for (const [id, source] of skills) {
    if (!shipsSkill(id, source)) continue;
    const dests = SKILL_HOMES.map((home) => join(projectDir, home, id));
    for (const dest of dests) refuseForeignFolder(id, dest);
    copies.push({ id, source, dests });
  }
  return { projectDir, copies };
}

/**
 * Installs the planned skills, then removes every installed skill folder
 * whose Profile no longer ships one.
 * @throws {WayfinderError} `io` when a copy or removal fails.
 */
export function applySkills(plan: SkillPlan): SkillChanges {
  const installed = plan.copies.flatMap(({ id, source, dests }) =>
    dests.map((dest) => copySkill(id, source, dest))
  );
  const shipped = new Set(plan.copies.map((c) => c.id));
  return { installed, removed: removeStaleSkills(plan.projectDir, shipped) };
}

/**
 * Whether the package ships a skill folder at `source`, checked for what a
 * copy must not carry into the project: a link as the folder itself (it
 * could lead anywhere on the host) or a link inside it leading out of it.
 */
function shipsSkill(id: string, source: string): boolean {
  const stat = lstatSync(source, { throwIfNoEntry: false });
  if (!stat || !(stat.isDirectory() || stat.isSymbolicLink())) return false;
  if (!/^[A-Za-z0-9._-]+$/.test(id) || id.startsWith(".")) {
    throw new WayfinderError("config", `Profile id '${id}' cannot name a skill folder`);
  }
  if (stat.isSymbolicLink()) {
    throw new WayfinderError(
      "config",
      `Profile '${id}' ships its skill folder as a link ('${source}'): get installs no linked skill`,
    );
  }
  const escaping = linkOutOf(source, source);
  if (escaping) {
    throw new WayfinderError(
      "config",
      `Profile '${id}' skill holds a link leading out of it ('${escaping}'): get installs no such skill`,
    );
  }
  return true;
}

/** The first link under `dir` whose target is absolute or outside `top`, if any. */
function linkOutOf(dir: string, top: string): string | null {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isSymbolicLink()) {
      const target = readlinkSync(path);
      const inside = relative(top, resolve(dirname(path), target));
      if (isAbsolute(target) || inside === ".." || inside.startsWith("../")) return path;
    } else if (entry.isDirectory()) {
      const found = linkOutOf(path, top);
      if (found) return found;
    }
  }
  return null;
}

/** Refuses a destination that exists and is not a folder `get` installed: the user's own. */
function refuseForeignFolder(id: string, dest: string): void {
  if (!lstatSync(dest, { throwIfNoEntry: false }) || installedByGet(dest)) return;
  throw new WayfinderError(
    "io",
    `'${dest}' is in the way of Profile '${id}''s skill and has no ${SKILL_MARKER} marker, so get did not install it; move that folder away and run get again`,
  );
}

/** Replaces the folder `dest` (one `get` installed, or none) with a copy of `source` and the marker. */
function copySkill(id: string, source: string, dest: string): string {
  try {
    rmSync(dest, { recursive: true, force: true });
    // Links are copied as links, as written: checked to stay inside the skill.
    cpSync(source, dest, {
      recursive: true,
      verbatimSymlinks: true,
      filter: (from) => from !== join(source, SKILL_MARKER),
    });
    // "wx": the marker is a new file, never written through something already there.
    writeFileSync(
      join(dest, SKILL_MARKER),
      `Installed by 'wayfinder get' from Profile ${id}; get replaces or removes this folder.\n`,
      { flag: "wx" },
    );
  } catch (error) {
    throw new WayfinderError(
      "io",
      `Cannot install skill into '${dest}': ${(error as Error).message}`,
    );
  }
  return dest;
}

/** The marked skill folders whose id is not in `keep`. */
export function staleSkills(projectDir: string, keep: ReadonlySet<string>): string[] {
  return SKILL_HOMES.flatMap((home) => {
    const dir = join(projectDir, home);
    const names = existsSync(dir) ? readdirSync(dir).sort() : [];
    return names.filter((n) => !keep.has(n)).map((n) => join(dir, n)).filter(installedByGet);
  });
}

/** Removes the marked skill folders whose id is not in `keep`; returns their paths. */
function removeStaleSkills(projectDir: string, keep: ReadonlySet<string>): string[] {
  const removed = staleSkills(projectDir, keep);
  for (const folder of removed) {
    try {
      rmSync(folder, { recursive: true, force: true });
    } catch (error) {
      throw new WayfinderError(
        "io",
        `Cannot remove skill '${folder}': ${(error as Error).message}`,
      );
    }
  }
  return removed;
}

/** A real folder (not a link) holding the marker `get` writes. */
function installedByGet(folder: string): boolean {
  try {
    return lstatSync(folder).isDirectory() && lstatSync(join(folder, SKILL_MARKER)).isFile();
  } catch {
    return false;
  }
}
