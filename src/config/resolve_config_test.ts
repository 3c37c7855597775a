import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { WayfinderError } from "../error.ts";
import { parseFlags } from "./parse_flags.ts";
import { findConfigFile, KNOWN_TOP_LEVEL_KEYS, resolveConfig } from "./resolve_config.ts";
import type { CommandSpec } from "./parse_flags.ts";

const spec: CommandSpec = {
  name: "search",
  summary: "test",
  positionals: ["root", "query"],
  settings: [
    "output",
    "dataDir",
    "model",
    "limit",
    "longInput",
    "path",
    "threads",
    "debug",
    "mode",
  ],
};

function project(config: unknown): string {
  const root = Deno.makeTempDirSync();
  writeFileSync(join(root, "wayfinder.json"), JSON.stringify(config));
  mkdirSync(join(root, "src", "deep"), { recursive: true });
  return root;
}

Deno.test("resolveConfig() prefers flags over environment over wayfinder.json over defaults", () => {
  const root = project({
    search: { limit: 7 },
    embedding: { model: "from-file.gguf", longInput: "truncate" },
  });
  const target = join(root, "src", "deep");
  const resolveWith = (args: string[], env: Record<string, string>) =>
    resolveConfig(spec.settings, parseFlags(spec, [target, "q", ...args]), {
      env,
      cwd: root,
      target,
    });

  const fromFile = resolveWith([], {});
  assert.equal(fromFile.settings.limit, 7);
  // A llama model path is made absolute against where it was written: the file's folder…
  assert.equal(fromFile.settings.model, join(root, "from-file.gguf"));
  assert.equal(fromFile.sources.model, "file");
  assert.equal(fromFile.settings.longInput, "truncate");
  assert.equal(fromFile.settings.output, "text");
  assert.equal(fromFile.sources.output, "default");
  assert.equal(fromFile.configFile, join(root, "wayfinder.json"));

  const fromEnv = resolveWith([], {
    WAYFINDER_EMBEDDING_MODEL: "env.gguf",
    WAYFINDER_OUTPUT: "json",
  });
  // …or the working directory for a variable or a flag.
  assert.equal(fromEnv.settings.model, join(root, "env.gguf"));
  assert.equal(fromEnv.sources.model, "env");
  assert.equal(fromEnv.settings.output, "json");

  const fromFlag = resolveWith(["--model", "flag.gguf", "--limit", "3"], {
    WAYFINDER_EMBEDDING_MODEL: "env.gguf",
  });
  assert.equal(fromFlag.settings.model, join(root, "flag.gguf"));
  assert.equal(fromFlag.sources.model, "flag");
  assert.equal(fromFlag.settings.limit, 3);
  // Computed defaults: the data root from the environment.
  assert.equal(resolveWith([], { HOME: "/h" }).settings.dataDir, "/h/.local/share/wayfinder");
  assert.equal(resolveWith([], { XDG_DATA_HOME: "/xdg" }).settings.dataDir, "/xdg/wayfinder");
  // An alias is read as the word it stands for.
  assert.equal(resolveWith(["--mode", "bm25"], {}).settings.mode, "lexical");
});

Deno.test("resolveConfig() resolves wayfinder.json paths against the file's folder", () => {
  const root = project({ dataDir: "./data" });
  const config = resolveConfig(spec.settings, parseFlags(spec, [root, "q"]), {
    env: {},
    cwd: "/",
    target: root,
  });
  assert.equal(config.settings.dataDir, join(root, "data"));
});

Deno.test("resolveConfig() collects repeatable flags and comma lists", () => {
  const flags = parseFlags(spec, [".", "q", "--path", "src/**", "--path", "lib/*.ts"]);
  const config = resolveConfig(spec.settings, flags, { env: {}, cwd: Deno.makeTempDirSync() });
  assert.deepEqual(config.settings.path, ["src/**", "lib/*.ts"]);
  assert.ok(Object.isFrozen(config) && Object.isFrozen(config.settings));
});

