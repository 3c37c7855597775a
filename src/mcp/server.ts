/**
 * The MCP server: wayfinder's corpora as tools for coding agents, over the
 * same front door as the CLI. Tools answer with `structuredContent` (the
 * CLI's JSON) and a compact text rendering with `path:lines` citations; a
 * failure is an error result of one line, never a crash.
 */
import { WayfinderError } from "../mod.ts";
import {
  type ConfiguredCorpus,
  escapeLine,
  escapeText,
  locateBinding,
  plural,
  validateProject,
} from "../cli/mod.ts";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { z } from "zod";
import { basename, join } from "node:path";
import { type Range, readRange } from "./read_range.ts";
import { readChunk, type StoredPassage } from "./read_chunk.ts";
import { checkToolArguments, recordingRegistry, type ToolRegistry } from "./tool_arguments.ts";
import type { Roots } from "./roots.ts";
import { IndexRuns } from "./index_runs.ts";
import { answer, LIMITS, ROOT, type RootArgument } from "./tool_answer.ts";
import { registerSearch, type SearchDefaults } from "./search_tool.ts";
import { registerIndex } from "./index_tool.ts";

export { LIMITS } from "./tool_answer.ts";
export type { SearchDefaults } from "./search_tool.ts";

/** What the server needs besides its roots. */
export interface ServerOptions {
  version: string;
  /**
   * The data root the settings give for a folder: where `get` run there
   * cached the Profiles `validate` applies (the CLI's rule, flags and
   * environment over that folder's wayfinder.json).
   */
  dataRootAt: (dir: string) => string;
  /**
   * What a `search` call's omitted arguments mean for a root: the settings
   * the CLI's `search` of that root would use (flags, environment, its
   * wayfinder.json).
   */
  searchDefaults?: (corpus: ConfiguredCorpus) => SearchDefaults;
  /**
   * How long an `index` call waits for its run before answering that it goes
   * on in the background. @default INDEX_ANSWER_MS
   */
  indexAnswerMs?: number;
}

/** The server: how to connect it, and how to wait for the index runs it started. */
export interface WayfinderServer {
  /** Serves over `transport`; a call with a wrong, missing or unknown argument gets one line. */
  connect(transport: Transport): Promise<void>;
  /**
   * Settles once every `index` run the server started has ended, those going
   * on after their call answered included. Closing the transport aborts them, so this is what to await before closing the
   * corpora. A run stopped that way records no failure; one that was
   * publishing partial generations publishes what it embedded since its last
   * one, so that work is kept.
   */
  settled(): Promise<void>;
}

/** Builds the server for `roots`; connect it to a transport to serve. */
export function createServer(roots: Roots, options: ServerOptions): WayfinderServer {
  const server = new McpServer({ name: "wayfinder", version: options.version });
  const { tools, shapes } = recordingRegistry(server);
  // Each tool's `root` names the roots served, so a model knows them without asking.
  const root = rootArgument(roots, roots.nameOf(roots.all[0]!));
  registerSearch(tools, roots, root, options.searchDefaults ?? (() => ({ options: {} })));
  registerReadRange(tools, roots, root);
  const runs = new IndexRuns(options.indexAnswerMs);
  registerIndex(tools, roots, root, runs);
  registerStatus(tools, roots, root);
  registerValidate(tools, roots, root, options.dataRootAt);
  registerFitInputs(tools, roots, root);
  return {
    async connect(transport) {
      await server.connect(transport);
      // Runs outlive their calls: the connection closing is what stops them.
      const closed = server.server.onclose;
      server.server.onclose = () => {
        closed?.();
        runs.stop();
      };
      checkToolArguments(transport, shapes);
    },
    settled: () => runs.settled(),
  };
}

/** `root`, described: "one of: app (/src/app), kb (/src/kb); default app". */
function rootArgument(roots: Roots, defaultWords: string): RootArgument {
  const served = roots.all.map((c) => `${escapeLine(basename(c.root))} (${escapeLine(c.root)})`);
  return ROOT.describe(
    `Which served root, by folder name or path: one of ${served.join(", ")}; default: ${
      escapeLine(defaultWords)
    }`,
  );
}

