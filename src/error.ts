/**
 * The one error type of wayfinder. `src/` throws it; `main.ts` turns it into a
 * one-line message on stderr and an exit code.
 */

/**
 * Why a command failed. Each code maps to one exit status.
 *
 * @example Tell a missing index from other failures
 * ```ts
 * import assert from "node:assert/strict";
 * import { FakeEmbedder, openCorpus, WayfinderError } from "./mod.ts";
 *
 * const dataDir = await Deno.makeTempDir();
 * const corpus = await openCorpus("fixtures/corpus", { dataDir, embedder: new FakeEmbedder() });
 * const code = await corpus.search("token").then(() => "ok", (error) => error instanceof WayfinderError ? error.code : "other");
 * assert.equal(code, "no_index");
 * await corpus.close();
 * await Deno.remove(dataDir, { recursive: true });
 * ```
 */
export type ErrorCode =
  | "usage" // bad flag, bad value, bad argument
  | "io" // a file or directory could not be read or written
  | "config" // wayfinder.json is malformed
  | "no_index" // search before index
  | "stale_index" // index built by another model or format
  | "busy" // another index run holds the lock
  | "no_model" // no embedding model could be found
  | "model" // the model failed to load, download or run
  | "input" // malformed input data (queries, qrels, bundles)
  | "long_input" // a passage exceeds the model's token budget
  | "embedder" // an HTTP embedder failed
  | "internal";

/** Exit status for each error code: everything that is an error exits 2. */
export const EXIT_CODES: Readonly<Record<ErrorCode, number>> = {
  usage: 2,
  io: 2,
  config: 2,
  no_index: 2,
  stale_index: 2,
  busy: 2,
  no_model: 2,
  model: 2,
  input: 2,
  long_input: 2,
  embedder: 2,
  internal: 2,
};

/**
 * The way out of an error, as data: the stages that throw know what would
 * fix it, and the layer that knows its reader (the CLI's user, an agent
 * calling the MCP tools, library code) words it, once.
 *
 * @example Act on the fix an error names
 * ```ts
 * import assert from "node:assert/strict";
 * import { WayfinderError } from "./mod.ts";
 *
 * const error = new WayfinderError("stale_index", "The index was built by another model", {
 *   fix: { kind: "rebuild", root: "/src/app" },
 * });
 * assert.equal(error.fix?.kind, "rebuild");
 * assert.equal(error.exit, 2);
 * ```
 */
export type Fix =
  /** Run an index on `root`: it rebuilds an unusable index unasked. */
  | { kind: "reindex"; root: string }
  /** Rebuild the index of `root` from scratch, with the flags `command` names. */
  | {
    kind: "rebuild";
    root: string;
    /** `wayfinder index <root> [flags] --rebuild`, and those flags that only the index's record gave ("" for none). */
    command?: { command: string; recorded: string };
  }
  /** Keep the index elsewhere, or replace the other tree's index that is there. */
  | { kind: "replace_index"; root: string }
  /** Leave out or cut the passages that cannot fit the model. */
  | { kind: "unfit_passages" };

/** The `index --rebuild` command a rebuild fix names, and the flags in it only the index's record gave. */
export type RebuildCommand = NonNullable<Extract<Fix, { kind: "rebuild" }>["command"]>;

/**
 * An expected failure, worded for the user: sentence case, no final period,
 * quoted values ("Cannot read config: 'x' is not JSON"). Its `code` says what
 * kind, and `fix`, when there is one, what would fix it.
 *
 * @example Searching before indexing
 * ```ts
 * import assert from "node:assert/strict";
 * import { FakeEmbedder, openCorpus, WayfinderError } from "./mod.ts";
 *
 * const dataDir = await Deno.makeTempDir();
 * const corpus = await openCorpus("fixtures/corpus", { dataDir, embedder: new FakeEmbedder() });
 * await assert.rejects(
 *   corpus.search("anything"),
 *   (error) => error instanceof WayfinderError && error.code === "no_index",
 * );
 * await corpus.close();
 * await Deno.remove(dataDir, { recursive: true });
 * ```
 */
export class WayfinderError extends Error {
  /** Why it failed; {@link EXIT_CODES} maps it to the exit status. */
  readonly code: ErrorCode;
  /** What would fix it, when the stage that threw knows; the message names it once worded. */
  readonly fix?: Fix;
  #worded = false;
  /** An error with `code`, worded for the user; `cause` keeps the underlying error. */
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown; fix?: Fix }) {
    super(message, options);
    this.name = "WayfinderError";
    this.code = code;
    if (options?.fix) this.fix = options.fix;
  }

  /**
   * Ends the message with its fix as `word` says it, the first time only:
   * an error passes several layers, and the one nearest its reader words it.
   */
  wordFix(word: (fix: Fix) => string): this {
    if (this.fix && !this.#worded) {
      this.message = `${this.message}; ${word(this.fix)}`;
      this.#worded = true;
    }
    return this;
  }
  /** The process exit status for this error. */
  get exit(): number {
    return EXIT_CODES[this.code];
  }
}

/**
 * A message on one line: parsers quote the input they choked on, newlines
 * and all ("Unexpected token 'g', "garbage\n" is not valid JSON").
 */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
