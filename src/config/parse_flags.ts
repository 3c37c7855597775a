import { parseArgs } from "node:util";
import { WayfinderError } from "../error.ts";
import { type Setting, type SettingKey, SETTINGS } from "./settings.ts";

/** What a subcommand accepts: its flags (by setting key) and positional arguments. */
export interface CommandSpec {
  /** As typed: "search", "model import". */
  name: string;
  summary: string;
  /**
   * Positional arguments, e.g. ["root", "query"]; a trailing "?" marks one
   * optional, a trailing "..." zero or more.
   */
  positionals: string[];
  settings: readonly SettingKey[];
}

/** Flags as the user typed them, checked against the command's spec but not yet merged. */
export interface ParsedFlags {
  values: Partial<Record<SettingKey, string | boolean | string[]>>;
  positionals: string[];
  help: boolean;
}

/**
 * Parses argv for one command. Unknown flags, missing values and missing
 * positionals are usage errors with a one-line reason.
 */
export function parseFlags(spec: CommandSpec, args: string[]): ParsedFlags {
  const options: Record<
    string,
    { type: "string" | "boolean"; multiple?: boolean; short?: string }
  > = { help: { type: "boolean", short: "h" } };
  const keyOfFlag = new Map<string, SettingKey>();
  for (const key of spec.settings) {
    const setting: Setting = SETTINGS[key];
    keyOfFlag.set(setting.flag, key);
    options[setting.flag] = {
      type: setting.type === "bool" ? "boolean" : "string",
      ...(setting.type === "list" ? { multiple: true } : {}),
      ...(setting.short ? { short: setting.short } : {}),
    };
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: attachNegativeValues(args, options),
      options,
      allowPositionals: true,
      // `--no-current` turns off a switch that wayfinder.json turned on.
      allowNegative: true,
      strict: true,
    });
  } catch (error) {
    throw new WayfinderError("usage", usageReason(spec, error as Error));
  }
  const values: ParsedFlags["values"] = {};
  for (const [flag, value] of Object.entries(parsed.values)) {
    const key = keyOfFlag.get(flag);
    if (key !== undefined && value !== undefined) {
      values[key] = value as string | boolean | string[];
    }
  }
  const help = parsed.values.help === true;
  if (!help) checkPositionals(spec, parsed.positionals);
  return { values, positionals: parsed.positionals, help };
}

/**
 * `--limit -1` (or `-n -1`) as `--limit=-1`: node's parser takes a value that starts
 * with "-" for another flag and calls it ambiguous, where the value's own
 * check says what is wrong with it.
 */
function attachNegativeValues(
  args: string[],
  options: Record<string, { type: "string" | "boolean"; short?: string }>,
): string[] {
  const shortNames = new Map(
    Object.entries(options).flatMap(([name, o]) => o.short ? [[`-${o.short}`, name]] : []),
  );
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const next = args[i + 1];
    const name = arg.startsWith("--") ? arg.slice(2) : shortNames.get(arg);
    const takesValue = name !== undefined && options[name]?.type === "string";
    if (takesValue && next !== undefined && /^-\.?\d/.test(next)) {
      out.push(`--${name}=${next}`);
      i++;
    } else out.push(arg);
    if (arg === "--") {
      out.push(...args.slice(i + 1));
      break;
    }
  }
  return out;
}

function usageReason(spec: CommandSpec, error: Error): string {
  const unknown = error.message.match(/Unknown option '([^']+)'/);
  if (unknown) {
    return `Unknown flag '${
      unknown[1]
    }' for 'wayfinder ${spec.name}'; see 'wayfinder ${spec.name} --help'`;
  }
  const missing = error.message.match(/Option '([^']+?)(?: <value>)?' argument missing/);
  if (missing) return `Flag '${missing[1]}' needs a value`;
  return `${error.message.split(/\.\s/)[0]}`;
}

function checkPositionals(spec: CommandSpec, positionals: string[]): void {
  const required = spec.positionals.filter((p) => !p.endsWith("?") && !p.endsWith("..."));
  if (positionals.length < required.length) {
    const missing = required.slice(positionals.length).map((p) => `<${p}>`).join(" ");
    throw new WayfinderError(
      "usage",
      `Missing ${missing} for 'wayfinder ${spec.name}'; see 'wayfinder ${spec.name} --help'`,
    );
  }
  const variadic = spec.positionals.some((p) => p.endsWith("..."));
  if (!variadic && positionals.length > spec.positionals.length) {
    throw new WayfinderError(
      "usage",
      `Unexpected argument '${positionals[spec.positionals.length]}' for 'wayfinder ${spec.name}'`,
    );
  }
}

/** Help text for a command, generated from the settings table. */
export function helpText(spec: CommandSpec): string {
  const args = spec.positionals.map((p) =>
    // Optional and repeated ones may be left out: `[root...]` is zero or more.
    p.endsWith("?") ? `[${p.slice(0, -1)}]` : p.endsWith("...") ? `[${p}]` : `<${p}>`
  ).join(" ");
  const lines = [`Usage: wayfinder ${spec.name} ${args} [flags]`, "", spec.summary, "", "Flags:"];
  const rows = spec.settings.map((key) => {
    const s: Setting = SETTINGS[key];
    const value = s.type === "bool"
      ? ""
      : ` ${s.value ?? (s.choices ? s.choices.join("|") : "VALUE")}`;
    const flag = s.type === "bool" ? `[no-]${s.flag}` : s.flag;
    const left = `${s.short ? `-${s.short}, ` : "    "}--${flag}${value}`;
    const extra = [
      s.default !== undefined && s.type !== "bool" &&
        !(Array.isArray(s.default) && !s.default.length)
        ? `default ${s.default}`
        : "",
      s.env ? `env ${s.env}` : "",
    ].filter(Boolean).join(", ");
    return [left, `${s.help}${extra ? ` (${extra})` : ""}`];
  });
  rows.push(["-h, --help", "Show this help"]);
  const width = Math.max(...rows.map(([left]) => left!.length)) + 2;
  for (const [left, right] of rows) lines.push(`  ${left!.padEnd(width)}${right}`);
  return lines.join("\n");
}
