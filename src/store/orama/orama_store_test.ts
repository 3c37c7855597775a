import assert from "node:assert/strict";
import { join } from "node:path";
import { restore } from "@orama/plugin-data-persistence";
import { search } from "@orama/orama";
import { WayfinderError } from "../../error.ts";
import type { Chunk } from "../../types.ts";
import { contentHasher, embeddingInput } from "../../pipeline/mod.ts";
import { testIdentity } from "../testdata/synthetic.ts";
import type { FileChange, Publication } from "../store.ts";
import { ORAMA_FORMAT, OramaStore } from "./orama_store.ts";

function chunk(path: string, line: number, content: string, extra: Partial<Chunk> = {}): Chunk {
  return {
    id: `${path}#${line}`,
    sourcePath: path,
    lineStart: line,
    lineEnd: line,
    startOffset: 0,
    endOffset: content.length,
    type: "function",
    language: path.endsWith(".md") ? "markdown" : "typescript",
    content,
    metadata: {},
    ...extra,
  };
}

function file(path: string, chunks: Chunk[], vectors: (number[] | null)[]): FileChange {
  return {
    path,
    record: { hash: `h-${path}`, bytes: 10, chunkIds: chunks.map((c) => c.id) },
    chunks,
    vectors: vectors.map((v) => v && new Float32Array(v)),
  };
}

const MANIFEST: Publication["manifest"] = {
  root: "/corpus",
  identity: testIdentity(2),
  fingerprint: "fp",
};

const AUTH = file("src/auth/token.ts", [
  chunk("src/auth/token.ts", 1, "export function refreshAuthToken() { return fetchToken(); }", {
    symbol: "refreshAuthToken",
  }),
  chunk("src/auth/token.ts", 5, "class TokenCache { tokens = new Map(); }", {
    type: "class",
    symbol: "TokenCache",
  }),
], [[1, 0], [0.8, 0.6]]);
const HASH = file("src/authz/hash.ts", [
  chunk(
    "src/authz/hash.ts",
    1,
    "export function hashPassword(password) { return bcrypt(password); }",
    {
      symbol: "hashPassword",
    },
  ),
], [[0, 1]]);
const DOCS = file("docs/auth.md", [
  chunk("docs/auth.md", 1, "Refresh the token before it expires.", { type: "paragraph" }),
], [null]);

async function published(...changed: FileChange[]): Promise<{ store: OramaStore; dir: string }> {
  const dir = await Deno.makeTempDir();
  const hash = await contentHasher();
  const store = new OramaStore(`orama:${join(dir, "index.orama.json")}`, {
    inputHash: (chunk) => hash(embeddingInput(chunk)),
  });
  await store.publish({ manifest: MANIFEST, removed: [], changed, fresh: true });
  return { store, dir };
}

