/**
 * The contract every `Store` backend passes, as Deno tests: call
 * `storeContract("postgres", makeStore)` from a backend's `_test.ts`. It uses
 * a handful of hand-written chunks and 4-dimensional vectors, so it runs in
 * seconds on any backend, and it asserts behaviour, not layout.
 */
import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import { WayfinderError } from "../../error.ts";
import type { Chunk } from "../../types.ts";
import type { FileRecord, IndexManifestInput } from "../manifest.ts";
import type { FileChange, Publication, Store } from "../store.ts";
import { testIdentity } from "./synthetic.ts";

/** A fresh, empty store, and how to remove it. */
export interface ContractStore {
  store: Store;
  cleanup(): Promise<void>;
}

/** The input hash the contract publishes for a chunk (`FileChange.inputHashes`). */
export function contractInputHash(chunk: Chunk): string {
  return `input:${chunk.content}`;
}

const DIMENSIONS = 4;

/** The manifest fields of every publication here. */
export function contractManifest(): Omit<IndexManifestInput, "files"> {
  return { root: "/contract", identity: testIdentity(DIMENSIONS), fingerprint: "contract-fp" };
}

function chunk(
  sourcePath: string,
  n: number,
  content: string,
  extra: Partial<Chunk> = {},
): Chunk {
  const language = sourcePath.endsWith(".md")
    ? "markdown"
    : sourcePath.endsWith(".py")
    ? "python"
    : "typescript";
  return {
    id: `${sourcePath}#${n}:${content.length}`,
    sourcePath,
    lineStart: n * 10 + 1,
    lineEnd: n * 10 + 5,
    startOffset: n * 100,
    endOffset: n * 100 + content.length,
    type: language === "markdown" ? "heading" : "function",
    language,
    content,
    metadata: {},
    ...extra,
  };
}

const v = (...values: number[]) => Float32Array.from(values);

/** One file's change: its chunks with these vectors (null: pending). */
export function change(
  path: string,
  passages: [string, Float32Array | null, Partial<Chunk>?][],
  hash = `h-${path}-${passages.length}`,
): FileChange {
  const chunks = passages.map(([content, , extra], n) => chunk(path, n, content, extra));
  const record: FileRecord = { hash, bytes: 100, chunkIds: chunks.map((c) => c.id) };
  return {
    path,
    record,
    chunks,
    vectors: passages.map(([, vector]) => vector),
    inputHashes: chunks.map(contractInputHash),
  };
}

const AUTH = () =>
  change("src/auth.ts", [
    ["export function refreshAuthToken(session) { return fetchToken(session); }", v(1, 0, 0, 0), {
      symbol: "refreshAuthToken",
    }],
    ["export function logout(session) { session.clear(); }", v(0.8, 0.6, 0, 0), {
      symbol: "logout",
    }],
  ]);
const GUIDE = () =>
  change("docs/guide.md", [
    ["# Tokens\n\nRefresh the auth token before it expires.", v(0.6, 0, 0.8, 0)],
  ]);
const DB = () =>
  change("src/db.py", [
    ["def connect(url):\n    return Pool(url)", v(0, 0, 0, 1), { symbol: "connect" }],
  ]);

function publication(changed: FileChange[], removed: string[] = []): Publication {
  return { manifest: contractManifest(), removed, changed };
}

/** Publishes holding the store's lock, as an index run does. */
async function publish(store: Store, changed: FileChange[], removed: string[] = []) {
  const lock = await store.lock();
  try {
    return await store.publish(publication(changed, removed));
  } finally {
    await lock.release();
  }
}

