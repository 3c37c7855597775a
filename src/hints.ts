/**
 * How a message names the fix it suggests, worded for whoever reads it: the
 * CLI's user runs commands and passes flags; an agent calling the MCP tools
 * calls a tool with arguments, and asks its user for what only the server's
 * own settings change; a library caller calls methods with options. Every
 * hint a corpus and the stages below it give is worded here, so no reader is
 * told to do what it cannot.
 */
import { type Fix, type RebuildCommand, WayfinderError } from "./error.ts";

/** Who reads a corpus's messages: the CLI's user, an agent calling the MCP tools, or library code. */
export type HintAudience = "cli" | "tools" | "library";

/**
 * The CLI's rebuild command for an index built another way, and the flags
 * in it that only the index's record gave: a rebuild from the caller's own
 * settings (a tool call, `corpus.index({ rebuild: true })`) does not keep them.
 */
export type RebuildFix = RebuildCommand;

/** The fixes messages suggest, each a clause that ends or continues a message. */
export interface Hints {
  /** Bring the index of `root` up to date (a run also rebuilds an unusable index unasked). */
  index(root: string): string;
  /**
   * Rebuild the index of `root` from scratch; `fix` is the CLI's command,
   * with any flags the rebuild needs. The tools rebuild with the server's
   * settings, and say what of the record that drops.
   */
  rebuild(root: string, fix?: RebuildFix): string;
  /** Keep the index elsewhere, or replace the index of another tree that is there. */
  replaceIndex(root: string): string;
  /** Keep the index in another folder (read when the corpus is opened). */
  otherIndexDir(): string;
  /** Check the tree against the index of `root` exactly: the hash walk `status` does. */
  checkFresh(root: string): string;
  /** Search lexically: the mode that embeds nothing. */
  lexicalMode(): string;
  /** What asked for reranking, as the caller asked for it. */
  rerankOption(): string;
  /** Name a cross-encoder to rerank with. */
  crossEncoder(): string;
  /** Index the folder as an OKF bundle though its index.md does not declare one. */
  indexAsBundle(root: string): string;
  /** The setting an HTTP embedder lacks: its server's URL or its model's name. */
  embedderSetting(setting: "url" | "model"): string;
  /** Passages that cannot fit the model even cut to one character: leave them out or cut them. */
  unfitPassages(): string;
}

/** The CLI's user: commands and flags (the wording tests and scripts pin). */
const CLI: Hints = {
  index: (root) => `run 'wayfinder index ${root}'`,
  rebuild: (root, fix) => `run '${fix?.command ?? plainRebuild(root)}'`,
  replaceIndex: (root) =>
    `choose another --index-dir, or run '${plainRebuild(root)}' to replace it`,
  otherIndexDir: () => "choose another --index-dir",
  checkFresh: (root) => `run 'wayfinder status ${root}' (or search with --check-fresh)`,
  lexicalMode: () => "--mode lexical",
  rerankOption: () => "--rerank",
  crossEncoder: () => "pass --reranker PATH (a GGUF reranker) or --reranker-url URL (a TEI server)",
  indexAsBundle: () => "index it with --knowledge",
  embedderSetting: (setting) =>
    setting === "url"
      ? "--embedder-url or embedding.url in wayfinder.json"
      : "--model NAME or embedding.model in wayfinder.json",
  unfitPassages: () =>
    "exclude them (--exclude GLOB) or embed their first tokens (--long-input truncate)",
};

