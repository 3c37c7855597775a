import { equal } from "node:assert/strict";
import { BUILD_DEFAULTS } from "../build_defaults.ts";
import type { RecordedSettings } from "../store/mod.ts";
import { rebuildFix, type RebuildInput } from "./rebuild_command.ts";

const DEFAULTS: RecordedSettings = {
  embedder: { provider: "llama" },
  longInput: "reject",
  include: [],
  exclude: [],
  maxFileBytes: 1_048_576,
  maxChunkChars: BUILD_DEFAULTS.maxChunkChars,
  quantization: "none",
};

const command = (input: Partial<RebuildInput>) =>
  rebuildFix({
    root: "/corpus",
    chosen: { embedder: {}, index: {} },
    recorded: DEFAULTS,
    looksLikeBundle: false,
    ...input,
  }).command;

Deno.test("rebuildFix().command is the plain rebuild when nothing was chosen and the record holds defaults", () => {
  equal(command({}), "wayfinder index /corpus --rebuild");
  equal(command({ recorded: undefined }), "wayfinder index /corpus --rebuild");
});

Deno.test("rebuildFix().command repeats the caller's own choices, quoted where a shell needs it", () => {
  equal(
    command({ chosen: { embedder: { longInput: "truncate" }, index: {} } }),
    "wayfinder index /corpus --long-input truncate --rebuild",
  );
  equal(
    command({
      root: "/my corpus",
      chosen: { embedder: { model: "/models/other.gguf" }, index: { exclude: ["*.min.js"] } },
    }),
    'wayfinder index "/my corpus" --model /models/other.gguf --exclude "*.min.js" --rebuild',
  );
  // A default chosen on purpose may override the environment: it is repeated too.
  equal(
    command({ chosen: { embedder: { longInput: "reject" }, index: {} } }),
    "wayfinder index /corpus --long-input reject --rebuild",
  );
});

Deno.test("rebuildFix().command leaves out what the environment or wayfinder.json chose: the rebuild reads it again", () => {
  equal(
    command({
      chosen: { embedder: { longInput: "truncate", model: "/m.gguf" }, index: { knowledge: true } },
      fromConfig: ["longInput", "knowledge"],
    }),
    "wayfinder index /corpus --model /m.gguf --rebuild",
  );
});

Deno.test("rebuildFix().command repeats what only the record held: a rebuild discards it", () => {
  const recorded: RecordedSettings = {
    ...DEFAULTS,
    embedder: { provider: "llama", model: "/models/tiny.gguf" },
    exclude: ["vendor/**"],
    quantization: "int8",
  };
  equal(
    command({ recorded, chosen: { embedder: { longInput: "truncate" }, index: {} } }),
    "wayfinder index /corpus --model /models/tiny.gguf --long-input truncate " +
      '--exclude "vendor/**" --quantization int8 --rebuild',
  );
  // The caller's choice wins over the record; another provider drops the recorded model and URL.
  equal(
    command({ recorded, chosen: { embedder: { model: "/other.gguf" }, index: { exclude: [] } } }),
    'wayfinder index /corpus --model /other.gguf --exclude "" --quantization int8 --rebuild',
  );
  const http: RecordedSettings = {
    ...DEFAULTS,
    embedder: { provider: "ollama", model: "nomic", url: "http://127.0.0.1:11434" },
  };
  equal(
    command({ recorded: http }),
    "wayfinder index /corpus --embedder ollama --embedder-url http://127.0.0.1:11434 " +
      "--model nomic --rebuild",
  );
  equal(
    command({ recorded: http, chosen: { embedder: { provider: "llama" }, index: {} } }),
    "wayfinder index /corpus --embedder llama --rebuild",
  );
});

Deno.test("rebuildFix().command names --knowledge or --no-knowledge only when a rebuild would decide otherwise", () => {
  const bundle = { ...DEFAULTS, knowledge: true };
  equal(command({ recorded: bundle, looksLikeBundle: true }), "wayfinder index /corpus --rebuild");
  equal(
    command({ recorded: bundle, looksLikeBundle: false }),
    "wayfinder index /corpus --knowledge --rebuild",
  );
  const off = { ...DEFAULTS, knowledgeOff: true as const };
  equal(
    command({ recorded: off, looksLikeBundle: true }),
    "wayfinder index /corpus --no-knowledge --rebuild",
  );
  equal(command({ recorded: off, looksLikeBundle: false }), "wayfinder index /corpus --rebuild");
  equal(
    command({ chosen: { embedder: {}, index: { knowledge: false } } }),
    "wayfinder index /corpus --no-knowledge --rebuild",
  );
});

Deno.test("rebuildFix() tells which flags only the record gave: a rebuild from the caller's settings drops them", () => {
  const input = (recorded: RecordedSettings, looksLikeBundle = false): RebuildInput => ({
    root: "/corpus",
    chosen: { embedder: { model: "/m.gguf", longInput: "truncate" }, index: {} },
    fromConfig: ["longInput"],
    recorded,
    looksLikeBundle,
  });
  const recorded: RecordedSettings = {
    ...DEFAULTS,
    embedder: { provider: "llama", model: "/models/tiny.gguf" },
    exclude: ["vendor/**"],
    maxChunkChars: 800,
    knowledge: true,
  };
  const fix = rebuildFix(input(recorded));
  equal(
    fix.command,
    'wayfinder index /corpus --model /m.gguf --exclude "vendor/**" --max-chunk-chars 800 ' +
      "--knowledge --rebuild",
  );
  // The caller's own --model is no loss; the record's globs, budget and bundle choice are.
  equal(fix.recorded, '--exclude "vendor/**" --max-chunk-chars 800 --knowledge');
  equal(rebuildFix(input(DEFAULTS)).recorded, "");
  equal(rebuildFix(input({ ...DEFAULTS, knowledge: true }, true)).recorded, "");
});
