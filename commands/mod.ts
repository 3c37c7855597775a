/** The subcommands, by the words that invoke them. */
import type { Command } from "./_command.ts";
import { indexCommand } from "./index.ts";
import { searchCommand } from "./search.ts";
import { compareEmbeddingsCommand } from "./compare_embeddings.ts";
import { modelDistillCommand, modelImportCommand, modelPrepareCommand } from "./model.ts";
import { mcpCommand } from "./mcp.ts";
import { validateCommand } from "./validate.ts";
import { getCommand } from "./get.ts";
import { fitInputsCommand } from "./fit_inputs.ts";
import { statusCommand } from "./status.ts";
import { watchCommand } from "./watch.ts";
import { exportCommand } from "./export.ts";

export const COMMANDS: Record<string, Command> = {
  index: indexCommand,
  search: searchCommand,
  "fit-inputs": fitInputsCommand,
  status: statusCommand,
  watch: watchCommand,
  "compare-embeddings": compareEmbeddingsCommand,
  "model prepare": modelPrepareCommand,
  "model import": modelImportCommand,
  "model distill": modelDistillCommand,
  mcp: mcpCommand,
  validate: validateCommand,
  get: getCommand,
  export: exportCommand,
};