/** Registers the contract's tests for a backend. */
export function storeContract(name: string, makeStore: () => Promise<ContractStore>): void {
  const test = (what: string, fn: (store: Store) => Promise<void>) =>
    Deno.test(`${name} store: ${what}`, async () => {
      const { store, cleanup } = await makeStore();
      try {
        await fn(store);
      } finally {
        await store.close();
        await cleanup();
      }
    });

  test("opens to null before the first publish", async (store) => {
    equal(await store.open(), null);
    equal(await store.manifest(), null);
    const status = await store.status();
    equal(status.generation, null);
    equal(status.chunkCount, 0);
  });

  test("reads back what it published", async (store) => {
    const generation = await publish(store, [AUTH(), GUIDE()]);
    const reader = (await store.open())!;
    try {
      equal(reader.generation, generation);
      equal(reader.chunkCount, 3);
      equal(reader.manifest.chunkCount, 3);
      deepEqual(Object.keys(reader.manifest.files).sort(), ["docs/guide.md", "src/auth.ts"]);
      deepEqual(reader.manifest.files["src/auth.ts"], AUTH().record);
      const expected = AUTH().chunks[1]!;
      deepEqual(await reader.chunk(expected.id), expected);
      equal(await reader.chunk("no-such-id"), null);
    } finally {
      await reader.close();
    }
    equal((await store.status()).generation, generation);
    equal((await store.status()).chunkCount, 3);
  });

  test("a publish keeps files it does not name and replaces or removes those it does", async (store) => {
    await publish(store, [AUTH(), GUIDE(), DB()]);
    const edited = change("src/auth.ts", [
      ["export function refreshAuthToken(session) { return renew(session); }", v(1, 0, 0, 0)],
    ], "h-auth-2");
    await publish(store, [edited], ["src/db.py"]);
    const reader = (await store.open())!;
    try {
      equal(reader.chunkCount, 2);
      deepEqual(Object.keys(reader.manifest.files).sort(), ["docs/guide.md", "src/auth.ts"]);
      equal(reader.manifest.files["src/auth.ts"]!.hash, "h-auth-2");
      // Unchanged: still there, byte for byte.
      const guide = GUIDE().chunks[0]!;
      deepEqual(await reader.chunk(guide.id), guide);
      for (const old of [...AUTH().chunks, ...DB().chunks]) {
        equal(await reader.chunk(old.id), null, old.id);
      }
      deepEqual(await reader.chunk(edited.chunks[0]!.id), edited.chunks[0]);
      const hits = await reader.lexical("renew", { limit: 5 });
      deepEqual(hits.map((hit) => hit.chunk.id), [edited.chunks[0]!.id]);
      deepEqual(await reader.lexical("connect pool", { limit: 5 }), []);
    } finally {
      await reader.close();
    }
  });

  test("dense search ranks by cosine, filters and skips pending chunks", async (store) => {
    const pending = change("src/pending.ts", [["export function refreshLater() {}", null]]);
    await publish(store, [AUTH(), GUIDE(), DB(), pending]);
    const reader = (await store.open())!;
    try {
      const query = v(1, 0, 0, 0);
      const hits = await reader.dense(query, { limit: 10 });
      deepEqual(hits.map((hit) => hit.chunk.symbol ?? hit.chunk.sourcePath), [
        "refreshAuthToken",
        "logout",
        "docs/guide.md",
        "connect",
      ]);
      ok(Math.abs(hits[0]!.score - 1) < 1e-6);
      ok(Math.abs(hits[1]!.score - 0.8) < 1e-6);
      equal(hits[0]!.scores.dense, hits[0]!.score);
      ok(hits.every((hit) => hit.chunk.sourcePath !== "src/pending.ts"), "pending skipped");
      deepEqual(
        (await reader.dense(query, { limit: 10, filter: { languages: ["markdown"] } }))
          .map((hit) => hit.chunk.sourcePath),
        ["docs/guide.md"],
      );
      deepEqual(
        (await reader.dense(query, { limit: 10, filter: { pathPrefixes: ["src"] } }))
          .map((hit) => hit.chunk.sourcePath),
        ["src/auth.ts", "src/auth.ts", "src/db.py"],
      );
      equal((await reader.dense(query, { limit: 1 })).length, 1);
      const status = await store.status();
      equal(status.pending.reduce((sum, [start, end]) => sum + end - start, 0), 1);
    } finally {
      await reader.close();
    }
  });

  test("file vectors are the unit mean of a file's embedded passages", async (store) => {
    const half = change("src/half.ts", [["export function now() {}", v(0, 1, 0, 0)], [
      "export function later() {}",
      null,
    ]]);
    const pending = change("src/pending.ts", [["export function refreshLater() {}", null]]);
    await publish(store, [AUTH(), GUIDE(), half, pending]);
    const reader = (await store.open())!;
    try {
      ok(reader.fileVectors, "every backend here averages a file's vectors");
      const means = await reader.fileVectors(
        ["src/auth.ts", "docs/guide.md", "src/half.ts", "src/pending.ts", "src/missing.ts"],
      );
      const near = (path: string, expected: number[]) => {
        const mean = means.get(path);
        ok(mean, `${path} has a mean`);
        ok(expected.every((x, d) => Math.abs(mean[d]! - x) < 1e-3), `${path}: ${[...mean]}`);
      };
      // (1, 0, 0, 0) and (0.8, 0.6, 0, 0) average to (0.9, 0.3, 0, 0), then unit length.
      const norm = Math.hypot(0.9, 0.3);
      near("src/auth.ts", [0.9 / norm, 0.3 / norm, 0, 0]);
      near("docs/guide.md", [0.6, 0, 0.8, 0]);
      near("src/half.ts", [0, 1, 0, 0]);
      deepEqual([...means.keys()].sort(), ["docs/guide.md", "src/auth.ts", "src/half.ts"]);
    } finally {
      await reader.close();
    }
  });

  test("lexical search finds words in content, symbols and paths, with filters", async (store) => {
    await publish(store, [AUTH(), GUIDE(), DB()]);
    const reader = (await store.open())!;
    try {
      const hits = await reader.lexical("refresh token", { limit: 10 });
      const paths = hits.map((hit) => hit.chunk.sourcePath);
      ok(paths.includes("src/auth.ts") && paths.includes("docs/guide.md"), paths.join());
      ok(hits.every((hit) => hit.score > 0 && hit.scores.lexical === hit.score));
      ok(hits.every((hit, i) => i === 0 || hits[i - 1]!.score >= hit.score), "best first");
      deepEqual(
        (await reader.lexical("refresh token", { limit: 10, filter: { types: ["heading"] } }))
          .map((hit) => hit.chunk.sourcePath),
        ["docs/guide.md"],
      );
      deepEqual(
        (await reader.lexical("connect", { limit: 10, filter: { languages: ["python"] } }))
          .map((hit) => hit.chunk.symbol),
        ["connect"],
      );
      deepEqual(
        await reader.lexical("connect", { limit: 10, filter: { languages: ["dart"] } }),
        [],
      );
      const first = hits[0]!.chunk;
      equal(first.content, (await reader.chunk(first.id))!.content, "hits carry their text");
    } finally {
      await reader.close();
    }
  });

  test("hybrid search fuses both rankings and keeps the filter", async (store) => {
    await publish(store, [AUTH(), GUIDE(), DB()]);
    const reader = (await store.open())!;
    try {
      const hits = await reader.hybrid("refresh auth token", v(1, 0, 0, 0), { limit: 3 });
      equal(hits[0]!.chunk.symbol, "refreshAuthToken");
      ok(hits[0]!.scores.dense !== undefined && hits[0]!.scores.lexical !== undefined);
      ok(hits.every((hit, i) => i === 0 || hits[i - 1]!.score >= hit.score), "best first");
      const docs = await reader.hybrid("refresh auth token", v(1, 0, 0, 0), {
        limit: 3,
        filter: { languages: ["markdown"] },
      });
      deepEqual(docs.map((hit) => hit.chunk.sourcePath), ["docs/guide.md"]);
    } finally {
      await reader.close();
    }
  });

  test("vectors by input hash come back for embedded chunks only", async (store) => {
    const pending = change("src/pending.ts", [["export function refreshLater() {}", null]]);
    await publish(store, [AUTH(), pending]);
    const reader = (await store.open())!;
    try {
      const [refresh, logout] = AUTH().chunks;
      const later = pending.chunks[0]!;
      const found = await reader.vectorsByInput([
        contractInputHash(refresh!),
        contractInputHash(later),
        "input:nothing like it",
      ]);
      deepEqual([...found.keys()], [contractInputHash(refresh!)]);
      deepEqual([...found.get(contractInputHash(refresh!))!], [1, 0, 0, 0]);
      const again = await reader.vectorsByInput([contractInputHash(logout!)]);
      ok(Math.abs(again.get(contractInputHash(logout!))![1]! - 0.6) < 1e-6);
    } finally {
      await reader.close();
    }
  });

  test("the writer lock is exclusive until released", async (store) => {
    const lock = await store.lock();
    await rejects(
      store.lock(),
      (error: unknown) => error instanceof WayfinderError && error.code === "busy",
    );
    await lock.release();
    const again = await store.lock();
    await again.release();
  });

  test("a reader keeps seeing the generation it opened; a new one sees the next", async (store) => {
    const first = await publish(store, [AUTH(), GUIDE()]);
    const old = (await store.open())!;
    try {
      const second = await publish(store, [DB()], ["src/auth.ts"]);
      ok(first !== second);
      equal(old.generation, first);
      equal(old.chunkCount, 3);
      const logout = AUTH().chunks[1]!;
      deepEqual(await old.chunk(logout.id), logout, "the old generation still reads whole");
      equal((await old.lexical("logout", { limit: 3 }))[0]!.chunk.id, logout.id);
      const fresh = (await store.open())!;
      try {
        equal(fresh.generation, second);
        equal(fresh.chunkCount, 2);
        equal(await fresh.chunk(logout.id), null);
      } finally {
        await fresh.close();
      }
    } finally {
      await old.close();
    }
  });
}
