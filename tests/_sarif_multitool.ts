/**
 * Microsoft's SARIF Multitool (npm `@microsoft/sarif-multitool`), which
 * checks a SARIF log against the rules GitHub code scanning applies when it
 * ingests one. The package ships a self-contained .NET binary per platform
 * (about 100 MB) and makes it executable in a postinstall script. Deno's npm
 * client fetches the pinned release into Deno's cache, outside the project's
 * node_modules (so `deno task compile` never embeds it); the binary is copied
 * to .cache/ and made executable there, once.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { CACHE } from "./_run.ts";

export const MULTITOOL = "@microsoft/sarif-multitool@5.7.0";

/** Invariant globalization: the .NET runtime then needs no ICU library on the machine. */
const RUNTIME_ENV = {
  DOTNET_SYSTEM_GLOBALIZATION_INVARIANT: "1",
  DOTNET_CLI_TELEMETRY_OPTOUT: "1",
};

/** The Multitool's path, installing it on first use, or why it cannot run here. */
export async function sarifMultitool(): Promise<{ path: string } | { reason: string }> {
  if (!["linux", "darwin", "windows"].includes(Deno.build.os)) {
    return { reason: `${MULTITOOL} ships no binary for ${Deno.build.os}` };
  }
  const dir = join(CACHE, MULTITOOL.replace(/^@microsoft\//, "").replace("@", "-"));
  const installed = join(
    dir,
    Deno.build.os === "windows" ? "Sarif.Multitool.exe" : "Sarif.Multitool",
  );
  if (existsSync(installed)) return { path: installed };
  mkdirSync(dir, { recursive: true });
  // The package's main module is the path of the binary for this platform.
  const resolve = await new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      "--quiet",
      "--no-config",
      "--no-lock",
      "--node-modules-dir=none",
      `import path from "npm:${MULTITOOL}"; console.log(path);`,
    ],
    cwd: dir,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes).trim();
  if (!resolve.success) {
    const why = decode(resolve.stderr).split("\n")[0]!.replace(/^error: /, "");
    return { reason: `${MULTITOOL} could not be fetched from the npm registry: ${why}` };
  }
  const binary = decode(resolve.stdout);
  if (!existsSync(binary)) return { reason: `${MULTITOOL} has no binary at ${binary}` };
  // Copied to a folder of its own first: a test running beside setup never sees half a binary.
  const staging = join(dir, `partial-${Deno.pid}`);
  const partial = join(staging, basename(installed));
  mkdirSync(staging, { recursive: true });
  copyFileSync(binary, partial);
  chmodSync(partial, 0o755);
  const probe = await new Deno.Command(partial, {
    args: ["--version"],
    env: RUNTIME_ENV,
    stdout: "null",
    stderr: "piped",
  })
    .output().catch((e: Error) => ({
      success: false,
      stderr: new TextEncoder().encode(e.message),
    }));
  if (!probe.success) {
    rmSync(staging, { recursive: true, force: true });
    return { reason: `${MULTITOOL} does not run here: ${decode(probe.stderr).split("\n")[0]}` };
  }
  renameSync(partial, installed);
  rmSync(staging, { recursive: true, force: true });
  return { path: installed };
}

/** One problem the Multitool reports: the run of the log it is about, its rule, level and message. */
export interface MultitoolResult {
  run: number;
  rule: string;
  level: string;
  message: string;
}

interface Result {
  ruleId: string;
  level?: string;
  message: { text?: string; id?: string; arguments?: string[] };
}

/**
 * Runs `Sarif.Multitool validate --rule-kind Gh;Sarif` on the SARIF `log`
 * and returns its errors and warnings (notes, such as links it could not
 * reach offline, are left out). One log of several runs costs one start of
 * the .NET runtime, a few seconds, where a log per run costs one each.
 */
export async function validateSarif(tool: string, log: unknown): Promise<MultitoolResult[]> {
  const dir = await Deno.makeTempDir({ prefix: "wayfinder-multitool-" });
  const input = join(dir, "wayfinder.sarif");
  const output = join(dir, "validation.sarif");
  await Deno.writeTextFile(input, JSON.stringify(log, null, 2));
  const run = await new Deno.Command(tool, {
    // The log comes first: list options such as --rule-kind take the values after them.
    args: ["validate", input, "--rule-kind", "Gh;Sarif", "--output", output],
    env: { ...RUNTIME_ENV, HOME: dir },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!existsSync(output)) {
    const text = new TextDecoder().decode(run.stdout) + new TextDecoder().decode(run.stderr);
    throw new Error(`the Multitool wrote no log (exit ${run.code}): ${text}`);
  }
  const validation = JSON.parse(await Deno.readTextFile(output));
  await Deno.remove(dir, { recursive: true });
  const results: Result[] = validation.runs.flatMap((r: { results?: Result[] }) => r.results ?? []);
  return results
    .map((r) => ({
      run: runOf(r),
      rule: r.ruleId,
      // SARIF's default level is warning.
      level: r.level ?? "warning",
      message: `${r.message.id ?? ""}: ${(r.message.arguments ?? []).join(", ")}`,
    }))
    .filter((r) => r.level === "error" || r.level === "warning");
}

/** Which run of the input a problem is about: its first argument is a JSON path such as `runs[2].tool`. */
function runOf(result: Result): number {
  const path = result.message.arguments?.[0] ?? "";
  return Number(/^runs\[(\d+)\]/.exec(path)?.[1] ?? -1);
}
