/**
 * What `deno task bench` prepares before its suites, as `deno task test`
 * runs tests/setup.ts before its tests: the embedding model the model suites
 * load and the real index the query suite reads, each only when a chosen
 * suite needs it (by what the suite imports).
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";

const ROOT = new URL("..", import.meta.url).pathname;
/** The model tests/setup.ts prepares: all-MiniLM-L6-v2, f16, the one the README's figures measure. */
const SETUP_MODEL = join(ROOT, ".cache", "models", "minilm-f16.gguf");
/** The model `deno task demo` stages. */
const DEMO_MODEL = join(ROOT, "models", "embedding.gguf");

/** What the chosen suites need prepared. */
export interface SuiteNeeds {
  model: boolean;
  realIndex: boolean;
}

/** Reads each suite's source: one that imports the bench model or the real index needs it. */
export async function suiteNeeds(suites: readonly string[]): Promise<SuiteNeeds> {
  const sources = await Promise.all(suites.map((suite) => readFile(join(ROOT, suite), "utf8")));
  return {
    model: sources.some((s) => s.includes(`"./_model.ts"`) || s.includes("WAYFINDER_BENCH_MODEL")),
    realIndex: sources.some((s) => s.includes(`"./_real_index.ts"`)),
  };
}

async function deno(args: string[], env: Record<string, string> = {}): Promise<boolean> {
  const child = new Deno.Command(Deno.execPath(), { args, cwd: ROOT, env, stdin: "null" });
  return (await child.spawn().status).success;
}

/**
 * The model the suites measure: `$WAYFINDER_BENCH_MODEL`, else the one
 * tests/setup.ts prepares (running it when the file is missing), else the
 * one `deno task demo` staged. When none is there the model suites skip,
 * naming the path; setup's own error line says why it could not prepare it.
 */
export async function prepareModel(): Promise<string> {
  const chosen = Deno.env.get("WAYFINDER_BENCH_MODEL");
  if (chosen) return chosen;
  if (!existsSync(SETUP_MODEL)) {
    console.log("\n── preparing the bench model: deno run -A tests/setup.ts");
    await deno(["run", "-A", "tests/setup.ts"]);
  }
  if (existsSync(SETUP_MODEL)) return SETUP_MODEL;
  if (existsSync(DEMO_MODEL)) {
    console.log(`── measuring ${DEMO_MODEL}, the model 'deno task demo' staged`);
    return DEMO_MODEL;
  }
  return SETUP_MODEL;
}

/**
 * Builds the real index for the query suite with `model`, unless it is
 * current (bench/_real_index.ts). A failure leaves the suite to skip its
 * real-vector half, saying so.
 */
export async function prepareRealIndex(model: string): Promise<void> {
  if (!existsSync(model)) return;
  console.log("\n── preparing the real index: deno run -A bench/_real_index.ts");
  const ok = await deno(["run", "-A", "bench/_real_index.ts"], { WAYFINDER_BENCH_MODEL: model });
  if (!ok) console.log("── the real index could not be built; the query suite skips its half");
}
