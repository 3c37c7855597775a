/**
 * validate on a generated 10,000-concept bundle (100 folders of 100
 * concepts, each with full front matter and two links, plus the generated
 * indexes). The budget is 3 s for one validation.
 *
 * Measured on the project's 2-core machine, shared with other work: 1.5 s
 * per validation (1.3–2.1 s) at load ≈4, 3.8 s at load ≈10. About 80% of it
 * is YAML parsing of the front matter.
 *
 *   deno bench -A bench/validate_bench.ts
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { applyIndexFixes, planIndexFixes, validateBundle } from "../src/okf/mod.ts";

const CONCEPTS = 10_000;
const PER_FOLDER = 100;

function concept(folder: number, i: number): string {
  return [
    "---",
    "type: Guide",
    `title: Concept ${folder}-${i}`,
    `description: What concept ${i} of folder ${folder} is about.`,
    "status: stable",
    "tags: [bench, generated]",
    "generated: { by: process:bench, at: 2026-06-01T09:00:00Z }",
    "sources:",
    `  - id: src-${i}`,
    `    resource: https://example.test/${folder}/${i}`,
    "---",
    "",
    "# Body",
    "",
    `Links to [a neighbour](/f${folder}/c${
      (i + 1) % PER_FOLDER
    }.md) and [a missing page](missing-${i}.md).[^src-${i}]`,
    "",
    `[^src-${i}]: Source ${i}`,
    "",
  ].join("\n");
}

const root = Deno.makeTempDirSync({ prefix: "wayfinder-validate-bench-" });
for (let folder = 0; folder < CONCEPTS / PER_FOLDER; folder++) {
  mkdirSync(join(root, `f${folder}`));
  for (let i = 0; i < PER_FOLDER; i++) {
    writeFileSync(join(root, `f${folder}`, `c${i}.md`), concept(folder, i));
  }
}
writeFileSync(join(root, "index.md"), '---\nokf_version: "0.2"\n---\n\n# Subdirectories\n');
const plan = planIndexFixes(root);
applyIndexFixes(plan.root, plan.changes);

Deno.bench("validateBundle() on 10,000 concepts", { n: 5, warmup: 1 }, async () => {
  const report = await validateBundle(root);
  if (report.concepts !== CONCEPTS || report.counts.error !== 0) {
    throw new Error(`unexpected report: ${JSON.stringify(report.counts)}`);
  }
});

Deno.bench(
  "validate --fix planning on 10,000 concepts (nothing to write)",
  { n: 5, warmup: 1 },
  () => {
    if (planIndexFixes(root).changes.length !== 0) throw new Error("indexes were not current");
  },
);
