import { WayfinderError } from "../error.ts";
import type { Embedder, ModelIdentity } from "./embedder.ts";
import { modelIdentity } from "./model_identity.ts";
import { normalizeVector } from "./normalize_vector.ts";
import { postJson } from "./_http_post.ts";

/** The wire protocols {@linkcode HttpEmbedder} speaks. */
export type HttpProtocol = "ollama" | "openai" | "tei";

/** Options for {@linkcode HttpEmbedder.create}. */
export interface HttpEmbedderOptions {
  /** Ollama `/api/embed`, OpenAI-compatible `/v1/embeddings`, or TEI `/embed`. */
  protocol: HttpProtocol;
  /** Server base URL, e.g. `http://127.0.0.1:11434`; a full endpoint URL also works. */
  url: string;
  /** Model name sent to the server (TEI serves one model and ignores it). */
  model: string;
  /**
   * Expected vector length, checked against every response (not sent: servers
   * that cannot shorten vectors would refuse it); when absent, `create` asks
   * the server once to find it.
   */
  dimensions?: number;
  /** Texts per request. @default {32} */
  batchSize?: number;
  /** Per-request timeout. @default {30000} */
  timeoutMs?: number;
  /** Extra attempts after a network error, timeout, 429 or 5xx. @default {3} */
  retries?: number;
  /** First backoff delay; doubles on each retry. @default {250} */
  retryDelayMs?: number;
  /** Sent as `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** Prepended to queries only. @default {""} */
  queryPrefix?: string;
  /** The token budget the fit stage checks against. @default {512} */
  maxTokens?: number;
  /** Servers truncate or reject on their own; this records which we asked for. @default {"truncate"} */
  longInput?: "reject" | "truncate";
  /** @default {1} */
  inputFormat?: number | string;
}

interface Resolved {
  protocol: HttpProtocol;
  url: string;
  endpoint: string;
  model: string;
  batchSize: number;
  timeoutMs: number;
  retries: number;
  retryDelayMs: number;
  apiKey?: string;
  truncate: boolean;
}

/**
 * Embeds through an HTTP embedding server (Ollama, an OpenAI-compatible API,
 * or Hugging Face TEI), in batches, with timeouts and retries.
 */
export class HttpEmbedder implements Embedder {
  readonly identity: ModelIdentity;
  readonly #options: Resolved;

  private constructor(identity: ModelIdentity, options: Resolved) {
    this.identity = identity;
    this.#options = options;
  }

  /**
   * Builds an embedder; without `dimensions`, embeds one probe text to learn
   * them, so a wrong URL or model fails here rather than mid-index.
   */
  static async create(options: HttpEmbedderOptions): Promise<HttpEmbedder> {
    const resolved: Resolved = {
      protocol: options.protocol,
      url: options.url,
      endpoint: _endpoint(options.protocol, options.url),
      model: options.model,
      batchSize: Math.max(1, options.batchSize ?? 32),
      timeoutMs: options.timeoutMs ?? 30_000,
      retries: Math.max(0, options.retries ?? 3),
      retryDelayMs: options.retryDelayMs ?? 250,
      apiKey: options.apiKey,
      truncate: (options.longInput ?? "truncate") === "truncate",
    };
    let dimensions = options.dimensions;
    if (dimensions === undefined) {
      const [probe] = await _request(resolved, ["dimensions probe"], undefined);
      dimensions = probe.length;
    }
    const { model: name, protocol: provider } = options;
    const identity = modelIdentity(
      { name, provider, sha256: `${provider}:${name}`, dimensions, pooling: "remote" },
      { ...options, longInput: options.longInput ?? "truncate" },
    );
    return new HttpEmbedder(identity, resolved);
  }

