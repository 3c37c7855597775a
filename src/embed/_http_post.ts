/**
 * One JSON POST with a timeout and retries, shared by the HTTP embedder and
 * the HTTP reranker so both treat servers the same way.
 */

/** How to reach a server and how hard to try. */
export interface PostOptions {
  endpoint: string;
  /** Per-request timeout. */
  timeoutMs: number;
  /** Extra attempts after a network error, timeout, 429 or 5xx. */
  retries: number;
  /** First backoff delay; doubles on each retry. */
  retryDelayMs: number;
  /** Sent as `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
}

/** A failure worth another attempt: the network, a timeout, 429 or 5xx. */
class Transient extends Error {}

/**
 * Posts `body` and returns what `accept` makes of the parsed response,
 * retrying transient failures with exponential backoff. `accept` throws to
 * reject a malformed response, which is never retried.
 *
 * @param fail Wraps a reason into the caller's error ("Cannot embed with … : reason").
 */
export async function postJson<T>(
  options: PostOptions,
  body: unknown,
  accept: (raw: unknown) => T,
  fail: (reason: string, cause?: unknown) => Error,
): Promise<T> {
  for (let attempt = 0;; attempt++) {
    try {
      return accept(await send(options, body));
    } catch (error) {
      if (!(error instanceof Transient)) {
        if (error instanceof Error && error.name === "WayfinderError") throw error;
        throw fail(error instanceof Error ? error.message : String(error), error);
      }
      if (attempt >= options.retries) {
        const tries = attempt + 1;
        throw fail(`${error.message} (${tries} ${tries === 1 ? "attempt" : "attempts"})`, error);
      }
      await new Promise((resolve) => setTimeout(resolve, options.retryDelayMs * 2 ** attempt));
    }
  }
}

/** One HTTP round trip; throws `Transient` for what a retry may fix. */
async function send(options: PostOptions, body: unknown): Promise<unknown> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  let response: Response;
  let text: string;
  try {
    response = await fetch(options.endpoint, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    text = await response.text();
  } catch (error) {
    if (error instanceof DOMException && error.name === "TimeoutError") {
      throw new Transient(`timed out after ${options.timeoutMs} ms`);
    }
    throw new Transient(error instanceof Error ? error.message : String(error));
  }
  if (!response.ok) {
    const detail = text.trim().slice(0, 200);
    const message = `HTTP ${response.status}${detail ? ` ${detail}` : ""}`;
    if (response.status === 429 || response.status >= 500) throw new Transient(message);
    throw new Error(message);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`malformed response: not JSON`);
  }
}
