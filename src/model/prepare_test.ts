import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { WayfinderError } from "../error.ts";
import { DEFAULT_MODEL, type ModelSpec } from "./default_model.ts";
import { readManifest } from "./manifest.ts";
import { cachePathFor, prepareModel } from "./prepare.ts";

/** 6 KB of deterministic bytes standing in for a GGUF. */
const MODEL_BYTES = Uint8Array.from({ length: 6144 }, (_, i) => (i * 31 + 7) % 251);

function specFor(url: string, bytes = MODEL_BYTES): ModelSpec {
  return {
    ...DEFAULT_MODEL,
    name: "fixture-model",
    url,
    bytes: bytes.length,
    sha256: createHash("sha256").update(bytes).digest("hex"),
  };
}

interface TestServer {
  url: string;
  requests: () => number;
  close: () => Promise<void>;
}

/** A local HTTP server answering every request with `respond()`, counting requests. */
function serve(respond: () => Response): TestServer {
  let count = 0;
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, () => {
    count++;
    return respond();
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/model.gguf`,
    requests: () => count,
    close: () => server.shutdown(),
  };
}

async function withDir(run: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "wayfinder_prepare_" });
  try {
    await run(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function rejectsWith(promise: Promise<unknown>, code: string, pattern: RegExp) {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof WayfinderError, String(error));
    assert.equal(error.code, code);
    assert.match(error.message, pattern);
    return true;
  });
}

/** No `.partial` or other temp file left beside the model. */
async function assertNoLeftovers(dir: string, expected: string[]) {
  assert.deepEqual((await readdir(dir)).sort(), expected.sort());
}

Deno.test("DEFAULT_MODEL matches models/default.json", async () => {
  const url = new URL("../../models/default.json", import.meta.url);
  assert.deepEqual(JSON.parse(await Deno.readTextFile(url)), { ...DEFAULT_MODEL });
});

Deno.test("prepareModel() downloads, verifies and writes the file and manifest", async () => {
  const server = serve(() => new Response(MODEL_BYTES));
  await withDir(async (dir) => {
    const to = join(dir, "models", "embedding.gguf");
    const spec = specFor(server.url);
    const progress: number[] = [];
    const result = await prepareModel({
      spec,
      to,
      onProgress: (received, total) => {
        assert.equal(total, MODEL_BYTES.length);
        progress.push(received);
      },
    });
    assert.equal(result.source, "download");
    assert.equal(result.path, to);
    assert.deepEqual(new Uint8Array(await readFile(to)), MODEL_BYTES);
    assert.equal(progress.at(-1), MODEL_BYTES.length);
    const manifest = await readManifest(to);
    assert.deepEqual(manifest, result.manifest);
    assert.equal(manifest?.sha256, spec.sha256);
    assert.equal(manifest?.bytes, MODEL_BYTES.length);
    assert.equal(manifest?.source, server.url);
    assert.equal(manifest?.dimensions, 384);
    await assertNoLeftovers(join(dir, "models"), ["embedding.gguf", "embedding.manifest.json"]);
  });
  await server.close();
});

Deno.test("prepareModel() keeps a verified file without any request", async () => {
  const server = serve(() => new Response(MODEL_BYTES));
  await withDir(async (dir) => {
    const to = join(dir, "embedding.gguf");
    await writeFile(to, MODEL_BYTES);
    const result = await prepareModel({ spec: specFor(server.url), to });
    assert.equal(result.source, "existing");
    assert.equal(server.requests(), 0);
    assert.equal((await readManifest(to))?.name, "fixture-model");
  });
  await server.close();
});

Deno.test("prepareModel() replaces a wrong existing file by downloading", async () => {
  const server = serve(() => new Response(MODEL_BYTES));
  await withDir(async (dir) => {
    const to = join(dir, "embedding.gguf");
    await writeFile(to, "old model");
    const result = await prepareModel({ spec: specFor(server.url), to });
    assert.equal(result.source, "download");
    assert.equal(server.requests(), 1);
    assert.deepEqual(new Uint8Array(await readFile(to)), MODEL_BYTES);
  });
  await server.close();
});

Deno.test("prepareModel() rejects a body with the wrong hash and keeps the old file", async () => {
  const wrong = MODEL_BYTES.map((byte, i) => i === 100 ? byte ^ 1 : byte);
  const server = serve(() => new Response(wrong));
  await withDir(async (dir) => {
    const to = join(dir, "embedding.gguf");
    await writeFile(to, "previous model bytes");
    const spec = specFor(server.url);
    await rejectsWith(
      prepareModel({ spec, to }),
      "model",
      new RegExp(
        `^Cannot download model from ${server.url}: SHA-256 mismatch \\(expected ` +
          `${spec.sha256.slice(0, 4)}…, got [0-9a-f]{4}…\\)$`,
      ),
    );
    assert.equal(await readFile(to, "utf8"), "previous model bytes");
    await assertNoLeftovers(dir, ["embedding.gguf"]);
  });
  await server.close();
});

Deno.test("prepareModel() rejects a short body", async () => {
  const server = serve(() => new Response(MODEL_BYTES.slice(0, 1000)));
  await withDir(async (dir) => {
    const to = join(dir, "embedding.gguf");
    await rejectsWith(
      prepareModel({ spec: specFor(server.url), to }),
      "model",
      /: expected 6144 bytes, server announced 1000$/,
    );
    await assertNoLeftovers(dir, []);
  });
  await server.close();
});

Deno.test("prepareModel() rejects a streamed body that ends early", async () => {
  // A stream has no Content-Length, so only the count of received bytes can tell.
  const server = serve(() =>
    new Response(
      new ReadableStream({
        start(controller) {
          controller.enqueue(MODEL_BYTES.slice(0, 1000));
          controller.close();
        },
      }),
    )
  );
  await withDir(async (dir) => {
    const to = join(dir, "embedding.gguf");
    await rejectsWith(
      prepareModel({ spec: specFor(server.url), to }),
      "model",
      /: expected 6144 bytes, got 1000$/,
    );
    await assertNoLeftovers(dir, []);
  });
  await server.close();
});

Deno.test("prepareModel() rejects a connection closed before Content-Length bytes", async () => {
  // Deno.serve will not lie about Content-Length, so speak raw HTTP.
  const listener = Deno.listen({ port: 0, hostname: "127.0.0.1" });
  const serving = (async () => {
    const conn = await listener.accept();
    await conn.read(new Uint8Array(4096));
    const head = `HTTP/1.1 200 OK\r\nContent-Length: ${MODEL_BYTES.length}\r\n\r\n`;
    await conn.write(new TextEncoder().encode(head));
    await conn.write(MODEL_BYTES.slice(0, 2000));
    conn.close();
  })();
  const url = `http://127.0.0.1:${listener.addr.port}/model.gguf`;
  await withDir(async (dir) => {
    const to = join(dir, "embedding.gguf");
    await writeFile(to, "previous");
    await rejectsWith(
      prepareModel({ spec: specFor(url), to }),
      "model",
      /^Cannot download model from http:\/\/127\.0\.0\.1:\d+\/model\.gguf: (connection lost after \d+ bytes|expected 6144 bytes, got \d+)/,
    );
    assert.equal(await readFile(to, "utf8"), "previous");
    await assertNoLeftovers(dir, ["embedding.gguf"]);
  });
  await serving;
  listener.close();
});