  async embedDocuments(texts: string[]): Promise<Float32Array[]> {
    const vectors: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.#options.batchSize) {
      const batch = texts.slice(i, i + this.#options.batchSize);
      vectors.push(...await _request(this.#options, batch, this.identity.dimensions));
    }
    return vectors;
  }

  async embedQuery(text: string): Promise<Float32Array> {
    const [vector] = await _request(
      this.#options,
      [this.identity.queryPrefix + text],
      this.identity.dimensions,
    );
    return vector;
  }

  /**
   * Approximate: the server's tokenizer is out of reach, so this assumes about
   * four characters per token, which is close for English and code under
   * common BPE and WordPiece vocabularies.
   */
  countTokens(text: string, kind: "document" | "query"): Promise<number> {
    const input = kind === "query" ? this.identity.queryPrefix + text : text;
    return Promise.resolve(Math.ceil(input.length / 4));
  }

  /** Nothing to release: each request is self-contained. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}

function _endpoint(protocol: HttpProtocol, url: string): string {
  const base = url.replace(/\/+$/, "");
  const path = protocol === "ollama"
    ? "/api/embed"
    : protocol === "tei"
    ? "/embed"
    : "/v1/embeddings";
  if (base.endsWith(path)) return base;
  // OpenAI-style base URLs usually already end in /v1.
  if (protocol === "openai" && base.endsWith("/v1")) return base + "/embeddings";
  return base + path;
}

function _body(options: Resolved, texts: string[]): unknown {
  switch (options.protocol) {
    case "ollama":
      return { model: options.model, input: texts, truncate: options.truncate };
    case "openai":
      return { model: options.model, input: texts };
    case "tei":
      return { inputs: texts, truncate: options.truncate };
  }
}

/** Sends one batch with retries and returns its normalised vectors. */
function _request(
  options: Resolved,
  texts: string[],
  dimensions: number | undefined,
): Promise<Float32Array[]> {
  const fail = (reason: string, cause?: unknown) =>
    new WayfinderError(
      "embedder",
      `Cannot embed with ${options.protocol} at ${options.url}: ${reason}`,
      { cause },
    );
  return postJson(options, _body(options, texts), (raw) => {
    const vectors = _parse(options.protocol, raw, texts.length);
    if (typeof vectors === "string") throw fail(`malformed response: ${vectors}`);
    for (const vector of vectors) {
      if (dimensions !== undefined && vector.length !== dimensions) {
        throw fail(`expected ${dimensions} dimensions, got ${vector.length}`);
      }
      if (!normalizeVector(vector)) throw fail("malformed response: a vector is all zeros");
    }
    return vectors;
  }, fail);
}

/** Extracts vectors in input order, or a string saying what is wrong. */
function _parse(protocol: HttpProtocol, raw: unknown, count: number): Float32Array[] | string {
  let rows: unknown;
  if (protocol === "ollama") {
    rows = (raw as { embeddings?: unknown } | null)?.embeddings;
    if (!Array.isArray(rows)) return `expected {"embeddings": [...]}`;
  } else if (protocol === "openai") {
    const data = (raw as { data?: unknown } | null)?.data;
    if (!Array.isArray(data)) return `expected {"data": [...]}`;
    const ordered: unknown[] = new Array(data.length);
    for (const [position, item] of data.entries()) {
      const index = (item as { index?: unknown } | null)?.index ?? position;
      if (typeof index !== "number" || index < 0 || index >= data.length || index in ordered) {
        return `bad or repeated index ${JSON.stringify(index)}`;
      }
      ordered[index] = (item as { embedding?: unknown }).embedding;
    }
    rows = ordered;
  } else {
    rows = raw;
    if (!Array.isArray(rows)) return "expected an array of vectors";
  }
  const list = rows as unknown[];
  if (list.length !== count) return `expected ${count} vectors, got ${list.length}`;
  const vectors: Float32Array[] = [];
  for (const row of list) {
    if (!Array.isArray(row) || row.length === 0) return "a vector is not a non-empty array";
    if (!row.every((value) => typeof value === "number" && Number.isFinite(value))) {
      return "a vector holds something other than finite numbers";
    }
    vectors.push(Float32Array.from(row as number[]));
  }
  const length = vectors[0]?.length;
  if (vectors.some((vector) => vector.length !== length)) return "vectors differ in length";
  return vectors;
}
