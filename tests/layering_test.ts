/**
 * The import rules that keep stages independent: other folders are reached
 * only through their mod.ts; src/ never reaches into commands/ or the
 * process, and reads the environment only in config/; only the llama files
 * import node-llama-cpp and only the Orama backend (src/store/orama/) imports
 * Orama, through its public API. The command line and the MCP server are clients of the
 * library: from src/ they import src/mod.ts, what a user imports, and
 * src/cli/mod.ts, what only they need and nothing the library exports
 * (commands/mcp.ts also imports the server, src/mcp/mod.ts).
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
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

/**
 * Why `from` (a file under src/) may not import `target` (resolved, relative
 * to src/), or null when it may. A folder is reached only through its
 * mod.ts, and so is a sub-folder from outside it (src/okf/profiles/mod.ts
 * from src/okf/knowledge/); files at the top of src/ (types, errors, paths,
 * row ranges) are shared by every stage.
 */
function layeringBreak(from: string, target: string): string | null {
  if (target.startsWith("..")) return "outside src";
  const to = target.split("/");
  // testdata/ holds helpers for tests and benches, which reach into it directly.
  if (to.length === 1 || to.includes("testdata")) return null;
  const here = dirname(from).split("/");
  // The deepest folder of `target` that `from` is not inside must be entered through its mod.ts.
  let shared = 0;
  while (shared < to.length - 1 && here[shared] === to[shared]) shared++;
  if (shared === to.length - 1) return null;
  const entered = to.slice(0, shared + 1).join("/");
  return target === `${entered}/mod.ts` ? null : `not through ${entered}/mod.ts`;
}

Deno.test("src/ folders and sub-folders reach each other only through mod.ts", () => {
  const offending: string[] = [];
  for (const { path, text } of sources()) {
    for (const spec of imports(text)) {
      if (!spec.startsWith(".")) continue;
      const target = relative(SRC, join(SRC, dirname(path), spec));
      const why = layeringBreak(path, target);
      if (why) offending.push(`${path} → ${spec} (${why})`);
    }
  }
  assert.deepEqual(offending, []);
});

Deno.test("the layering rule: a sub-folder from outside it only through its mod.ts", () => {
  assert.equal(layeringBreak("okf/knowledge/concept.ts", "okf/conformance/mod.ts"), null);
  assert.equal(layeringBreak("okf/knowledge/concept.ts", "okf/knowledge/x.ts"), null);
  assert.equal(layeringBreak("okf/mod.ts", "okf/profiles/mod.ts"), null);
  assert.equal(layeringBreak("okf/knowledge/concept.ts", "error.ts"), null);
  assert.equal(layeringBreak("corpus/a.ts", "okf/mod.ts"), null);
  assert.equal(
    layeringBreak("okf/knowledge/concept.ts", "okf/conformance/find_links.ts"),
    "not through okf/conformance/mod.ts",
  );
  assert.equal(layeringBreak("corpus/a.ts", "okf/profiles/mod.ts"), "not through okf/mod.ts");
  assert.equal(layeringBreak("corpus/a.ts", "search/rank.ts"), "not through search/mod.ts");
  assert.equal(
    layeringBreak("okf/mod.ts", "okf/profiles/git.ts"),
    "not through okf/profiles/mod.ts",
  );
});

/** The parts of src/okf and the parts each may use: conformance/ stands alone. */
const OKF_PARTS: Record<string, string[]> = {
  "okf/conformance": [],
  "okf/profiles": ["okf/conformance"],
  "okf/knowledge": ["okf/conformance"],
};

Deno.test("src/okf: profiles/ and knowledge/ build on conformance/, which uses neither", () => {
  const partOf = (path: string) => path.split("/").slice(0, 2).join("/");
  const offending: string[] = [];
  for (const { path, text } of sources()) {
    const from = partOf(path);
    if (!(from in OKF_PARTS)) continue;
    for (const spec of imports(text)) {
      if (!spec.startsWith(".")) continue;
      const to = partOf(relative(SRC, join(SRC, dirname(path), spec)));
      if (to !== from && to in OKF_PARTS && !OKF_PARTS[from]!.includes(to)) {
        offending.push(`${path} → ${spec}`);
      }
    }
  }
  assert.deepEqual(offending, []);
  assert.deepEqual(
    readdirSync(join(SRC, "okf"), { withFileTypes: true }).filter((e) => e.isDirectory())
      .map((e) => `okf/${e.name}`).sort(),
    Object.keys(OKF_PARTS).sort(),
  );
});

