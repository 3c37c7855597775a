/** Runs the system `git` without prompts; failures become one-line errors. */
import { WayfinderError } from "../../error.ts";

/** Options for {@link runGit}. */
export interface GitOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** What the command was doing, for the error message ("Cannot fetch 'x'"). */
  doing: string;
}

/**
 * `git <args>`, returning trimmed stdout.
 * @throws {WayfinderError} `io` naming what failed and git's last line of stderr.
 */
export async function runGit(args: string[], options: GitOptions): Promise<string> {
  let output;
  try {
    output = await new Deno.Command("git", {
      args,
      cwd: options.cwd,
      // Never wait on a credential prompt: an unreachable source fails instead.
      env: { GIT_TERMINAL_PROMPT: "0", GIT_ASKPASS: "true", ...options.env },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
  } catch (error) {
    throw new WayfinderError(
      "io",
      `${options.doing}: cannot run git (${(error as Error).message})`,
    );
  }
  if (!output.success) {
    const lines = new TextDecoder().decode(output.stderr).trim().split("\n").filter(Boolean);
    const reason = (lines[lines.length - 1] ?? `git exited ${output.code}`).replace(/^fatal: /, "");
    throw new WayfinderError("io", `${options.doing}: ${reason}`);
  }
  return new TextDecoder().decode(output.stdout).trim();
}
