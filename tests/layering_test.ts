/**
 * The import rules that keep stages independent: other folders are reached
 * only through their mod.ts; src/ never reaches into commands/ or the
 * process; only the llama files import node-llama-cpp and nothing in src/
 * imports Orama (its public API was measured against the store's own index;
 * bench/lexical_probe.ts keeps that comparison).
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { REPO } from "./_run.ts";

const SRC = join(REPO, "src");

function sources(): { path: string; text: string }[] {
  return readdirSync(SRC, { recursive: true, encoding: "utf8" })
    .filter((p) => p.endsWith(".ts") && !p.endsWith("_test.ts") && !p.includes("testdata"))
    .map((p) => ({ path: p, text: readFileSync(join(SRC, p), "utf8") }));
}

function imports(text: string): string[] {
  return [...text.matchAll(/^\s*(?:import|export)[^;]*?from\s+"([^"]+)"/gms)].map((m) => m[1]!);
}

Deno.test("src/ folders reach each other only through mod.ts", () => {
  const offending: string[] = [];
  for (const { path, text } of sources()) {
    const folder = path.split("/")[0];
    for (const spec of imports(text)) {
      if (!spec.startsWith("../")) continue;
      const target = relative(SRC, join(SRC, folder!, spec));
      if (target.startsWith("..")) offending.push(`${path} → ${spec} (outside src)`);
      // Files at the top of src/ (types, errors, paths, row ranges) are shared by every stage.
      else if (target.includes("/") && !/\/mod\.ts$/.test(target)) {
        offending.push(`${path} → ${spec}`);
      }
    }
  }
  assert.deepEqual(offending, []);
});

Deno.test("src/ never touches the process: no console, Deno.exit or Deno.args", () => {
  const offending = sources()
    .filter(({ text }) => /\bconsole\.|Deno\.exit|Deno\.args/.test(text))
    .map(({ path }) => path);
  assert.deepEqual(offending, []);
});

Deno.test("only the llama embedders import node-llama-cpp, and src/ does not import Orama", () => {
  const users = (pkg: RegExp) =>
    sources().filter(({ text }) => imports(text).some((s) => pkg.test(s))).map(({ path }) => path)
      .sort();
  assert.ok(
    users(/^node-llama-cpp$/).every((p) => /^embed\/llama\w*\.ts$/.test(p)),
    users(/^node-llama-cpp$/).join(),
  );
  assert.deepEqual(users(/^@orama\//), []);
});
