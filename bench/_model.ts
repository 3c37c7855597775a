/**
 * The embedding model the real-model benches load: `$WAYFINDER_BENCH_MODEL`,
 * else the one `tests/setup.ts` prepares.
 */
import { existsSync } from "node:fs";
import { skipSuite } from "./_report.ts";

export const BENCH_MODEL = Deno.env.get("WAYFINDER_BENCH_MODEL") ??
  new URL("../.cache/models/minilm-f16.gguf", import.meta.url).pathname;

/** The model's path; without the file the suite is skipped, saying how to get it. */
export function requireModel(): string {
  if (existsSync(BENCH_MODEL)) return BENCH_MODEL;
  skipSuite(
    `no model at ${BENCH_MODEL}: run 'deno run -A tests/setup.ts' or set WAYFINDER_BENCH_MODEL`,
  );
}