Deno.test("prepareModel() reports an HTTP error status", async () => {
  const server = serve(() => new Response("not here", { status: 404 }));
  await withDir(async (dir) => {
    const to = join(dir, "embedding.gguf");
    await rejectsWith(
      prepareModel({ spec: specFor(server.url), to }),
      "model",
      new RegExp(`^Cannot download model from ${server.url}: HTTP 404$`),
    );
    await assertNoLeftovers(dir, []);
  });
  await server.close();
});

Deno.test("prepareModel() gives up on a stalled download within timeoutMs", async () => {
  const server = serve(() =>
    new Response(
      new ReadableStream({
        start(controller) {
          controller.enqueue(MODEL_BYTES.slice(0, 100)); // then nothing, ever
        },
      }),
    )
  );
  await withDir(async (dir) => {
    const to = join(dir, "embedding.gguf");
    await writeFile(to, "previous");
    const started = performance.now();
    await rejectsWith(
      prepareModel({ spec: specFor(server.url), to, timeoutMs: 300 }),
      "model",
      /: no data for 0\.3 s$/,
    );
    const elapsed = performance.now() - started;
    assert.ok(elapsed >= 250 && elapsed < 3000, `took ${elapsed} ms`);
    assert.equal(await readFile(to, "utf8"), "previous");
    await assertNoLeftovers(dir, ["embedding.gguf"]);
  });
  await server.close();
});

