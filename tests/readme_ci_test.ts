/**
 * The README's CI recipe must run on a fresh runner: the embedding model is
 * gitignored, so compare-embeddings needs a prepare step (and a cache keyed
 * on the committed model manifest) before it.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { REPO } from "./_run.ts";

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, string>;
}

function ciSteps(): Step[] {
  const readme = readFileSync(join(REPO, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("### CI recipe"));
  const yaml = section.match(/```yaml\n([\s\S]*?)```/)![1]!;
  const workflow = parse(yaml) as { jobs: Record<string, { steps: Step[] }> };
  return Object.values(workflow.jobs).flatMap((job) => job.steps);
}

Deno.test("README CI recipe prepares the gitignored model before compare-embeddings, cached on its manifest", () => {
  const steps = ciSteps();
  const at = (test: (s: Step) => boolean) => steps.findIndex(test);
  const compare = at((s) => /wayfinder compare-embeddings/.test(s.run ?? ""));
  const prepare = at((s) => /wayfinder model prepare\b/.test(s.run ?? ""));
  const cache = at((s) => /^actions\/cache@/.test(s.uses ?? ""));
  assert.ok(compare > 0, "the recipe runs compare-embeddings");
  assert.ok(prepare >= 0 && prepare < compare, "model prepare runs before compare-embeddings");
  assert.ok(cache >= 0 && cache < prepare, "the model cache is restored before prepare");
  const { path, key } = steps[cache]!.with!;
  assert.match(path!, /models\/embedding\.gguf/);
  const manifest = key!.match(/hashFiles\('([^']+)'\)/)![1]!;
  assert.ok(existsSync(join(REPO, manifest)), `${manifest} is committed`);
  assert.match(readFileSync(join(REPO, ".gitignore"), "utf8"), /^models\/\*\.gguf$/m);
});
