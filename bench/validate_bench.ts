/**
 * validate on a generated 10,000-concept bundle (100 folders of 100
 * concepts, each with full front matter and two links, plus the generated
 * indexes and a log): OKF conformance alone, and through `validateProject`
 * (what the command calls) with the peer's bitwild Profile bound in
 * wayfinder.json, pinned by `getProfiles` from a local git repository and
 * read from the cache. The budget is 3 s for one validation.
 *
 * Measured on the project's 2-core machine, shared with other work: 1.5 s
 * per validation (1.3–2.1 s) at load ≈4, 3.8 s at load ≈10. About 80% of it
 * is YAML parsing of the front matter. Two runs with the host so busy that
 * the bench got about 0.7 of a core: 2.3 and 2.2 s without a Profile, 2.5
 * and 1.8 s with bitwild (min 1.6, max 2.8): its 27 rules cost less than
 * the machine's noise.
 */
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  applyIndexFixes,
  getProfiles,
  planIndexFixes,
  validateBundle,
  validateProject,
} from "../src/okf/mod.ts";

const PEER_PROFILE = fileURLToPath(
  new URL("../fixtures/okf/peer/profiles/bitwild", import.meta.url),
);

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

// The bundle sits in a project whose wayfinder.json binds the peer's bitwild Profile to it.
const project = Deno.makeTempDirSync({ prefix: "wayfinder-validate-bench-" });
const root = join(project, "knowledge");
for (let folder = 0; folder < CONCEPTS / PER_FOLDER; folder++) {
  mkdirSync(join(root, `f${folder}`), { recursive: true });
  for (let i = 0; i < PER_FOLDER; i++) {
    writeFileSync(join(root, `f${folder}`, `c${i}.md`), concept(folder, i));
  }
}
writeFileSync(join(root, "index.md"), '---\nokf_version: "0.2"\n---\n\n# Subdirectories\n');
writeFileSync(
  join(root, "log.md"),
  "# Knowledge Log\n\n## 2026-06-01\n* **Creation**: Generated the bench bundle.\n",
);
const plan = planIndexFixes(root);
applyIndexFixes(plan.root, plan.changes);

const configFile = join(project, "wayfinder.json");
const dataRoot = join(project, "data");
writeFileSync(
  configFile,
  JSON.stringify({
    version: 1,
    profiles: {
      bitwild: {
        source: { git: await profileRepo(), ref: "main", path: "profiles/bitwild" },
        applies_to: ["./knowledge"],
        tags: [{ name: "bench" }, { name: "generated" }],
        actors: { "process:bench": { name: "Bench generator" } },
      },
    },
  }),
);
// What 'wayfinder get' does: lock the Profile and fill the cache validate reads.
await getProfiles({ configFile, dataRoot });

/** A git repository holding the peer's bitwild Profile package (from fixtures). */
async function profileRepo(): Promise<string> {
  const dir = Deno.makeTempDirSync({ prefix: "wayfinder-validate-bench-profiles-" });
  cpSync(PEER_PROFILE, join(dir, "profiles", "bitwild"), { recursive: true });
  for (const args of [["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "p"]]) {
    const out = await new Deno.Command("git", {
      args: ["-c", "user.email=bench@example.test", "-c", "user.name=bench", ...args],
      cwd: dir,
      stderr: "piped",
    }).output();
    if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  }
  return dir;
}

Deno.bench("validateBundle() on 10,000 concepts", { n: 5, warmup: 1 }, async () => {
  const report = await validateBundle(root);
  if (report.concepts !== CONCEPTS || report.counts.error !== 0) {
    throw new Error(`unexpected report: ${JSON.stringify(report.counts)}`);
  }
});

Deno.bench(
  "validate on 10,000 concepts with the bound, locked bitwild Profile",
  { n: 5, warmup: 1 },
  async () => {
    const report = await validateProject(root, { configFile, dataRoot });
    if (report.profiles[0]?.status !== "applied" || report.gate !== "PASS") {
      throw new Error(`unexpected report: ${report.gate} ${JSON.stringify(report.counts)}`);
    }
  },
);

Deno.bench(
  "validate --fix planning on 10,000 concepts (nothing to write)",
  { n: 5, warmup: 1 },
  () => {
    if (planIndexFixes(root).changes.length !== 0) throw new Error("indexes were not current");
  },
);
