import { escapeLine, plural, type StatusReport } from "../src/cli/mod.ts";
import { type Command, printResult } from "./_command.ts";
import { BUILD_SETTINGS, withCorpus } from "./_wiring.ts";

/** `wayfinder status <root>`: the index's state, read from disk; loads no model. */
export const statusCommand: Command = {
  spec: {
    name: "status",
    summary:
      "Report the index's state (ready, indexing, stale, failed, absent) without loading a model",
    positionals: ["root"],
    // What index takes, less what only a run does (--rebuild, --events).
    settings: [
      ...BUILD_SETTINGS,
    ],
  },
  targetPositional: 0,
  async run(config, context) {
    const status = await withCorpus(config, context, (corpus) => corpus.status());
    printResult(context, config.settings.output, status, () => describe(status));
    // A report: every state is a successful answer.
    return 0;
  },
};

/** At most this many paths per list in text. */
const LISTED = 5;

function list(paths: string[]): string {
  const shown = paths.slice(0, LISTED).map(escapeLine).join(", ");
  const more = paths.length > LISTED ? `, and ${paths.length - LISTED} more` : "";
  return paths.length === 0 ? "0" : `${paths.length} (${shown}${more})`;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

function describe(s: StatusReport): string {
  const lines = [`${s.state}  ${escapeLine(s.root)}`];
  const row = (name: string, value: string) => lines.push(`  ${name.padEnd(9)}${value}`);
  row(
    "index",
    `${escapeLine(s.indexDir)} (${s.generation ?? "no generation"}, ${megabytes(s.diskBytes)})`,
  );
  if (s.generation) {
    row("updated", s.updatedAt ?? "?");
    row("content", `${plural(s.files, "file")}, ${plural(s.chunks, "chunk")}`);
  }
  if (s.store) {
    const held = s.store.generation
      ? `${s.store.generation}, ${plural(s.store.chunks, "chunk")}` +
        (s.store.pending ? `, ${s.store.pending} not embedded yet` : "")
      : "no generation";
    const step = s.store.inStep ? "holds the local index" : "behind the local index";
    row("store", `${escapeLine(s.store.location)} (${held}; ${step})`);
  }
  if (s.dense) row("dense", `${s.dense.covered} of ${plural(s.dense.total, "chunk")} embedded`);
  if (s.model) {
    const m = s.model;
    row("model", `${m.name} (${m.provider}, ${m.dimensions} dims, ${m.sha256.slice(0, 12)})`);
  }
  if (s.progress) {
    const p = s.progress;
    row(
      "progress",
      `${p.phase}: files ${p.filesDone}/${p.filesTotal}, chunks ${p.chunksDone}/${p.chunksTotal} ` +
        `(pid ${p.pid}, since ${p.startedAt})`,
    );
  }
  if (s.failure) row("failure", `${s.failure.at}: ${escapeLine(s.failure.message)}`);
  if (s.stale) {
    row("changed", list(s.stale.changed));
    row("added", list(s.stale.added));
    row("deleted", list(s.stale.deleted));
    for (const reason of s.stale.reasons) row("reason", escapeLine(reason));
  }
  if (s.unreadable) row("skipped", `${list(s.unreadable)} unreadable now; their chunks are kept`);
  if (s.lock && !s.progress) row("lock", `held by pid ${s.lock.pid} since ${s.lock.since}`);
  if (s.hint) row("hint", escapeLine(s.hint));
  return lines.join("\n") + "\n";
}
