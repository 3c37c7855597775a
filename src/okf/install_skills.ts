/**
 * Copies Profile packages' skill folders into the project, where coding
 * agents look for skills: `.claude/skills/<id>/` and `.agents/skills/<id>/`,
 * and removes the ones this tool installed that no package ships any more.
 */
import {
  cpSync,
  existsSync,
  lstatSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { WayfinderError } from "../error.ts";

/** The folders a skill is installed into, relative to the project. */
export const SKILL_HOMES = [".claude/skills", ".agents/skills"];

/**
 * Written into every skill folder `get` installs: only a folder carrying it
 * is ever removed, so a skill the user wrote is never touched.
 */
export const SKILL_MARKER = ".wayfinder-skill";

/** What {@link syncSkills} did, as folder paths. */
export interface SkillChanges {
  installed: string[];
  removed: string[];
}

/**
 * Installs each skill (Profile id → its skill folder in the cache), then
 * removes every installed skill folder whose Profile no longer ships one.
 * @throws {WayfinderError} `config` for an id that cannot name a folder; `io` when a copy or removal fails.
 */
export function syncSkills(projectDir: string, skills: ReadonlyMap<string, string>): SkillChanges {
  const installed: string[] = [];
  const shipped = new Set<string>();
  for (const [id, skillDir] of skills) {
    const written = installSkill(projectDir, id, skillDir);
    if (written.length) shipped.add(id);
    installed.push(...written);
  }
  return { installed, removed: removeStaleSkills(projectDir, shipped) };
}

/**
 * Replaces `<project>/<home>/<id>/` with a copy of `skillDir` for each home.
 * Returns the folders written, or nothing when the package has no such folder.
 * @throws {WayfinderError} `io` when a copy fails.
 */
export function installSkill(projectDir: string, id: string, skillDir: string): string[] {
  if (!existsSync(skillDir) || !statSync(skillDir).isDirectory()) return [];
  if (!/^[A-Za-z0-9._-]+$/.test(id) || id.startsWith(".")) {
    throw new WayfinderError("config", `Profile id '${id}' cannot name a skill folder`);
  }
  return SKILL_HOMES.map((home) => {
    const dest = join(projectDir, home, id);
    try {
      rmSync(dest, { recursive: true, force: true });
      cpSync(skillDir, dest, { recursive: true });
      writeFileSync(
        join(dest, SKILL_MARKER),
        `Installed by 'wayfinder get' from Profile ${id}; get replaces or removes this folder.\n`,
      );
    } catch (error) {
      throw new WayfinderError(
        "io",
        `Cannot install skill into '${dest}': ${(error as Error).message}`,
      );
    }
    return dest;
  });
}

/** Removes the marked skill folders whose id is not in `keep`; returns their paths. */
function removeStaleSkills(projectDir: string, keep: ReadonlySet<string>): string[] {
  const removed: string[] = [];
  for (const home of SKILL_HOMES) {
    const dir = join(projectDir, home);
    const names = existsSync(dir) ? readdirSync(dir).sort() : [];
    for (const folder of names.filter((n) => !keep.has(n)).map((n) => join(dir, n))) {
      if (!installedByGet(folder)) continue;
      try {
        rmSync(folder, { recursive: true, force: true });
      } catch (error) {
        throw new WayfinderError(
          "io",
          `Cannot remove skill '${folder}': ${(error as Error).message}`,
        );
      }
      removed.push(folder);
    }
  }
  return removed;
}

/** A real folder (not a link) holding the marker `installSkill` writes. */
function installedByGet(folder: string): boolean {
  try {
    return lstatSync(folder).isDirectory() && lstatSync(join(folder, SKILL_MARKER)).isFile();
  } catch {
    return false;
  }
}