Deno.test("prepareModel() reports an unreachable server as a model error", async () => {
  const listener = Deno.listen({ port: 0, hostname: "127.0.0.1" });
  const url = `http://127.0.0.1:${listener.addr.port}/model.gguf`;
  listener.close(); // nothing listens there now
  await withDir(async (dir) => {
    await rejectsWith(
      prepareModel({ spec: specFor(url), to: join(dir, "embedding.gguf") }),
      "model",
      /^Cannot download model from http:\/\/127\.0\.0\.1:\d+\/model\.gguf: .+/,
    );
  });
});

Deno.test("prepareModel() offline without a copy names both places", async () => {
  await withDir(async (dir) => {
    const to = join(dir, "embedding.gguf");
    const cacheDir = join(dir, "cache");
    const spec = specFor("http://127.0.0.1:9/never-fetched.gguf");
    await rejectsWith(
      prepareModel({
        spec,
        to,
        cacheDir,
        offline: true,
        fetch: () => Promise.reject(new Error("offline must not fetch")),
      }),
      "no_model",
      new RegExp(
        `^Cannot prepare model offline: no verified copy at '${to}' or '${
          cachePathFor(cacheDir, spec)
        }'; run 'wayfinder model prepare' with network, or 'wayfinder model import <checkpoint>'$`,
      ),
    );
  });
});

Deno.test("prepareModel() offline copies a verified cached model", async () => {
  await withDir(async (dir) => {
    const to = join(dir, "models", "embedding.gguf");
    const cacheDir = join(dir, "cache");
    const spec = specFor("http://127.0.0.1:9/never-fetched.gguf");
    await Deno.mkdir(cacheDir);
    await writeFile(cachePathFor(cacheDir, spec), MODEL_BYTES);
    const result = await prepareModel({ spec, to, cacheDir, offline: true });
    assert.equal(result.source, "cache");
    assert.deepEqual(new Uint8Array(await readFile(to)), MODEL_BYTES);
    assert.equal((await readManifest(to))?.sha256, spec.sha256);
  });
});

Deno.test("prepareModel() ignores a corrupt cached copy and fills the cache on download", async () => {
  const server = serve(() => new Response(MODEL_BYTES));
  await withDir(async (dir) => {
    const to = join(dir, "embedding.gguf");
    const cacheDir = join(dir, "cache");
    const spec = specFor(server.url);
    await Deno.mkdir(cacheDir);
    await writeFile(cachePathFor(cacheDir, spec), MODEL_BYTES.slice(1));
    await rejectsWith(prepareModel({ spec, to, cacheDir, offline: true }), "no_model", /offline/);
    const result = await prepareModel({ spec, to, cacheDir });
    assert.equal(result.source, "download");
    assert.deepEqual(new Uint8Array(await readFile(cachePathFor(cacheDir, spec))), MODEL_BYTES);
  });
  await server.close();
});
