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
import type { Command, CommandContext } from "./commands/_command.ts";
import { COMMANDS } from "./commands/mod.ts";
import { escapeLine } from "./src/escape.ts";
import project from "./deno.json" with { type: "json" };

const encoder = new TextEncoder();

function write(stream: { writeSync(p: Uint8Array): number }, text: string): void {
  const bytes = encoder.encode(text);
  let offset = 0;
  while (offset < bytes.length) offset += stream.writeSync(bytes.subarray(offset));
}

function usage(): string {
  const names = Object.keys(COMMANDS);
  const width = Math.max(...names.map((n) => n.length)) + 2;
  return [
    "wayfinder: local-first semantic search for code and knowledge",
    "",
    "Usage: wayfinder <command> [args] [flags]",
    "",
    "Commands:",
    ...names.map((n) => `  ${n.padEnd(width)}${COMMANDS[n]!.spec.summary.split("\n")[0]}`),
    "",
    "Run 'wayfinder <command> --help' for a command's flags.",
    "Exit codes: 0 ok, 1 findings or gate failure, 2 usage, I/O, stale index or missing model,",
    "130/143 index stopped by SIGINT/SIGTERM.",
  ].join("\n");
}

function pickCommand(args: string[]): { command: Command; rest: string[] } | null {
  const two = `${args[0]} ${args[1]}`;
  if (COMMANDS[two]) return { command: COMMANDS[two]!, rest: args.slice(2) };
  if (args[0] && COMMANDS[args[0]]) return { command: COMMANDS[args[0]]!, rest: args.slice(1) };
  return null;
}

// Over 60 lines: the one place that maps every outcome to an exit code.
async function main(args: string[]): Promise<number> {
  // Set once the settings are resolved; errors before that have no stack worth showing.
  let debug = false;
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
    if (args.length === 0 || args[0] === "--help" || args[0] === "-h" || args[0] === "help") {
      context.stdout(usage() + "\n");
      return args.length === 0 ? 2 : 0;
    }
    if (args[0] === "--version") {
      context.stdout(`wayfinder ${project.version}\n`);
      return 0;
    }
    const picked = pickCommand(args);
    if (!picked) {
      const group = Object.keys(COMMANDS).filter((n) => n.startsWith(`${args[0]} `));
      if (group.length) {
        throw new WayfinderError(
          "usage",
          `'wayfinder ${args[0]}' needs one of: ${group.map((g) => g.split(" ")[1]).join(", ")}`,
        );
      }
      throw new WayfinderError("usage", `Unknown command '${args[0]}'; see 'wayfinder --help'`);
    }
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
      // Messages quote paths and input: a control character in one must not reach the terminal.
      context.stderr(`wayfinder: ${escapeLine(error.message)}\n`);
      if (debug && error.cause) context.stderr(`${(error.cause as Error).stack ?? error.cause}\n`);
      return error.exit;
    }
    context.stderr(`wayfinder: ${escapeLine(String((error as Error)?.message ?? error))}\n`);
    if (debug) context.stderr(`${(error as Error)?.stack}\n`);
    return 2;
  }
}

if (import.meta.main) {
  const code = await main(Deno.args);
  Deno.exit(code);
}
