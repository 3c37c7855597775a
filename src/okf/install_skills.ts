/**
 * Copies a Profile package's skill folder into the project, where coding
 * agents look for skills: `.claude/skills/<id>/` and `.agents/skills/<id>/`.
 */
import { cpSync, existsSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { WayfinderError } from "../error.ts";

/** The folders a skill is installed into, relative to the project. */
export const SKILL_HOMES = [".claude/skills", ".agents/skills"];

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
    } catch (error) {
      throw new WayfinderError(
        "io",
        `Cannot install skill into '${dest}': ${(error as Error).message}`,
      );
    }
    return dest;
  });
}
