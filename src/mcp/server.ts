import { escapeLine, escapeText } from "../escape.ts";
/**
 * The MCP server: wayfinder's corpora as tools for coding agents, over the
 * same front door as the CLI. Tools answer with `structuredContent` (the
 * CLI's JSON) and a compact text rendering with `path:lines` citations; a
 * failure is an error result of one line, never a crash.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { type Corpus, type CorpusSearchOptions, resultJson } from "../corpus/mod.ts";
import type { IndexProgress } from "../pipeline/mod.ts";
import { basename, join } from "node:path";
import { WayfinderError } from "../error.ts";
import { locateBinding, validateProject } from "../okf/mod.ts";
import { sourceReader } from "../search/mod.ts";
import { renderSearch, SHOWN_LINES } from "./render.ts";
import { SEARCH_OUTPUT } from "./search_output.ts";
import { type Range, readRange } from "./read_range.ts";
import { readChunk, type StoredPassage } from "./read_chunk.ts";
import { checkToolArguments, recordingRegistry, type ToolRegistry } from "./tool_arguments.ts";
import type { Roots } from "./roots.ts";
import { IndexRuns } from "./index_runs.ts";
import { plural } from "../plural.ts";

/** Limits that keep one call from flooding an agent's context or the machine. */
export const LIMITS = { limit: 100, contextChars: 100_000, lines: 2_000 } as const;

/** What a tool handler returns. */
type ToolResult = {
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

/** Runs a tool body; any error becomes an error result with one `wayfinder: …` line. */
async function answer(
  body: () => Promise<{ text: string; data: object }>,
): Promise<ToolResult> {
  try {
    const { text, data } = await body();
    return {
      content: [{ type: "text", text }],
      structuredContent: data as Record<string, unknown>,
    };
  } catch (error) {
    const message = error instanceof WayfinderError || error instanceof Error
      ? error.message
      : String(error);
    return {
      content: [{ type: "text", text: `wayfinder: ${message.split("\n")[0]}` }],
      isError: true,
    };
  }
}

const clamp = (value: number | undefined, max: number) =>
  value === undefined ? undefined : Math.max(1, Math.min(Math.floor(value), max));

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
  searchDefaults?: (corpus: Corpus) => SearchDefaults;
  /**
   * How long an `index` call waits for its run before answering that it goes
   * on in the background. @default INDEX_ANSWER_MS
   */
  indexAnswerMs?: number;
}

