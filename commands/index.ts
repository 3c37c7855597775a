import type { IndexSummary } from "../src/mod.ts";
import { escapeLine, type IndexEvent, plural } from "../src/cli/mod.ts";
import { type Command, type CommandContext, printResult } from "./_command.ts";
import { progressLine } from "./_progress.ts";
import { listenForInterrupt } from "./_interrupt.ts";
import { BUILD_SETTINGS, corpusRoot, withCorpus } from "./_wiring.ts";

/** `wayfinder index <root>`: build or update the index of a source tree. */
export const indexCommand: Command = {
  spec: {
    name: "index",
    summary: "Index a source tree: chunk, embed and store it; unchanged files cost nothing",
    positionals: ["root"],
    settings: [
      ...BUILD_SETTINGS,
      "rebuild",
      "events",
    ],
  },
  targetPositional: 0,
  async run(config, context) {
    const events = config.settings.events;
    const interrupt = listenForInterrupt();
    let summary: IndexSummary;
    try {
      summary = await withCorpus(config, context, (corpus) =>
        corpus.index({
          rebuild: config.settings.rebuild,
          // With --events, stderr carries only JSON lines (and a final error line).
          onProgress: events ? undefined : progressLine(context),
          onEvent: events
            ? (event) => context.stderr(JSON.stringify(event) + "\n")
            : announceSearchable(context),
          signal: interrupt.signal,
        }));
    } catch (error) {
      if (!interrupt.received) throw error;
      const root = escapeLine(corpusRoot(config, context));
      const clear = context.stderrIsTerminal && !events ? "\r\x1b[2K" : "";
      context.stderr(
        `${clear}wayfinder: Stopped indexing ${root} on ${interrupt.received}; ` +
          "the last published index stays live\n",
      );
      return interrupt.exitCode;
    } finally {
      // Only now: a second signal must not cut the lock's release short.
      interrupt.dispose();
    }
    const { skipped: _skipped, ...rest } = summary;
    printResult(context, config.settings.output, rest, () => describe(summary));
    if (!events) { for (const line of warnings(summary)) context.stderr(`${line}\n`); }
    return 0;
  },
};

/** One line when the first partial generation is out: the index answers before embedding ends. */
function announceSearchable(context: CommandContext): (event: IndexEvent) => void {
  let told = false;
  return (event) => {
    if (event.event !== "partial" || told) return;
    told = true;
    const { covered, total } = event.dense;
    const clear = context.stderrIsTerminal ? "\r\x1b[2K" : "";
    context.stderr(
      `${clear}Searchable now: ${plural(total, "chunk")} lexically, ${covered} densely; ` +
        `embedding the rest\n`,
    );
  };
}

function describe(summary: IndexSummary): string {
  const root = escapeLine(summary.root);
  const f = summary.files;
  const local = summary.current
    ? `Index for ${root} is current; nothing to update.\n`
    : `Indexed ${root}: ${plural(f.seen, "file")} (${f.changed} changed, ${f.deleted} deleted), ` +
      `${plural(summary.embeddedChunks, "chunk")} embedded, ${summary.reusedChunks} reused` +
      (summary.sharedChunks ? ` (${summary.sharedChunks} from the store's cache)` : "") +
      `, ${summary.removedChunks} removed in ${(summary.elapsedMs / 1000).toFixed(1)} s\n`;
  const store = summary.store;
  if (!store) return local;
  const sent = store.changedFiles + store.removedFiles === 0
    ? "already holds it"
    : `${plural(store.changedFiles, "file")} sent, ${store.removedFiles} removed`;
  return `${local}Store ${escapeLine(store.location)}: ${sent} (${
    store.generation ?? "no generation"
  })\n`;
}

/** Skipped files and truncated passages, for stderr. */
function warnings(summary: IndexSummary): string[] {
  const lines: string[] = [];
  if (summary.files.skipped > 0) {
    const reasons = new Map<string, number>();
    for (const s of summary.skipped) reasons.set(s.reason, (reasons.get(s.reason) ?? 0) + 1);
    const list = [...reasons].map(([reason, n]) => `${n} ${reason.replaceAll("_", " ")}`);
    lines.push(`Skipped ${plural(summary.files.skipped, "file")}: ${list.join(", ")}`);
  }
  if (summary.rebuilt) {
    lines.push(`Rebuilt the index: the live one was unusable (${summary.rebuilt})`);
  }
  if (summary.truncatedChunks > 0) {
    lines.push(
      `Truncated ${plural(summary.truncatedChunks, "passage")} to the model's token budget`,
    );
  }
  return lines;
}
