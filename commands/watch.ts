import {
  escapeLine,
  openConfiguredCorpus,
  plural,
  watchCorpus,
  type WatchUpdate,
} from "../src/cli/mod.ts";
import { type Command, type CommandContext, printJsonLine } from "./_command.ts";
import { listenForInterrupt } from "./_interrupt.ts";
import { BUILD_SETTINGS, corpusOptions, corpusRoot } from "./_wiring.ts";

/** `wayfinder watch <root>`: keep the index fresh as files change, until SIGINT or SIGTERM. */
export const watchCommand: Command = {
  spec: {
    name: "watch",
    summary:
      "Keep the index fresh: update it incrementally on file changes until interrupted (SIGINT/SIGTERM)",
    positionals: ["root"],
    // What index takes, less --rebuild and --events (watch reports through --output jsonl).
    settings: [
      ...BUILD_SETTINGS,
      "debounceMs",
    ],
  },
  targetPositional: 0,
  async run(config, context) {
    const corpus = await openConfiguredCorpus(
      corpusRoot(config, context),
      corpusOptions(config, context),
    );
    const interrupt = listenForInterrupt();
    try {
      await watchCorpus(corpus, {
        debounceMs: config.settings.debounceMs,
        signal: interrupt.signal,
        onUpdate: reporter(context, config.settings.output, corpus.root),
      });
      context.stderr("Stopped watching.\n");
      return 0;
    } finally {
      // Listeners stay until the models are closed: a signal during cleanup must not kill it.
      await corpus.close();
      interrupt.dispose();
    }
  },
};

/** The event each kind of update is reported as. */
const EVENTS = { initial: "watching", change: "updated", lost: "lost", back: "rearmed" } as const;

/**
 * One line per update that did something or failed (a failure also on stderr);
 * saves that changed nothing stay quiet.
 */
function reporter(
  context: CommandContext,
  output: "text" | "json" | "jsonl",
  root: string,
): (update: WatchUpdate) => void {
  return (update) => {
    const { summary, error } = update;
    if (summary?.current && update.trigger === "change") return;
    const event = error ? "failed" : EVENTS[update.trigger];
    const time = new Date().toISOString();
    const clock = time.slice(11, 19);
    // A failure is an error, so stderr in every format; the jsonl stream also gets its event.
    if (error) {
      context.stderr(`${clock} failed: ${escapeLine(error.message)}; the last index stays live\n`);
    }
    if (output !== "text") {
      const { skipped: _skipped, ...rest } = summary ?? { root };
      const failure = error ? { code: error.code, message: error.message } : {};
      printJsonLine(context, { event, time, paths: update.paths, ...rest, ...failure });
      return;
    }
    if (error) return;
    const what = update.trigger === "lost"
      ? `${escapeLine(root)} is gone; looking for it every second`
      : counts(update);
    context.stdout(`${clock} ${event}: ${what}\n`);
  };
}

function counts(update: WatchUpdate): string {
  const s = update.summary!;
  const root = escapeLine(s.root);
  if (s.current) return `${root} (index current, ${plural(s.files.seen, "file")})`;
  const what = `${s.files.changed} changed, ${s.files.deleted} deleted, ` +
    `${
      plural(s.embeddedChunks, "chunk")
    } embedded, ${s.removedChunks} removed in ${s.elapsedMs} ms`;
  const paths = update.paths.length > 0
    ? ` (${update.paths.slice(0, 3).map(escapeLine).join(", ")}` +
      `${update.paths.length > 3 ? ", …" : ""})`
    : "";
  return update.trigger === "change" ? `${what}${paths}` : `${root}, ${what}`;
}