/** A root's search settings: the options, and the diversity `diverse: true` asks for. */
export interface SearchDefaults {
  options: CorpusSearchOptions;
  diversity?: { lambda?: number; fetchK?: number };
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

/** A `root` argument; each registration describes it with the roots served. */
type RootArgument = z.ZodOptional<z.ZodString>;
const ROOT: RootArgument = z.string().optional();

/** `root`, described: "one of: app (/src/app), kb (/src/kb); default app". */
function rootArgument(roots: Roots, defaultWords: string): RootArgument {
  const served = roots.all.map((c) => `${escapeLine(basename(c.root))} (${escapeLine(c.root)})`);
  return ROOT.describe(
    `Which served root, by folder name or path: one of ${served.join(", ")}; default: ${
      escapeLine(defaultWords)
    }`,
  );
}

const LIST = (what: string) => z.array(z.string()).optional().describe(what);
const SEARCH_INPUT = {
  query: z.string().describe("What to look for, in plain language or identifiers"),
  root: ROOT,
  limit: z.number().int().min(1).optional().describe(
    `Hits wanted (default 10, at most ${LIMITS.limit})`,
  ),
  mode: z.enum(["dense", "lexical", "bm25", "hybrid"]).optional().describe(
    "dense (default) for questions, hybrid for identifiers, lexical (BM25) for exact words only",
  ),
  path: LIST(
    "Only hits whose path, relative to the root, matches one of these: a glob without '/' matches " +
      "the file name at any depth (*.ts), one with '/' the whole path (src/**/*.ts); a path without " +
      "glob characters matches itself and everything below it (src/auth)",
  ),
  type: LIST("Only these chunk types: class, method, heading, …"),
  lang: LIST("Only these languages: ids (typescript) or extensions (ts, py, md)"),
  expand: z.boolean().optional().describe("Show each hit in its class, section or file"),
  diverse: z.boolean().optional().describe("Skip near-copies of better hits"),
  contextChars: z.number().int().min(1).optional().describe(
    `Also return prompt-ready context of at most this many characters (≤ ${LIMITS.contextChars})`,
  ),
  current: z.boolean().optional().describe(
    "Knowledge bundles: drop deprecated concepts and those past stale_after",
  ),
  asOf: z.string().min(1).optional().describe(
    "Knowledge bundles, only together with `current` (this call's, or the server's when the call " +
      "omits it; refused otherwise): the date (YYYY-MM-DD) `current` judges staleness at; default today",
  ),
  status: LIST("Knowledge bundles: only concepts with these statuses"),
  conceptType: LIST("Knowledge bundles: only concepts of these types"),
  pathPrefix: LIST("Knowledge bundles: only concepts under these bundle paths"),
  governing: z.record(z.string()).optional().describe(
    "Knowledge bundles: lower concept path → the concept that governs it, shown before it",
  ),
  expandLinks: z.boolean().optional().describe(
    "Knowledge bundles: add each match's linked concepts (one hop) as context",
  ),
};
const FIT_INPUTS_INPUT = {
  root: ROOT,
  showInputs: z.boolean().optional().describe(
    "List every embedding input's exact text with its chunk's path, lines and token count",
  ),
};
type SearchArgs = z.infer<z.ZodObject<typeof SEARCH_INPUT>>;
type RootArgs = { root?: string };
type FitInputsArgs = z.infer<z.ZodObject<typeof FIT_INPUTS_INPUT>>;
/** Per-request helpers the SDK hands a tool: progress notifications, the request's metadata. */
type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

function registerSearch(
  server: ToolRegistry,
  roots: Roots,
  root: RootArgument,
  defaultsOf: (corpus: Corpus) => SearchDefaults,
): void {
  server.registerTool("search", {
    title: "Search code and docs",
    description:
      "Semantic search over an indexed source tree or knowledge bundle. Returns the best passages with " +
      `path:lineStart-lineEnd citations, each with its first ${SHOWN_LINES} lines (get_chunk with the ` +
      "hit's id returns the whole passage). Use mode 'hybrid' for identifiers, 'dense' for questions; " +
      "expand shows each hit in its class or section; contextChars returns prompt-ready context of at " +
      "most that many characters instead of the lines. Each score is labelled by what ranked the hit, " +
      "and the kinds do not compare: cos is dense cosine similarity (about 0 to 1), bm25 a lexical " +
      "match score (unbounded), rrf hybrid's rank fusion (at most about 0.033), rerank the " +
      "cross-encoder's, ranked the code ranking stage's (about 0 to 3; lexical search of a " +
      "source tree). On a knowledge bundle, the policy arguments choose what is eligible and what " +
      "context comes with a match.",
    inputSchema: { ...SEARCH_INPUT, root },
    outputSchema: SEARCH_OUTPUT,
  }, (args: SearchArgs) =>
    answer(async () => {
      const corpus = roots.pick(args.root);
      const options = searchOptions(args, defaultsOf(corpus));
      const result = await corpus.search(args.query, options);
      const read = sourceReader(corpus.root);
      const text = renderSearch(result, { asOf: options.policy?.asOf, read });
      return { text, data: resultJson(result) };
    }));
}

/** A call's arguments over the server's defaults, clamped. */
function searchOptions(
  args: SearchArgs,
  { options: defaults, diversity }: SearchDefaults,
): CorpusSearchOptions {
  const policy = defaults.policy ?? {};
  const filter = defaults.filter ?? {};
  const current = args.current ?? policy.current;
  return {
    ...defaults,
    limit: clamp(args.limit ?? defaults.limit, LIMITS.limit) ?? 10,
    mode: args.mode ?? defaults.mode,
    filter: {
      paths: args.path ?? filter.paths,
      types: args.type ?? filter.types,
      languages: args.lang ?? filter.languages,
    },
    expand: args.expand ?? defaults.expand,
    // `diverse: true` keeps the configured lambda and fetchK.
    diverse: args.diverse === undefined ? defaults.diverse : args.diverse && (diversity ?? true),
    contextChars: clamp(args.contextChars ?? defaults.contextChars, LIMITS.contextChars),
    policy: {
      current,
      // The server's date qualifies its `current`; a call that turns it off asks no date.
      asOf: args.asOf ?? (current ? policy.asOf : undefined),
      status: args.status ?? policy.status,
      conceptTypes: args.conceptType ?? policy.conceptTypes,
      pathPrefixes: args.pathPrefix ?? policy.pathPrefixes,
      governing: args.governing ?? policy.governing,
      expandLinks: args.expandLinks ?? policy.expandLinks,
      // A value from the call is named by its argument; one from the settings, by its origin.
      origins: {
        asOf: args.asOf === undefined ? policy.origins?.asOf : undefined,
        governing: args.governing === undefined ? policy.origins?.governing : undefined,
      },
    },
  };
}

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

const INDEX_INPUT = {
  root: ROOT,
  rebuild: z.boolean().optional().describe(
    "Discard the index and embed everything again with the server's settings (default false); " +
      "minutes on a large tree, so only when an error names it",
  ),
};
type IndexArgs = z.infer<z.ZodObject<typeof INDEX_INPUT>>;

/** Registers `index`, its runs kept by `runs`. */
function registerIndex(
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
