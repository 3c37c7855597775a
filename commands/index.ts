import { indexCorpus } from "../src/pipeline/mod.ts";
import { type Command, printJson } from "./_command.ts";
import { progressLine } from "./_progress.ts";
import {
  corpusRoot,
  EMBEDDER_SETTINGS,
  INDEX_SETTINGS,
  indexDirOf,
  openCodeChunker,
  openEmbedder,
} from "./_wiring.ts";

/** `wayfinder index <root>`: build or update the index of a source tree. */
export const indexCommand: Command = {
  spec: {
    name: "index",
    summary: "Index a source tree: chunk, embed and store it; unchanged files cost nothing",
    positionals: ["root"],
    settings: [
      ...INDEX_SETTINGS,
      ...EMBEDDER_SETTINGS,
      "include",
      "exclude",
      "maxFileBytes",
      "maxChunkChars",
      "rebuild",
    ],
  },
  targetPositional: 0,
  async run(config, context) {
    const s = config.settings;
    const root = corpusRoot(config, context);
    const embedder = await openEmbedder(config, context);
    try {
      const summary = await indexCorpus({
        root,
        indexDir: indexDirOf(config, context, root),
        embedder,
        chunker: await openCodeChunker(context),
        include: s.include,
        exclude: s.exclude,
        maxFileBytes: s.maxFileBytes,
        maxChunkChars: s.maxChunkChars,
        longInput: s.longInput,
        rebuild: s.rebuild,
        onProgress: progressLine(context),
      });
      if (s.output !== "text") {
        const { skipped: _skipped, ...rest } = summary;
        printJson(context, rest);
        return 0;
      }
      if (summary.current) {
        context.stdout(`Index for ${root} is current; nothing to update.\n`);
      } else {
        const f = summary.files;
        context.stdout(
          `Indexed ${root}: ${f.seen} files (${f.changed} changed, ${f.deleted} deleted), ` +
            `${summary.embeddedChunks} chunks embedded, ${summary.reusedChunks} reused, ` +
            `${summary.removedChunks} removed in ${(summary.elapsedMs / 1000).toFixed(1)} s\n`,
        );
      }
      if (summary.files.skipped > 0) {
        const reasons = new Map<string, number>();
        for (const s of summary.skipped) reasons.set(s.reason, (reasons.get(s.reason) ?? 0) + 1);
        const list = [...reasons].map(([reason, n]) => `${n} ${reason.replaceAll("_", " ")}`).join(
          ", ",
        );
        context.stderr(`Skipped ${summary.files.skipped} files: ${list}\n`);
      }
      if (summary.truncatedChunks > 0) {
        context.stderr(
          `Truncated ${summary.truncatedChunks} passages to the model's token budget\n`,
        );
      }
      return 0;
    } finally {
      await embedder.close();
    }
  },
};
