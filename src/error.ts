/**
 * The one error type of wayfinder. `src/` throws it; `main.ts` turns it into a
 * one-line message on stderr and an exit code.
 */

/** Why a command failed. Each code maps to one exit status. */
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
 * An expected failure, worded for the user: sentence case, no final period,
 * quoted values ("Cannot read config: 'x' is not JSON").
 */
export class WayfinderError extends Error {
  /** Why it failed; {@link EXIT_CODES} maps it to the exit status. */
  readonly code: ErrorCode;
  /** An error with `code`, worded for the user; `cause` keeps the underlying error. */
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "WayfinderError";
    this.code = code;
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
