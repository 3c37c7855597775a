/**
 * What every part of the PostgreSQL store shares: the URL shown without its
 * secrets, errors turned into one-line `WayfinderError`s, and vectors in
 * pgvector's text form.
 */
import { WayfinderError } from "../../error.ts";

/**
 * The URL without its password (nor a `password` query parameter), for
 * messages: credentials are never printed.
 */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = "";
    for (const key of [...parsed.searchParams.keys()]) {
      if (/pass|secret|key$/i.test(key) && key !== "sslkey") parsed.searchParams.delete(key);
    }
    return parsed.toString();
  } catch {
    return "postgres://(a URL that does not parse)";
  }
}

/** SQLSTATE classes and client codes that mean the server is gone or unreachable. */
const CONNECTION_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
]);

/** Whether an error says the connection is lost or could not be made. */
export function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: string })?.code ?? "";
  const message = String((error as Error)?.message ?? "");
  return CONNECTION_CODES.has(code) || code.startsWith("08") ||
    /Connection terminated|connection error|timeout exceeded when trying to connect/i.test(message);
}

/**
 * The error as a one-line `WayfinderError` naming `location` (already
 * redacted) and what was being done; a WayfinderError passes unchanged.
 */
export function storeError(error: unknown, doing: string, location: string): WayfinderError {
  if (error instanceof WayfinderError) return error;
  const reason = String((error as Error)?.message ?? error).split("\n")[0]!.trim();
  const lost = isConnectionError(error);
  return new WayfinderError(
    "io",
    lost
      ? `Cannot ${doing}: the PostgreSQL server at ${location} cannot be reached (${reason})`
      : `Cannot ${doing} in PostgreSQL at ${location}: ${reason}`,
    { cause: error },
  );
}

/** A vector in pgvector's text form; float32 values print exactly as doubles. */
export function vectorText(vector: Float32Array): string {
  return `[${vector.join(",")}]`;
}

/** A vector from pgvector's text form. */
export function parseVector(text: string): Float32Array {
  return Float32Array.from(text.slice(1, -1).split(","), Number);
}
