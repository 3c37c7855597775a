/**
 * wayfinder: local-first semantic search for code and knowledge.
 * Picks the subcommand, maps errors to a one-line message and an exit code
 * (0 ok, 1 findings or gate failure, 2 usage/IO/stale index/missing model;
 * a command stopped by a signal returns 128 + its number itself).
 * The only place that calls Deno.exit.
 */
import { dirname, fromFileUrl } from "./src/_paths.ts";
import { helpText, parseFlags, resolveConfig } from "./src/config/mod.ts";
import { WayfinderError } from "./src/error.ts";
import { hintsFor, worded } from "./src/hints.ts";
import type { Command, CommandContext } from "./commands/_command.ts";
import { COMMANDS } from "./commands/mod.ts";
import { escapeLine, escapeText } from "./src/escape.ts";
import project from "./deno.json" with { type: "json" };

const encoder = new TextEncoder();

function write(stream: { writeSync(p: Uint8Array): number }, text: string): void {
  const bytes = encoder.encode(text);
  let offset = 0;
  while (offset < bytes.length) offset += stream.writeSync(bytes.subarray(offset));
}

function usage(): string {
  const names = Object.keys(COMMANDS);
  return [
    "wayfinder: local-first semantic search for code and knowledge",
    "",
    "Usage: wayfinder <command> [args] [flags]",
    "",
    "Commands:",
    ...commandLines(names, (n) => n),
    "",
    "Run 'wayfinder <command> --help' for a command's flags.",
    "Exit codes: 0 ok, 1 findings or gate failure, 2 usage, I/O, stale index or missing model,",
    "130/143 index stopped by SIGINT/SIGTERM.",
  ].join("\n");
}

/** The help of a group of commands such as `model`: its subcommands. */
function groupUsage(group: string, names: string[]): string {
  return [
    `Usage: wayfinder ${group} <command> [args] [flags]`,
    "",
    "Commands:",
    ...commandLines(names, (n) => n.slice(group.length + 1)),
    "",
    `Run 'wayfinder ${group} <command> --help' for a command's flags.`,
  ].join("\n");
}

/** One line per command: the name `shown` and the first line of its summary, aligned. */
function commandLines(names: string[], shown: (name: string) => string): string[] {
  const width = Math.max(...names.map((n) => shown(n).length)) + 2;
  return names.map((n) => `  ${shown(n).padEnd(width)}${COMMANDS[n]!.spec.summary.split("\n")[0]}`);
}

const HELP_WORDS = ["--help", "-h", "help"];

function pickCommand(args: string[]): { command: Command; rest: string[] } | null {
  const two = `${args[0]} ${args[1]}`;
  if (COMMANDS[two]) return { command: COMMANDS[two]!, rest: args.slice(2) };
  if (args[0] && COMMANDS[args[0]]) return { command: COMMANDS[args[0]]!, rest: args.slice(1) };
  return null;
}

/**
 * Words that name no command: a group's help (`wayfinder model --help`), or
 * why they name none.
 */
function groupHelpOrRefusal(args: string[], context: CommandContext): number {
  const group = Object.keys(COMMANDS).filter((n) => n.startsWith(`${args[0]} `));
  if (group.length === 0) {
    throw new WayfinderError("usage", `Unknown command '${args[0]}'; see 'wayfinder --help'`);
  }
  if (HELP_WORDS.includes(args[1]!)) {
    context.stdout(groupUsage(args[0]!, group) + "\n");
    return 0;
  }
  const choices = group.map((g) => g.split(" ")[1]).join(", ");
  throw new WayfinderError(
    "usage",
    `'wayfinder ${args[0]}' needs one of: ${choices}; see 'wayfinder ${args[0]} --help'`,
  );
}

/** `--debug` as typed, for errors met before the settings are resolved (an unknown flag). */
function debugFlag(args: string[]): boolean {
  const end = args.indexOf("--");
  const flags = end < 0 ? args : args.slice(0, end);
  return flags.lastIndexOf("--debug") > flags.lastIndexOf("--no-debug");
}

/** An error's stack and its cause's, escaped as the message is. */
function stackOf(error: unknown): string {
  const trace = (e: unknown) => escapeText(String((e as Error)?.stack ?? e)) + "\n";
  const cause = (error as Error)?.cause;
  return trace(error) + (cause === undefined ? "" : `Caused by: ${trace(cause)}`);
}

// Over 60 lines: the one place that maps every outcome to an exit code.
async function main(args: string[]): Promise<number> {
  // The flag as typed until the settings are resolved.
  let debug = debugFlag(args);
  const context: CommandContext = {
    env: Deno.env.toObject(),
    cwd: Deno.cwd(),
    stdout: (text) => write(Deno.stdout, text),
    stderr: (text) => write(Deno.stderr, text),
    stderrIsTerminal: Deno.stderr.isTerminal(),
    executableDir: Deno.build.standalone ? dirname(Deno.execPath()) : null,
    projectDir: dirname(fromFileUrl(import.meta.url)),
    version: project.version,
  };
  try {
    if (args.length === 0 || HELP_WORDS.includes(args[0]!)) {
      context.stdout(usage() + "\n");
      return args.length === 0 ? 2 : 0;
    }
    if (args[0] === "--version") {
      context.stdout(`wayfinder ${project.version}\n`);
      return 0;
    }
    const picked = pickCommand(args);
    if (!picked) return groupHelpOrRefusal(args, context);
    const { command, rest } = picked;
    const flags = parseFlags(command.spec, rest);
    if (flags.help) {
      context.stdout(helpText(command.spec) + "\n");
      return 0;
    }
    const target = command.targetPositional !== undefined
      ? flags.positionals[command.targetPositional]
      : undefined;
    const config = resolveConfig(command.spec.settings, flags, {
      env: context.env,
      cwd: context.cwd,
      target,
    });
    debug = config.settings.debug === true;
    for (const warning of config.warnings) {
      context.stderr(`wayfinder: warning: ${escapeLine(warning)}\n`);
    }
    return await command.run(config, context);
  } catch (error) {
    if (error instanceof Deno.errors.BrokenPipe) return 0;
    if (error instanceof WayfinderError) {
      // A fix no layer above worded yet (a corpus words its own) is worded for the CLI's user.
      worded(error, hintsFor("cli"));
      // Messages quote paths and input: a control character in one must not reach the terminal.
      context.stderr(`wayfinder: ${escapeLine(error.message)}\n`);
      if (debug) context.stderr(stackOf(error));
      return error.exit;
    }
    context.stderr(`wayfinder: ${escapeLine(String((error as Error)?.message ?? error))}\n`);
    if (debug) context.stderr(stackOf(error));
    return 2;
  }
}

if (import.meta.main) {
  const code = await main(Deno.args);
  Deno.exit(code);
}
