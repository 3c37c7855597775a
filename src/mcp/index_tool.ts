/** The `index` tool: one run per root at a time, answered when done or after a wait. */
import { z } from "zod";
import { type IndexProgress, plural } from "../cli/mod.ts";
import type { IndexRuns } from "./index_runs.ts";
import type { Roots } from "./roots.ts";
import type { ToolRegistry } from "./tool_arguments.ts";
import { answer, type Extra, ROOT, type RootArgument } from "./tool_answer.ts";

const INDEX_INPUT = {
  root: ROOT,
  rebuild: z.boolean().optional().describe(
    "Discard the index and embed everything again with the server's settings (default false); " +
      "minutes on a large tree, so only when an error names it",
  ),
};
type IndexArgs = z.infer<z.ZodObject<typeof INDEX_INPUT>>;

/** Registers `index`, its runs kept by `runs`. */
export function registerIndex(
  server: ToolRegistry,
  roots: Roots,
  root: RootArgument,
  runs: IndexRuns,
): void {
  const seconds = Math.round(runs.answerMs / 1000);
  server.registerTool("index", {
    title: "Update the index",
    description:
      "Brings a root's index up to date; only changed files are embedded. A first index of a large tree " +
      `can take minutes: the call answers within about ${seconds} s, and if the run is not done by then it ` +
      "answers state 'indexing' with its progress while the run goes on in the background. Search works " +
      "meanwhile on what the run has published; call status to follow it, or index again to wait for the " +
      "same run (a second call never starts another). Sends progress notifications while the call waits, " +
      "when the request carries a progress token. rebuild: true discards the index and embeds every " +
      "passage again with the server's settings, which takes as long as a first index (minutes on a large " +
      "tree): the fix an error names for an index built another way, such as with another model. " +
      "Settings only the old index recorded (a model, globs or chunk size the server does not set) are " +
      "not kept; the error says when there are any. A rebuild asked while a plain run goes starts when " +
      "that run ends, and calls made meanwhile wait for the rebuild.",
    inputSchema: { ...INDEX_INPUT, root },
  }, (args: IndexArgs, extra: Extra) =>
    answer(async () => {
      const token = extra._meta?.progressToken;
      const corpus = roots.pick(args.root);
      const rebuild = args.rebuild ?? false;
      // The SDK aborts `extra.signal` when the client cancels the call or the transport closes.
      const outcome = await runs.wait(
        corpus,
        extra.signal,
        token === undefined ? undefined : progressTo(extra, token),
        rebuild,
      );
      if (!outcome.ended) {
        const { progress, queued } = outcome;
        const where = queued
          ? "waiting for the index run going on to end first"
          : progressWords(progress);
        const text = `Still ${rebuild ? "rebuilding" : "indexing"} ${corpus.root} (${where}); ` +
          "search works meanwhile on what is published; poll the status tool to see when it ends";
        return { text, data: { root: corpus.root, state: "indexing", progress } };
      }
      const { summary } = outcome;
      const { skipped: _skipped, ...data } = summary;
      const text = summary.current
        ? `Index for ${summary.root} is current`
        : `${rebuild ? "Rebuilt" : "Indexed"} ${summary.root}: ${
          plural(summary.embeddedChunks, "chunk")
        } embedded, ${summary.reusedChunks} reused`;
      return { text, data };
    }));
}

/** Where a run is, in words: "120 of 600 chunks embedded", "chunk: 40 of 90 files". */
function progressWords(progress: IndexProgress | null): string {
  if (progress === null) return "starting";
  const { phase, filesDone, filesTotal, chunksDone, chunksTotal } = progress;
  if (phase === "embed") return `${chunksDone} of ${plural(chunksTotal, "chunk")} embedded`;
  if (phase === "write") return "writing the index";
  return filesTotal > 0 ? `${phase}: ${filesDone} of ${plural(filesTotal, "file")}` : phase;
}

/**
 * Progress notifications for one index run. MCP wants `progress` to rise
 * with every notification, while a run counts files, then chunks, then
 * writes: so `progress` counts the steps reported, and the message says
 * which phase is how far along.
 */
function progressTo(extra: Extra, token: string | number): (p: IndexProgress) => void {
  let step = 0;
  let last = "";
  return (p) => {
    const [done, total] = p.phase === "embed"
      ? [p.chunksDone, p.chunksTotal]
      : [p.filesDone, p.filesTotal];
    const message = total > 0 ? `${p.phase} ${done}/${total}` : p.phase;
    if (message === last) return;
    last = message;
    extra.sendNotification({
      method: "notifications/progress",
      params: { progressToken: token, progress: ++step, message },
    }).catch(() => {});
  };
}