Deno.test("src/ never touches the process: no console, Deno.exit or Deno.args", () => {
  const offending = sources()
    .filter(({ text }) => /\bconsole\.|Deno\.exit|Deno\.args/.test(text))
    .map(({ path }) => path);
  assert.deepEqual(offending, []);
});

Deno.test("only the llama embedders import node-llama-cpp, and only src/store/orama/ imports Orama", () => {
  const users = (pkg: RegExp) =>
    sources().filter(({ text }) => imports(text).some((s) => pkg.test(s))).map(({ path }) => path)
      .sort();
  assert.ok(
    users(/^node-llama-cpp$/).every((p) => /^embed\/llama\w*\.ts$/.test(p)),
    users(/^node-llama-cpp$/).join(),
  );
  assert.ok(
    users(/^@orama\//).every((p) => p.startsWith("store/orama/")),
    users(/^@orama\//).join(),
  );
});

Deno.test("no file in src/ runs over 400 lines without a reason on its first line", () => {
  const offending = readdirSync(SRC, { recursive: true, encoding: "utf8" })
    .filter((p) => p.endsWith(".ts"))
    .map((p) => ({ path: p, text: readFileSync(join(SRC, p), "utf8") }))
    .filter(({ text }) => text.split("\n").length > 401 && !text.startsWith("// Over 400 lines: "))
    .map(({ path }) => path);
  assert.deepEqual(offending, []);
});

Deno.test("src/ reads the environment only in config/", () => {
  const offending = sources()
    .filter(({ path, text }) => !path.startsWith("config/") && /\bDeno\.env\b/.test(text))
    .map(({ path }) => path);
  assert.deepEqual(offending, []);
});

/** The names a module's `export { … }` lists and `export * from` brings. */
function exportedNames(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const listed = [...text.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)].flatMap((m) =>
    m[1]!.split(",").map((n) => n.trim().replace(/^type\s+/, "").split(/\s+as\s+/).pop()!)
  );
  const declared = [
    ...text.matchAll(/^export (?:async )?(?:function|interface|type|const|class) (\w+)/gm),
  ]
    .map((m) => m[1]!);
  const starred = [...text.matchAll(/export \* from "([^"]+)"/g)]
    .flatMap((m) => exportedNames(join(file, "..", m[1]!)));
  return [...listed, ...declared, ...starred].filter(Boolean);
}

Deno.test("commands/ and src/mcp/ import from src/ only the library and the CLI's module", () => {
  const allowed = new Set(["mod.ts", "cli/mod.ts"]);
  const clients = [
    ...readdirSync(join(REPO, "commands")).map((p) => join(REPO, "commands", p)),
    ...readdirSync(join(SRC, "mcp")).map((p) => join(SRC, "mcp", p)),
  ].filter((p) => p.endsWith(".ts"));
  const offending: string[] = [];
  for (const file of clients) {
    for (const spec of imports(readFileSync(file, "utf8"))) {
      if (!spec.startsWith(".")) continue;
      const target = relative(SRC, join(file, "..", spec));
      if (target.startsWith("..")) continue; // commands/ and tests/ helpers of their own
      const own = file.startsWith(join(SRC, "mcp")) && target.startsWith("mcp/");
      const server = file === join(REPO, "commands", "mcp.ts") && target === "mcp/mod.ts";
      if (!allowed.has(target) && !own && !server) {
        offending.push(`${relative(REPO, file)} → ${spec}`);
      }
    }
  }
  assert.deepEqual(offending, []);
  const library = new Set(exportedNames(join(SRC, "mod.ts")));
  const repeated = exportedNames(join(SRC, "cli", "mod.ts")).filter((name) => library.has(name));
  assert.deepEqual(repeated, [], "src/cli/mod.ts repeats what the library exports");
});

Deno.test("the stages below the corpus throw structured fixes: none of them imports hints.ts", () => {
  const offending = sources()
    .filter(({ path }) => /^(store|fit|pipeline|walk|chunk|embed|search)\//.test(path))
    .filter(({ text }) => imports(text).some((spec) => spec === "../hints.ts"))
    .map(({ path }) => path);
  assert.deepEqual(offending, []);
});
