import { type ValidationReport, WayfinderError } from "../src/mod.ts";
import {
  applyIndexFixes,
  diffIndexFixes,
  escapeLine,
  escapeText,
  formatReportText,
  locateBinding,
  planIndexFixes,
  plural,
  repoRootOf,
  type RuleInfo,
  toSarif,
  validateProject,
} from "../src/cli/mod.ts";
import { relative, resolve } from "node:path";
import { type Command, type CommandContext, printJson, printJsonLine } from "./_command.ts";
import { dataRootAt } from "./_wiring.ts";

/** `wayfinder validate <bundle>`: OKF 0.2 conformance; `--fix` writes the generated indexes. */
export const validateCommand: Command = {
  spec: {
    name: "validate",
    summary:
      "Check an OKF bundle's conformance; exit 0 pass, 1 conformance failure, 2 usage or I/O",
    positionals: ["bundle"],
    settings: ["validateOutput", "debug", "fix", "dryRun", "dataDir"],
  },
  targetPositional: 0,
  async run(config, context) {
    const s = config.settings;
    const bundle = resolve(context.cwd, config.positionals[0]!);
    if (s.dryRun && !s.fix) {
      throw new WayfinderError("usage", "'--dry-run' only goes with '--fix'");
    }
    if (s.dryRun && s.validateOutput === "sarif") {
      // SARIF carries findings; the planned index files are a diff or a list of changes.
      throw new WayfinderError(
        "usage",
        "'--fix --dry-run' prints a diff (--output text) or the planned changes (json, jsonl), not SARIF",
      );
    }
    if (s.fix) {
      const dryRunExit = fix(bundle, s.dryRun, s.validateOutput, context);
      if (dryRunExit !== null) return dryRunExit;
    }
    const rules = new Map<string, RuleInfo>();
    const report = await validateProject(bundle, {
      ...locateBinding(bundle, dataRootAt(config)),
      rules,
    });
    printReport(report, rules, s.validateOutput, context);
    return report.gate === "PASS" ? 0 : 1;
  },
};

/**
 * Writes the generated indexes, or with `dryRun` prints them as a diff and
 * returns the exit code (1 when something would change). Null means go on
 * to validate.
 */
function fix(
  bundle: string,
  dryRun: boolean,
  output: string,
  context: CommandContext,
): number | null {
  const { root, changes, leftAlone } = planIndexFixes(bundle);
  for (const { path, reason } of leftAlone) {
    context.stderr(`Left ${escapeLine(shown(context, root, path))} alone: ${escapeLine(reason)}\n`);
  }
  if (dryRun) {
    const planned = changes.map(({ path, action, after }) => ({ path, action, content: after }));
    if (output === "text") context.stdout(escapeText(diffIndexFixes(changes)));
    else if (output === "jsonl") { for (const c of planned) printJsonLine(context, c); }
    else printJson(context, { changes: planned });
    context.stderr(`${plural(changes.length, "index file")} would change\n`);
    return changes.length ? 1 : 0;
  }
  applyIndexFixes(root, changes);
  for (const c of changes) {
    const verb = c.action === "create" ? "Created" : "Updated";
    context.stderr(`${verb} ${escapeLine(shown(context, root, c.path))}\n`);
  }
  if (!changes.length) context.stderr("Every index.md is current; nothing written\n");
  return null;
}

function printReport(
  report: ValidationReport,
  rules: ReadonlyMap<string, RuleInfo>,
  output: string,
  context: CommandContext,
): void {
  if (output === "json") printJson(context, report);
  else if (output === "jsonl") {
    for (const f of report.findings) context.stdout(JSON.stringify(f) + "\n");
  } else if (output === "sarif") {
    printJson(
      context,
      toSarif(report, { repoRoot: repoRootOf(report.bundle), toolVersion: context.version, rules }),
    );
  } else {
    // Paths and messages quote the bundle: a control character in one must not reach the terminal.
    const text = formatReportText(report, (p) => escapeLine(shown(context, report.bundle, p)));
    context.stdout(escapeText(text));
  }
}

/** A bundle-relative path as the user would type it from the working directory. */
function shown(context: CommandContext, root: string, path: string): string {
  return relative(context.cwd, resolve(root, path)) || ".";
}
