import {
  escapeLine,
  escapeText,
  type FitInput,
  type FitInputsReport,
  plural,
} from "../src/cli/mod.ts";
import { type Command, printJsonLine, printResult } from "./_command.ts";
import { CHUNKING_SETTINGS, EMBEDDER_SETTINGS, INDEX_SETTINGS, withCorpus } from "./_wiring.ts";

/** `wayfinder fit-inputs <root>`: how the tree's embedding inputs fit the model's token budget. */
export const fitInputsCommand: Command = {
  spec: {
    name: "fit-inputs",
    summary:
      "Fit a tree's embedding inputs to the model's token budget as index does; exit 1 if some cannot fit",
    positionals: ["root"],
    settings: [
      ...INDEX_SETTINGS,
      // Nothing is embedded; the long-input policy decides what index does with what cannot fit.
      ...EMBEDDER_SETTINGS.filter((key) => key !== "longInput" && key !== "batchSize"),
      ...CHUNKING_SETTINGS,
      "showInputs",
    ],
  },
  targetPositional: 0,
  async run(config, context) {
    const { output, showInputs } = config.settings;
    const report = await withCorpus(config, context, (corpus) => corpus.fitInputs({ showInputs }));
    if (output === "jsonl" && report.embeddingInputs) {
      // One input a line, so a stream of them can be filtered line by line.
      for (const input of report.embeddingInputs) printJsonLine(context, input);
    } else {
      const text = () => describeInputs(report.embeddingInputs ?? []) + describe(report);
      // JSON says "no limit" as null, not as the largest safe integer that stands for it.
      const json = unlimited(report) ? { ...report, maxTokens: null } : report;
      printResult(context, output, json, text);
    }
    return report.unfit.length > 0 ? 1 : 0;
  },
};

/** Each input under its chunk's path:lines and token count, indented; the summary follows. */
function describeInputs(inputs: readonly FitInput[]): string {
  return inputs.map((input) => {
    const head = `${escapeLine(input.sourcePath)}:${input.lineStart}-${input.lineEnd}  ` +
      plural(input.tokens, "token");
    const body = escapeText(input.text).split("\n").map((line) => line ? `    ${line}` : "");
    return `${head}\n${body.join("\n")}\n\n`;
  }).join("");
}

/** A static model has no context window: every chunk is one input, whole. */
function unlimited(report: FitInputsReport): boolean {
  return report.maxTokens >= Number.MAX_SAFE_INTEGER;
}

function budgetOf(report: FitInputsReport): string {
  return unlimited(report)
    ? `with no token limit (${report.model} has no context window)`
    : `within ${report.maxTokens} tokens of ${report.model}`;
}

function describe(report: FitInputsReport): string {
  const { seen, skipped } = report.files;
  const files = plural(seen, "file") + (skipped > 0 ? ` (${skipped} skipped)` : "");
  const lines = [
    `${escapeLine(report.root)}: ${files}, ${plural(report.chunks, "chunk")} → ` +
    `${plural(report.inputs, "input")} ${budgetOf(report)} ` +
    `(largest ${report.largestInput}), ${plural(report.splitChunks, "chunk")} split`,
  ];
  for (const d of report.diagnostics) {
    lines.push(
      `  ${escapeLine(d.sourcePath)}:${d.lineStart}-${d.lineEnd}  ${d.code}  ${
        plural(d.affectedChunks, "chunk")
      }`,
    );
  }
  for (const u of report.unfit) {
    lines.push(
      `  ${escapeLine(u.sourcePath)}:${u.lineStart}-${u.lineEnd}  cannot fit: one character needs ${
        plural(u.tokens, "token")
      }`,
    );
  }
  if (report.unfit.length > 0) {
    lines.push(
      `${plural(report.unfit.length, "chunk")} cannot fit even one character at a time: ` +
        "index rejects them (--long-input reject) or embeds their first tokens (--long-input truncate)",
    );
  }
  return lines.join("\n") + "\n";
}