Deno.test("an Orama store searches back what it published, densely, lexically and fused", async () => {
  const { store, dir } = await published(AUTH, HASH, DOCS);
  try {
    const reader = (await store.open())!;
    assert.equal(reader.chunkCount, 4);
    assert.deepEqual(reader.manifest.pending, [[3, 4]]);
    assert.deepEqual(Object.keys(reader.manifest.files).sort(), [
      "docs/auth.md",
      "src/auth/token.ts",
      "src/authz/hash.ts",
    ]);

    const dense = await reader.dense(new Float32Array([0, 2]), { limit: 10 });
    // The pending paragraph has no vector and is never a dense hit.
    assert.deepEqual(dense.map((h) => h.chunk.id), [
      "src/authz/hash.ts#1",
      "src/auth/token.ts#5",
      "src/auth/token.ts#1",
    ]);
    assert.ok(Math.abs(dense[0]!.score - 1) < 1e-6);
    assert.ok(Math.abs(dense[1]!.scores.dense! - 0.6) < 1e-6);

    const lexical = await reader.lexical("refresh auth token", { limit: 10 });
    assert.equal(lexical[0]!.chunk.id, "src/auth/token.ts#1");
    assert.ok(lexical.some((h) => h.chunk.id === "docs/auth.md#1"));
    assert.ok(!lexical.some((h) => h.chunk.id === "src/authz/hash.ts#1"));
    assert.deepEqual(await reader.lexical("the of", { limit: 10 }), []);
    // Whole words: `token` does not match `tokenizer`-like longer words, `hash` finds `hashPassword`.
    assert.deepEqual((await reader.lexical("hash", { limit: 10 })).map((h) => h.chunk.id), [
      "src/authz/hash.ts#1",
    ]);
    assert.deepEqual(await reader.lexical("bcry", { limit: 10 }), []);

    const hybrid = await reader.hybrid("refresh token", new Float32Array([1, 0]), { limit: 2 });
    assert.equal(hybrid[0]!.chunk.id, "src/auth/token.ts#1");
    assert.ok(Math.abs(hybrid[0]!.score - 2 / 61) < 1e-9);
    assert.deepEqual(Object.keys(hybrid[0]!.scores).sort(), ["dense", "fused", "lexical"]);

    const got = (await reader.chunk("src/auth/token.ts#1"))!;
    assert.deepEqual(got, AUTH.chunks[0]);
    assert.equal(await reader.chunk("nope"), null);
    assert.equal(await reader.chunk("wayfinder:manifest"), null);
    await reader.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an Orama store filters by type, language and path prefix in every mode", async () => {
  const { store, dir } = await published(AUTH, HASH, DOCS);
  try {
    const reader = (await store.open())!;
    const ids = (hits: { chunk: Chunk }[]) => hits.map((h) => h.chunk.id).sort();
    const vector = new Float32Array([1, 1]);
    const byPath = { limit: 10, filter: { pathPrefixes: ["./src/auth/"] } };
    // `src/auth` keeps `src/auth/token.ts`, not `src/authz/hash.ts`.
    assert.deepEqual(ids(await reader.dense(vector, byPath)), [
      "src/auth/token.ts#1",
      "src/auth/token.ts#5",
    ]);
    assert.deepEqual(ids(await reader.lexical("password auth", byPath)), [
      "src/auth/token.ts#1",
      "src/auth/token.ts#5",
    ]);
    const byType = { limit: 10, filter: { types: ["class"] } };
    assert.deepEqual(ids(await reader.hybrid("token", vector, byType)), ["src/auth/token.ts#5"]);
    const byLanguage = { limit: 10, filter: { languages: ["markdown"] } };
    assert.deepEqual(ids(await reader.lexical("token", byLanguage)), ["docs/auth.md#1"]);
    assert.deepEqual(await reader.dense(vector, byLanguage), []);
    const root = { limit: 10, filter: { pathPrefixes: ["."], types: [] } };
    assert.equal((await reader.dense(vector, root)).length, 3);
    await assert.rejects(
      reader.dense(new Float32Array(3), { limit: 1 }),
      (e) => e instanceof WayfinderError && e.code === "stale_index",
    );
    await reader.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an Orama publish carries unchanged files over; open readers keep their generation", async () => {
  const { store, dir } = await published(AUTH, HASH);
  try {
    const before = (await store.open())!;
    const changedHash = file("src/authz/hash.ts", [
      chunk("src/authz/hash.ts", 2, "export function verifyPassword() {}", {
        symbol: "verifyPassword",
      }),
    ], [[0.6, 0.8]]);
    const generation = await store.publish({
      manifest: MANIFEST,
      removed: ["src/auth/token.ts"],
      changed: [changedHash, DOCS],
    });
    const after = (await store.open())!;
    assert.equal(after.generation, generation);
    assert.notEqual(before.generation, generation);
    assert.deepEqual(Object.keys(after.manifest.files).sort(), [
      "docs/auth.md",
      "src/authz/hash.ts",
    ]);
    assert.equal(await after.chunk("src/auth/token.ts#1"), null);
    assert.equal((await after.chunk("src/authz/hash.ts#2"))!.symbol, "verifyPassword");
    // The reader opened before still answers from its own generation.
    assert.equal((await before.chunk("src/auth/token.ts#1"))!.symbol, "refreshAuthToken");
    assert.equal(before.chunkCount, 3);

    // A publish from the live one carries the unchanged file and its vector.
    await store.publish({ manifest: MANIFEST, removed: ["docs/auth.md"], changed: [] });
    const last = (await store.open())!;
    assert.deepEqual(Object.keys(last.manifest.files), ["src/authz/hash.ts"]);
    assert.equal(last.manifest.pending, undefined);
    const hash = await contentHasher();
    const key = hash(embeddingInput(changedHash.chunks[0]!));
    const vectors = await last.vectorsByInput([key, "unknown"]);
    assert.deepEqual([...vectors.keys()], [key]);
    assert.deepEqual(vectors.get(key), new Float32Array([0.6, 0.8]));
    assert.deepEqual(await store.status(), {
      generation: last.generation,
      chunkCount: 1,
      pending: [],
      bytes: (await Deno.stat(store.location)).size,
    });
    for (const reader of [before, after, last]) await reader.close();
    await assert.rejects(last.chunk("src/authz/hash.ts#2"));
    // No temporary file is left beside the database.
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["index.orama.json"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an Orama store: absent is null, damaged is stale, and two writers cannot interleave", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const store = new OramaStore(join(dir, "db.json"));
    assert.equal(await store.open(), null);
    assert.equal(await store.manifest(), null);
    assert.deepEqual(await store.status(), { generation: null, chunkCount: 0, pending: [] });

    const lock = await store.lock();
    await assert.rejects(
      new OramaStore(join(dir, "db.json")).lock(),
      (e) => e instanceof WayfinderError && e.code === "busy",
    );
    await lock.release();
    await (await store.lock()).release();

    await Deno.writeTextFile(join(dir, "db.json"), '{"not": "orama"');
    await assert.rejects(
      store.open(),
      (e) =>
        e instanceof WayfinderError && e.code === "stale_index" && /not an Orama/.test(e.message),
    );
    await Deno.writeTextFile(join(dir, "db.json"), "{}");
    await assert.rejects(
      store.open(),
      (e) => e instanceof WayfinderError && e.code === "stale_index",
    );

    await store.publish({ manifest: MANIFEST, removed: [], changed: [HASH], fresh: true });
    assert.equal((await store.open())!.chunkCount, 1);
    const saved = await Deno.readTextFile(store.location);
    assert.equal(saved.split(`"format":${ORAMA_FORMAT},`).length, 2);
    await Deno.writeTextFile(
      store.location,
      saved.replace(`"format":${ORAMA_FORMAT},`, '"format":99,'),
    );
    await assert.rejects(
      store.open(),
      (e) => e instanceof WayfinderError && e.code === "stale_index" && /format 99/.test(e.message),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a plain Orama program restores the file with the persistence plugin and searches it", async () => {
  const { store, dir } = await published(AUTH, HASH, DOCS);
  try {
    const db = await restore("json", await Deno.readTextFile(store.location));
    // Orama's default tokenizer matches the start of the stored (marked) words.
    const text = await search(db, { term: "password" });
    assert.deepEqual(text.hits.map((h) => h.id), ["src/authz/hash.ts#1"]);
    const near = await search(db, {
      mode: "vector",
      vector: { value: [0.1, 1], property: "embedding" },
      similarity: 0.9,
    });
    assert.deepEqual(near.hits.map((h) => h.document.sourcePath), ["src/authz/hash.ts"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an Orama store stores the input hashes a publication gives, else none", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const store = new OramaStore(join(dir, "db.json"));
    const given = { ...AUTH, inputHashes: ["input-1", "input-5"] };
    await store.publish({ manifest: MANIFEST, removed: [], changed: [HASH, given], fresh: true });
    const reader = (await store.open())!;
    const hash = await contentHasher();
    const key = hash(embeddingInput(HASH.chunks[0]!));
    const found = await reader.vectorsByInput([key, "input-5"]);
    assert.deepEqual([...found.keys()], ["input-5"]);
    assert.deepEqual(found.get("input-5"), new Float32Array([0.8, 0.6]));
    await reader.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
