/**
 * Test helpers: run the real CLI (main.ts) in a subprocess, and locate the
 * models the test setup prepared (tests/setup.ts).
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

export const REPO = dirname(dirname(fileURLToPath(import.meta.url)));
export const MAIN = join(REPO, "main.ts");
export const CACHE = join(REPO, ".cache");

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `wayfinder <args>` as a command, with a clean environment plus `env` (one thread unless set). */
export function wayfinderCommand(
  args: string[],
  env: Record<string, string> = {},
  options: { cwd?: string; stdout?: "piped" | "null" } = {},
): Deno.Command {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", MAIN, ...args],
    cwd: options.cwd ?? REPO,
    env: { NO_COLOR: "1", WAYFINDER_THREADS: "1", ...env },
    clearEnv: true,
    stdout: options.stdout ?? "piped",
    stderr: "piped",
  });
}

/** Runs `wayfinder <args>` with a clean environment plus `env`. */
export async function wayfinder(
  args: string[],
  env: Record<string, string> = {},
  cwd = REPO,
): Promise<RunResult> {
  const output = await wayfinderCommand(args, env, { cwd }).output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

/**
 * Starts `wayfinder <args>` (a long-running command such as `watch`),
 * reads its first line of stdout, then stops it with SIGTERM.
 */
export async function firstLineThenStop(
  args: string[],
  env: Record<string, string> = {},
): Promise<RunResult & { first: string }> {
  const child = wayfinderCommand(args, env).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let first = "";
  while (!first.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    first += value;
  }
  reader.releaseLock();
  child.kill("SIGTERM");
  await child.stdout.cancel().catch(() => {});
  const stderr = await new Response(child.stderr).text();
  return { code: (await child.status).code, first, stdout: first, stderr };
}

/** The tiny deterministic test model the setup generated. */
export function tinyModel(): string {
  return preparedModel("tiny.gguf");
}

/** all-MiniLM-L6-v2, converted by the setup from its PyPI wheel. */
export function realModel(): string {
  return preparedModel("minilm-f16.gguf");
}

function preparedModel(name: string): string {
  const path = join(CACHE, "models", name);
  if (!existsSync(path)) {
    throw new Error(`${path} is missing: run 'deno task test' (it runs tests/setup.ts first)`);
  }
  return path;
}

/** Copies a fixture tree into a fresh temp dir, so tests may edit it. */
export async function copyTree(from: string): Promise<string> {
  const to = await Deno.makeTempDir({ prefix: "wayfinder-test-" });
  await new Deno.Command("cp", { args: ["-R", `${from}/.`, to] }).output();
  return to;
}

/** A folder of its own holding the tiny model as `embedding.gguf`, with its manifest. */
export async function tinyModelAlone(): Promise<{ models: string; gguf: string }> {
  const models = await Deno.makeTempDir({ prefix: "wayfinder-models-" });
  const gguf = join(models, "embedding.gguf");
  await Deno.copyFile(tinyModel(), gguf);
  await Deno.copyFile(
    tinyModel().replace(/\.gguf$/, ".manifest.json"),
    gguf.replace(/\.gguf$/, ".manifest.json"),
  );
  return { models, gguf };
}

/** `tinyModelAlone`, with a static model distilled from it (`--dims 16`) beside it. */
export async function tinyModelsWithStatic(): Promise<
  { models: string; gguf: string; staticPath: string }
> {
  const { models, gguf } = await tinyModelAlone();
  const distilled = await wayfinder(
    ["model", "distill", "--from", gguf, "--dims", "16", "--output", "json"],
  );
  if (distilled.code !== 0) throw new Error(`model distill failed: ${distilled.stderr}`);
  return { models, gguf, staticPath: JSON.parse(distilled.stdout).path };
}

/** A copy of the tiny model whose manifest caps its token budget, for fitting at small sizes. */
export async function tinyModelWithBudget(maxTokens: number): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "wayfinder-budget-" });
  const model = join(dir, `tiny-${maxTokens}.gguf`);
  await Deno.copyFile(tinyModel(), model);
  const manifest = JSON.parse(
    await Deno.readTextFile(tinyModel().replace(/\.gguf$/, ".manifest.json")),
  );
  await Deno.writeTextFile(
    model.replace(/\.gguf$/, ".manifest.json"),
    JSON.stringify({ ...manifest, maxTokens }),
  );
  return model;
}