const FIT_INPUTS_INPUT = {
  root: ROOT,
  showInputs: z.boolean().optional().describe(
    "List every embedding input's exact text with its chunk's path, lines and token count",
  ),
};
type RootArgs = { root?: string };
type FitInputsArgs = z.infer<z.ZodObject<typeof FIT_INPUTS_INPUT>>;

const PATH = z.string().describe("Path relative to the root, as search returns it");
const LINE_START = z.number().int().min(1).describe("First line to read, 1-based");
const LINE_END = z.number().int().min(1).describe("Last line to read, inclusive");
const GET_CHUNK_INPUT = {
  id: z.string().min(1).optional().describe(
    "A chunk id, as search returns it (matches[].chunk.id); instead of path, lineStart and lineEnd",
  ),
  path: PATH.optional(),
  lineStart: LINE_START.optional(),
  lineEnd: LINE_END.optional(),
  root: ROOT,
};
type RangeArgs = { path: string; lineStart: number; lineEnd: number; root?: string };
type GetChunkArgs = z.infer<z.ZodObject<typeof GET_CHUNK_INPUT>>;

/**
 * A range of lines as the tools answer it: its citation, then the text;
 * first a note when the file is no longer what the index holds.
 */
function rangeAnswer(range: Range | StoredPassage, heading = "") {
  const note = "changedSinceIndex" in range
    ? `note: ${
      escapeLine(range.path)
    } changed since it was indexed; lines may not match search results (call the index tool to index it again)\n`
    : "";
  const text = `${note}${escapeLine(range.path)}:${range.lineStart}-${range.lineEnd}${
    escapeLine(heading)
  }\n${escapeText(range.content)}`;
  return { text, data: range };
}

function registerReadRange(server: ToolRegistry, roots: Roots, root: RootArgument): void {
  const idRoot = rootArgument(
    roots,
    `for an id, any root whose index holds it; for lines, ${roots.nameOf(roots.all[0]!)}`,
  );
  server.registerTool(
    "read_range",
    {
      title: "Read lines of a file",
      description:
        `Reads lines lineStart..lineEnd (1-based, inclusive, at most ${LIMITS.lines}) of a file a served ` +
        "root's index holds, as the file reads now, e.g. to see more around a search hit. When the file " +
        "changed since it was indexed the answer says so (changedSinceIndex: its lines may not match " +
        "search results). Other paths are refused.",
      inputSchema: { path: PATH, lineStart: LINE_START, lineEnd: LINE_END, root },
    },
    (args: RangeArgs) =>
      answer(async () => rangeAnswer(await readRange(roots, args, LIMITS.lines))),
  );
  server.registerTool("get_chunk", {
    title: "Read a passage by its id or lines",
    description:
      "Returns one passage. Given id (a search hit's chunk.id): the passage as the index stores it, " +
      "with its path, lines, type, language and symbol, so a hit can be fetched again without " +
      "repeating the search; an id lasts until its passage changes or moves and the root is " +
      "indexed again (then search again). Given path, lineStart and lineEnd instead: those lines of the " +
      `file, as read_range reads them (at most ${LIMITS.lines}). Give one form, not both.`,
    inputSchema: { ...GET_CHUNK_INPUT, root: idRoot },
  }, (args: GetChunkArgs) =>
    answer(async () => {
      const asked = getChunkForm(args);
      if ("lineStart" in asked) return rangeAnswer(await readRange(roots, asked, LIMITS.lines));
      const passage = await readChunk(roots, asked.id, args.root);
      return rangeAnswer(passage, ` ${passage.symbol ?? passage.type}`);
    }));
}

/**
 * Which of its two forms a `get_chunk` call takes: an id, or path and lines.
 * @throws {WayfinderError} "usage" for both forms, neither, or lines in part.
 */
