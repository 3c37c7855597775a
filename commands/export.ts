import {
  contentHasher,
  embeddingInput,
  escapeLine,
  exportToOrama,
  liveIndex,
  plural,
} from "../src/cli/mod.ts";
import { type Chunk, WayfinderError } from "../src/mod.ts";
import { type Command, printResult } from "./_command.ts";
import { BUILD_SETTINGS, withCorpus } from "./_wiring.ts";

/** `wayfinder export --format orama --out FILE <root>`: the live index written in another engine's format. */
export const exportCommand: Command = {
  spec: {
    name: "export",
    summary: "Write the index as an Orama database file that any Orama program can load",
    positionals: ["root"],
    settings: [...BUILD_SETTINGS, "exportFormat", "exportOut"],
  },
  targetPositional: 0,
  async run(config, context) {
    const { exportFormat, exportOut, output } = config.settings;
    if (!exportFormat) {
      throw new WayfinderError("usage", "Cannot export: --format is required (orama)");
    }
    if (!exportOut) throw new WayfinderError("usage", "Cannot export: --out FILE is required");
    // Each chunk keeps the hash of what the model read, so a run can reuse its vector.
    const hash = await contentHasher();
    const inputHash = (chunk: Chunk) => hash(embeddingInput(chunk));
    const written = await withCorpus(
      config,
      context,
      async (corpus) => exportToOrama(await liveIndex(corpus), exportOut, { inputHash }),
    );
    const summary = { format: exportFormat, ...written };
    printResult(
      context,
      output,
      summary,
      () =>
        `Exported ${plural(written.chunks, "chunk")} of ${plural(written.files, "file")} to ${
          escapeLine(written.path)
        } (Orama, ${(written.bytes / 1e6).toFixed(1)} MB` +
        (written.pending > 0 ? `, ${written.pending} not embedded yet` : "") + ")\n",
    );
    return 0;
  },
};
