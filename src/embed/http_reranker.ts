import { WayfinderError } from "../error.ts";
import { postJson } from "./_http_post.ts";
import type { Reranker } from "./reranker.ts";

/** Options for {@linkcode HttpReranker.create}. */
export interface HttpRerankerOptions {
  /** Server base URL, e.g. `http://127.0.0.1:8080`; a URL ending in `/rerank` is used as is. */
  url: string;
  /**
   * Passages per request. TEI refuses more than its `--max-client-batch-size`
   * (32 by default), so larger candidate lists go in several requests. @default {32}
   */
  batchSize?: number;
  /** Per-request timeout. @default {30000} */
  timeoutMs?: number;
  /** Extra attempts after a network error, timeout, 429 or 5xx. @default {2} */
  retries?: number;
  /** First backoff delay; doubles on each retry. @default {250} */
  retryDelayMs?: number;
  /** Sent as `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
}

type Resolved = Required<Omit<HttpRerankerOptions, "apiKey">> & {
  apiKey?: string;
  endpoint: string;
};

/**
 * A cross-encoder behind a Text Embeddings Inference `/rerank` endpoint:
 * `{query, texts}` in, `[{index, score}]` out (scores in any order). Also
 * reads the `{results: [{index, relevance_score}]}` shape of Cohere-style servers.
 */
export class HttpReranker implements Reranker {
  readonly #options: Resolved;

  private constructor(options: Resolved) {
    this.#options = options;
  }

  /** Checks the URL; the server is first contacted by `rank`. */
  static create(options: HttpRerankerOptions): HttpReranker {
    let endpoint: string;
    try {
      const base = new URL(options.url).href.replace(/\/+$/, "");
      endpoint = base.endsWith("/rerank") ? base : `${base}/rerank`;
    } catch {
      throw new WayfinderError("usage", `Invalid reranker URL '${options.url}'`);
    }
    return new HttpReranker({
      url: options.url,
      endpoint,
      batchSize: Math.max(1, options.batchSize ?? 32),
      timeoutMs: options.timeoutMs ?? 30_000,
      retries: Math.max(0, options.retries ?? 2),
      retryDelayMs: options.retryDelayMs ?? 250,
      apiKey: options.apiKey,
    });
  }

  async rank(query: string, documents: string[]): Promise<number[]> {
    const scores: number[] = [];
    for (let start = 0; start < documents.length; start += this.#options.batchSize) {
      const texts = documents.slice(start, start + this.#options.batchSize);
      scores.push(...await this.#request(query, texts));
    }
    return scores;
  }

  #request(query: string, texts: string[]): Promise<number[]> {
    const fail = (reason: string, cause?: unknown) =>
      new WayfinderError(
        "embedder",
        `Cannot rerank with ${this.#options.endpoint}: ${reason}`,
        { cause },
      );
    return postJson(this.#options, { query, texts, truncate: true }, (raw) => {
      const scores = parseScores(raw, texts.length);
      if (typeof scores === "string") throw fail(`malformed response: ${scores}`);
      return scores;
    }, fail);
  }

  /** Nothing to release: each request is self-contained. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** Scores in input order, or a string saying what is wrong. */
function parseScores(raw: unknown, count: number): number[] | string {
  const rows = Array.isArray(raw) ? raw : (raw as { results?: unknown } | null)?.results;
  if (!Array.isArray(rows)) return `expected [{"index", "score"}, …]`;
  const scores: number[] = new Array(count);
  for (const row of rows as Record<string, unknown>[]) {
    const index = row?.index;
    const score = row?.score ?? row?.relevance_score;
    if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index >= count) {
      return `bad index ${JSON.stringify(index)}`;
    }
    if (typeof score !== "number" || !Number.isFinite(score)) {
      return `bad score ${JSON.stringify(score)} for index ${index}`;
    }
    if (index in scores) return `index ${index} repeats`;
    scores[index] = score;
  }
  if (Object.keys(scores).length !== count) return `expected ${count} scores, got ${rows.length}`;
  return scores;
}