function getChunkForm(args: GetChunkArgs): { id: string } | RangeArgs {
  const { id, path, lineStart, lineEnd, root } = args;
  const lines = { path, lineStart, lineEnd };
  const given = Object.keys(lines).filter((name) =>
    lines[name as keyof typeof lines] !== undefined
  );
  if (id !== undefined && given.length > 0) {
    throw new WayfinderError(
      "usage",
      "get_chunk takes either id or path, lineStart and lineEnd, not both",
    );
  }
  if (id !== undefined) return { id };
  if (given.length === 0) {
    throw new WayfinderError("usage", "get_chunk needs id, or path, lineStart and lineEnd");
  }
  const missing = Object.keys(lines).filter((name) => !given.includes(name));
  if (missing.length > 0) {
    throw new WayfinderError(
      "usage",
      `get_chunk needs ${missing.join(" and ")} with ${given.join(" and ")} (or an id alone)`,
    );
  }
  return { path: path!, lineStart: lineStart!, lineEnd: lineEnd!, root };
}

function registerStatus(server: ToolRegistry, roots: Roots, root: RootArgument): void {
  server.registerTool("status", {
    title: "Index status",
    description:
      "Whether a root's index exists and what it holds: state, generation, counts, model, and a hint " +
      "when it needs a first index or a rebuild.",
    inputSchema: { root },
  }, (args: RootArgs) =>
    answer(async () => {
      const status = await roots.pick(args.root).status();
      const hint = status.hint ? `; ${status.hint}` : "";
      return { text: `${status.root}: ${status.state}${hint}`, data: status };
    }));
  for (const corpus of roots.all) {
    const uri = `wayfinder://status/${encodeURIComponent(corpus.root)}`;
    server.registerResource(
      `status ${corpus.root}`,
      uri,
      { title: `Index status of ${corpus.root}`, mimeType: "application/json" },
      async () => ({
        contents: [{
          uri,
          mimeType: "application/json",
          text: JSON.stringify(await corpus.status()),
        }],
      }),
    );
  }
}

function registerValidate(
  server: ToolRegistry,
  roots: Roots,
  root: RootArgument,
  dataRootAt: (dir: string) => string,
): void {
  server.registerTool("validate", {
    title: "Validate a knowledge bundle",
    description:
      "Checks an OKF 0.2 bundle inside a served root (and the rules of Profiles bound to it by " +
      "wayfinder.json and pinned by `wayfinder get`). Returns the gate (PASS, FAIL, INCOMPLETE) and findings " +
      "with path:line locations.",
    inputSchema: {
      bundle: z.string().describe("The bundle folder, relative to the root or absolute"),
      root,
    },
  }, (args: { bundle: string; root?: string }) =>
    answer(async () => {
      const { corpus, relativePath } = roots.locate(args.bundle, args.root, { directory: true });
      const bundle = join(corpus.root, relativePath);
      const report = await validateProject(bundle, locateBinding(bundle, dataRootAt));
      const lines = report.findings.map((f) =>
        escapeLine(
          `${f.location.path}:${f.location.line}:${f.location.column} ${f.severity} ${f.message} (${f.id})`,
        )
      );
      return { text: [...lines, report.gate].join("\n"), data: report };
    }));
}

function registerFitInputs(server: ToolRegistry, roots: Roots, root: RootArgument): void {
  server.registerTool("fit_inputs", {
    title: "Fit embedding inputs",
    description:
      "Reports how a root's passages fit the embedding model's token budget, as `index` will cut them: " +
      "inputs, split chunks, diagnostics per path, and any passage that cannot fit; showInputs " +
      "adds each input's exact text (embeddingInputs).",
    inputSchema: { ...FIT_INPUTS_INPUT, root },
  }, (args: FitInputsArgs) =>
    answer(async () => {
      const report = await roots.pick(args.root).fitInputs({ showInputs: args.showInputs });
      const text = `${plural(report.chunks, "chunk")} → ${plural(report.inputs, "input")} within ${
        plural(report.maxTokens, "token")
      }; ${
        plural(report.diagnostics.length, "diagnostic")
      }, ${report.unfit.length} that cannot fit`;
      return { text, data: report };
    }));
}