/** An MCP agent: tool calls and their arguments; the server's command line is its user's. */
const TOOLS: Hints = {
  index: (root) => `call the index tool for ${root}`,
  // The index tool rebuilds with the server's settings: what only the record held is lost.
  rebuild: (root, fix) =>
    fix?.recorded
      ? `call the index tool for ${root} with rebuild: true, which builds with the server's settings and drops the index's own ${fix.recorded}; to keep that, ask the user to run '${fix.command}' instead`
      : `call the index tool for ${root} with rebuild: true`,
  // Another tree's index is there: replacing it is its owner's choice, not the agent's.
  replaceIndex: (root) =>
    `ask the user to serve it with another --index-dir, or, if the user agrees to replace that index, call the index tool for ${root} with rebuild: true`,
  // Read when the server starts, by whoever starts it.
  otherIndexDir: CLI.otherIndexDir,
  checkFresh: (root) => `call the status tool for ${root} (or search with checkFresh: true)`,
  lexicalMode: () => `mode: "lexical"`,
  rerankOption: CLI.rerankOption,
  crossEncoder: () =>
    "ask the user to serve it with --reranker PATH (a GGUF reranker) or --reranker-url URL (a TEI server)",
  indexAsBundle: (root) =>
    `ask the user to serve it with --knowledge, then call the index tool for ${root}`,
  embedderSetting: (setting) => `${CLI.embedderSetting(setting)}; ask the user to set it`,
  unfitPassages: () =>
    "ask the user to exclude them (--exclude GLOB) or to embed their first tokens (--long-input truncate)",
};

/** Library code: the corpus's methods and the options of `openCorpus` and `search`. */
const LIBRARY: Hints = {
  index: () => "call corpus.index()",
  // A rebuild builds with this corpus's options: what only the record held is lost, as for the tools.
  rebuild: (_root, fix) =>
    fix?.recorded
      ? `call corpus.index({ rebuild: true }), which builds with this corpus's options and drops the index's own ${fix.recorded}`
      : "call corpus.index({ rebuild: true })",
  replaceIndex: () =>
    "choose another indexDir, or call corpus.index({ rebuild: true }) to replace it",
  otherIndexDir: () => "choose another indexDir",
  checkFresh: () => "call corpus.status() (or search with { checkFresh: true })",
  lexicalMode: () => `{ mode: "lexical" }`,
  rerankOption: () => "rerank",
  crossEncoder: () =>
    "pass reranker: { model: PATH } (a GGUF reranker) or reranker: { url: URL } (a TEI server) to openCorpus",
  indexAsBundle: () => "open it with { knowledge: true } and call corpus.index()",
  embedderSetting: (setting) =>
    setting === "url" ? "embedder: { url: URL }" : "embedder: { model: NAME }",
  unfitPassages: () =>
    `exclude them (exclude: [GLOB]) or embed their first tokens (embedder: { longInput: "truncate" })`,
};

const BY_AUDIENCE: Readonly<Record<HintAudience, Hints>> = {
  cli: CLI,
  tools: TOOLS,
  library: LIBRARY,
};

/**
 * The hints worded for `audience`.
 * @throws {WayfinderError} "usage" for an audience that is none of cli, tools, library.
 */
export function hintsFor(audience: HintAudience = "cli"): Hints {
  if (!Object.hasOwn(BY_AUDIENCE, audience)) {
    throw new WayfinderError(
      "usage",
      `Unknown hints audience '${audience}'; expected cli, tools or library`,
    );
  }
  return BY_AUDIENCE[audience];
}

function plainRebuild(root: string): string {
  return `wayfinder index ${root} --rebuild`;
}

/** A structured fix as a clause `hints` words for its reader. */
export function wordingOf(hints: Hints): (fix: Fix) => string {
  return (fix) => {
    switch (fix.kind) {
      case "reindex":
        return `${hints.index(fix.root)} to rebuild it`;
      case "rebuild":
        return hints.rebuild(fix.root, fix.command);
      case "replace_index":
        return hints.replaceIndex(fix.root);
      case "unfit_passages":
        return hints.unfitPassages();
    }
  };
}

/**
 * `error` with its fix worded for `hints`' reader, when it is a
 * `WayfinderError` that carries one not yet worded; anything else as it is.
 */
export function worded<E>(error: E, hints: Hints): E {
  if (error instanceof WayfinderError) error.wordFix(wordingOf(hints));
  return error;
}
