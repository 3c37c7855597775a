import type { CommandSpec, Config } from "../src/cli/mod.ts";

/** What a command may touch of the outside world, passed in so tests can run commands in-process. */
export interface CommandContext {
  env: Record<string, string | undefined>;
  cwd: string;
  /** Results go here. */
  stdout: (text: string) => void;
  /** Progress, notices and logs go here. */
  stderr: (text: string) => void;
  /** True when stderr is a terminal: progress bars only then. */
  stderrIsTerminal: boolean;
  /** Directory of the running executable, for models shipped beside a compiled binary. */
  executableDir: string | null;
  /** The repository root (where main.ts lives), for the project's models/ folder. */
  projectDir: string;
  /** wayfinder's version, from deno.json. */
  version: string;
}

/** A subcommand: its spec (flags, positionals, help) and what it does. Returns the exit code. */
export interface Command {
  spec: CommandSpec;
  /** Which positional names the wayfinder.json lookup starts from, if any. */
  targetPositional?: number;
  run(config: Config, context: CommandContext): Promise<number>;
}

/** Writes a value as pretty JSON on stdout (`--output json`). */
export function printJson(context: CommandContext, value: unknown): void {
  context.stdout(JSON.stringify(value, null, 2) + "\n");
}

/** Writes a value as one compact JSON line on stdout (`--output jsonl`). */
export function printJsonLine(context: CommandContext, value: unknown): void {
  context.stdout(JSON.stringify(value) + "\n");
}

/** A command's single result in the format `--output` asks for; text is the caller's. */
export function printResult(
  context: CommandContext,
  output: "text" | "json" | "jsonl",
  value: unknown,
  text: () => string,
): void {
  if (output === "json") printJson(context, value);
  else if (output === "jsonl") printJsonLine(context, value);
  else context.stdout(text());
}