Deno.test("resolveConfig() rejects bad values with a one-line reason", () => {
  const cwd = Deno.makeTempDirSync();
  const bad = (args: string[], env: Record<string, string> = {}) =>
    assert.throws(
      () => resolveConfig(spec.settings, parseFlags(spec, [".", "q", ...args]), { env, cwd }),
      (e: unknown) => e instanceof WayfinderError && e.exit === 2 && !e.message.includes("\n"),
    );
  bad(["--limit", "ten"]);
  bad(["--limit", "-1"]);
  bad(["--long-input", "chop"]);
  bad(["--output", "xml"]);
  bad([], { WAYFINDER_THREADS: "many" });
});

Deno.test("resolveConfig() reports malformed wayfinder.json as a one-line config error", () => {
  const root = Deno.makeTempDirSync();
  for (const text of ["{ not json", "garbage\n", '{\n  "a": 1,\n}\n']) {
    writeFileSync(join(root, "wayfinder.json"), text);
    assert.throws(
      () =>
        resolveConfig(spec.settings, parseFlags(spec, [root, "q"]), {
          env: {},
          cwd: root,
          target: root,
        }),
      (e: unknown) =>
        e instanceof WayfinderError && e.code === "config" &&
        e.message.startsWith(`Cannot read config '${join(root, "wayfinder.json")}': `) &&
        !e.message.includes("\n"),
    );
  }
});

Deno.test("resolveConfig() warns once about each key of wayfinder.json nothing reads, with the nearest known one", () => {
  const root = project({
    version: 1,
    profiles: {},
    search: { limit: 3, lmit: 4 },
    mcp: { roots: ["."] },
    watch: {},
    embeding: { model: "typo.gguf" },
    serach: {},
    zzz: 1,
  });
  const config = resolveConfig(spec.settings, parseFlags(spec, [root, "q"]), {
    env: {},
    cwd: root,
    target: root,
  });
  const file = join(root, "wayfinder.json");
  assert.deepEqual(config.warnings, [
    `Unknown key 'search.lmit' in '${file}': wayfinder does not read it; did you mean 'search.limit'?`,
    `Unknown top-level key 'embeding' in '${file}': wayfinder does not read it; did you mean 'embedding'?`,
    `Unknown top-level key 'serach' in '${file}': wayfinder does not read it; did you mean 'search'?`,
    `Unknown top-level key 'zzz' in '${file}': wayfinder does not read it`,
  ]);
  // Every setting's section is known, whichever command runs.
  for (const key of ["embedding", "index", "search", "dataDir", "knowledge", "mcp", "watch"]) {
    assert.ok(KNOWN_TOP_LEVEL_KEYS.includes(key), key);
  }
});

Deno.test("parseFlags() rejects unknown flags and missing arguments", () => {
  assert.throws(
    () => parseFlags(spec, [".", "q", "--colour"]),
    /Unknown flag '--colour' for 'wayfinder search'/,
  );
  assert.throws(() => parseFlags(spec, ["."]), /Missing <query>/);
  assert.throws(() => parseFlags(spec, [".", "q", "--limit"]), /needs a value/);
  assert.equal(parseFlags(spec, ["--help"]).help, true);
});

Deno.test("findConfigFile() finds the nearest wayfinder.json at or above a folder", () => {
  const root = project({});
  const inner = join(root, "src");
  writeFileSync(join(inner, "wayfinder.json"), "{}");
  assert.equal(findConfigFile(join(inner, "deep")), join(inner, "wayfinder.json"));
  assert.equal(findConfigFile(root), join(root, "wayfinder.json"));
});

Deno.test("resolveConfig() lets --no-<switch> turn off what wayfinder.json turned on", () => {
  const root = project({ knowledge: { current: true }, search: { expand: true } });
  const knowledge: CommandSpec = { ...spec, settings: ["current", "expand"] };
  const resolveWith = (args: string[]) =>
    resolveConfig(knowledge.settings, parseFlags(knowledge, [root, "q", ...args]), {
      env: {},
      cwd: root,
      target: root,
    });
  assert.equal(resolveWith([]).settings.current, true);
  assert.equal(resolveWith(["--no-current"]).settings.current, false);
  assert.equal(resolveWith(["--no-current"]).sources.current, "flag");
  assert.equal(resolveWith([]).settings.expand, true);
  assert.equal(resolveWith(["--no-expand"]).settings.expand, false);
  assert.deepEqual(resolveWith([]).warnings, []);
});
