import { existsSync, statSync } from "node:fs";
import { dirname, relative } from "node:path";
import { WayfinderError } from "../src/mod.ts";
import {
  getLockedProfiles,
  locateBinding,
  type LockedProfiles,
  projectRoot,
} from "../src/cli/mod.ts";
import { type Command, type CommandContext, printResult } from "./_command.ts";
import { dataRootAt } from "./_wiring.ts";

/** `wayfinder get [project]`: resolve the bound Profiles into wayfinder.lock and the cache. */
export const getCommand: Command = {
  spec: {
    name: "get",
    summary:
      "Resolve the Profiles wayfinder.json binds: pin them in wayfinder.lock, cache them, install their skills",
    positionals: ["project?"],
    settings: ["output", "debug", "dataDir", "update"],
  },
  targetPositional: 0,
  async run(config, context) {
    const s = config.settings;
    // A file (wayfinder.json itself) names its folder's project, as the settings lookup reads it.
    const target = config.target;
    projectRoot(existsSync(target) && statSync(target).isFile() ? dirname(target) : target);
    const { configFile, dataRoot } = locateBinding(config.target, dataRootAt(config));
    if (!configFile) {
      throw new WayfinderError(
        "config",
        `No wayfinder.json at or above '${config.target}': a project binds its Profiles there`,
      );
    }
    const result = await getLockedProfiles({ configFile, dataRoot, update: s.update });
    if (result.replacedLock) {
      context.stderr(
        `wayfinder: warning: Replaced unreadable lock '${result.lockFile}' (${result.replacedLock})\n`,
      );
    }
    // One run, one record: jsonl is the JSON summary on one line, no field left out.
    printResult(context, s.output, summary(result), () => text(result, context));
    return 0;
  },
};

function summary(result: LockedProfiles) {
  return {
    lockFile: result.lockFile,
    lockWritten: result.lockWritten,
    lockRemoved: result.lockRemoved,
    fetched: result.fetched,
    installed: result.installed,
    removed: result.removed,
    profiles: Object.fromEntries(
      Object.entries(result.chains).map(([name, chain]) => [
        name,
        chain.map((l) => ({
          id: l.pkg.id,
          release: l.pkg.release,
          source: l.written,
          path: l.path,
          commit: l.commit,
        })),
      ]),
    ),
  };
}

function text(result: LockedProfiles, context: CommandContext): string {
  const lines: string[] = [];
  for (const [name, chain] of Object.entries(result.chains)) {
    chain.forEach((l, i) => {
      const lead = i === 0 ? `${name}:` : `${" ".repeat(name.length)}  extends`;
      lines.push(
        `${lead} ${l.pkg.id} ${l.pkg.release} at ${l.path} @ ${l.commit.slice(0, 12)} (${l.ref})`,
      );
    });
  }
  const lock = relative(context.cwd, result.lockFile) || result.lockFile;
  if (result.lock === null) {
    // Nothing is bound any more: say what of the earlier get was undone.
    lines.push("wayfinder.json binds no Profiles");
    if (result.lockRemoved) lines.push(`Removed ${lock}`);
  } else {
    lines.push(result.lockWritten ? `Wrote ${lock}` : `${lock} is current`);
    lines.push(
      result.fetched.length
        ? `Fetched ${result.fetched.join(", ")}`
        : "Fetched nothing: every package was cached",
    );
  }
  for (const dir of result.installed) lines.push(`Installed skill ${relative(context.cwd, dir)}`);
  for (const dir of result.removed) lines.push(`Removed skill ${relative(context.cwd, dir)}`);
  return lines.join("\n") + "\n";
}
