// Over 400 lines: what the contract suite does not cover: BM25F parity, cache, schema, faults.
import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import { postgresUnavailable, startPostgres } from "../../../tests/_postgres_server.ts";
import { WayfinderError } from "../../error.ts";
import type { Chunk } from "../../types.ts";
import { buildLexical, loadLexical } from "../lexical_index.ts";
import type { FileChange, Publication } from "../store.ts";
import { testIdentity } from "../testdata/synthetic.ts";
import { Db } from "./db.ts";
import { type CachedFileChange, openPostgresStore, type PostgresStore, redactUrl } from "./mod.ts";

const unavailable = await postgresUnavailable();
if (unavailable) {
  console.error(`postgres_store_test: skipped, no PostgreSQL server: ${unavailable}`);
}

const DIMS = 8;
const identity = testIdentity(DIMS);

/** A unit vector drawn from `seed`. */
function unit(seed: number): Float32Array {
  let x = seed * 2654435761 % 4294967296;
  const v = Float32Array.from({ length: DIMS }, () => {
    x = (x * 1664525 + 1013904223) % 4294967296;
    return x / 4294967296 - 0.5;
  });
  const norm = Math.hypot(...v);
  return v.map((value) => value / norm);
}

let serial = 0;
function chunk(path: string, content: string, extra: Partial<Chunk> = {}): Chunk {
  const n = serial++;
  return {
    id: `${path}#${n}`,
    sourcePath: path,
    lineStart: n + 1,
    lineEnd: n + 2,
    startOffset: 0,
    endOffset: content.length,
    type: "function",
    language: "typescript",
    content,
    metadata: {},
    ...extra,
  };
}

function change(path: string, chunks: Chunk[], seed = 0): CachedFileChange {
  return {
    path,
    record: { hash: `h-${path}-${seed}`, bytes: 10, chunkIds: chunks.map((c) => c.id) },
    chunks,
    vectors: chunks.map((_, i) => unit(seed * 100 + i + 1)),
    inputHashes: chunks.map((c) => `input:${c.content}`),
  };
}

function publication(changed: FileChange[], removed: string[] = [], fresh = false): Publication {
  return { manifest: { root: "/src", identity, fingerprint: "fp-8" }, changed, removed, fresh };
}

const TREE = () => [
  change("src/auth/token.ts", [
    chunk("src/auth/token.ts", "export function refreshAuthToken() { return fetchToken(); }", {
      symbol: "refreshAuthToken",
    }),
    chunk("src/auth/token.ts", "function revokeToken(token: string) { tokens.delete(token); }", {
      symbol: "revokeToken",
    }),
  ], 1),
  change("src/authz.ts", [
    chunk("src/authz.ts", "export function authorize(user, action) { return policy(user); }", {
      symbol: "authorize",
    }),
  ], 2),
  change("docs/auth.md", [
    chunk("docs/auth.md", "# Tokens\n\nRefresh the auth token before it expires.", {
      type: "heading",
      language: "markdown",
      symbol: "Tokens",
    }),
  ], 3),
];

async function withStore<T>(url: string, corpus: string, work: (s: PostgresStore) => Promise<T>) {
  const store = await openPostgresStore(url, { corpus });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

// One server for the file's tests (run in order), stopped by the last; plain tests, no steps, so
// the suite's summary line keeps its "N passed | N failed" form.
const server = unavailable ? null : await startPostgres();
const url = server?.url ?? "";
addEventListener("unload", () => server?.stopNow());

function test(name: string, fn: () => Promise<void>): void {
  Deno.test({
    name: `PostgresStore: ${name}`,
    ignore: server === null,
    sanitizeResources: false,
    sanitizeOps: false,
    fn,
  });
}

test("before the first publish there is nothing to read", async () => {
  await withStore(url, "empty", async (store) => {
    equal(await store.manifest(), null);
    equal(await store.open(), null);
    deepEqual(await store.status(), { generation: null, chunkCount: 0, pending: [] });
  });
});

test("publishes, reads back and searches dense, lexical and hybrid", async () => {
  await withStore(url, "tree", async (store) => {
    const files = TREE();
    const generation = await store.publish(publication(files));
    const reader = (await store.open())!;
    equal(reader.generation, generation);
    equal(reader.chunkCount, 4);
    const manifest = reader.manifest;
    equal(manifest.dimensions, DIMS);
    equal(manifest.fingerprint, "fp-8");
    deepEqual(Object.keys(manifest.files).sort(), [
      "docs/auth.md",
      "src/auth/token.ts",
      "src/authz.ts",
    ]);
    deepEqual(manifest.files["src/authz.ts"], files[1]!.record);
    const first = files[0]!.chunks[0]!;
    deepEqual(await reader.chunk(first.id), first);
    equal(await reader.chunk("missing"), null);

    const dense = await reader.dense(files[1]!.vectors[0]!, { limit: 2 });
    equal(dense[0]!.chunk.sourcePath, "src/authz.ts");
    ok(Math.abs(dense[0]!.score - 1) < 1e-6);
    ok(dense[0]!.score >= dense[1]!.score);

    const lexical = await reader.lexical("refresh auth token", { limit: 5 });
    equal(lexical[0]!.chunk.symbol, "refreshAuthToken");
    ok(lexical.every((h) => h.scores.lexical! > 0));

    const hybrid = await reader.hybrid("revoke token", files[0]!.vectors[1]!, { limit: 3 });
    equal(hybrid[0]!.chunk.symbol, "revokeToken");
    ok(Math.abs(hybrid[0]!.scores.fused! - 2 / 61) < 1e-12);

    const under = await reader.lexical("auth", {
      limit: 10,
      filter: { pathPrefixes: ["src/auth"] },
    });
    deepEqual([...new Set(under.map((h) => h.chunk.sourcePath))], ["src/auth/token.ts"]);
    const md = await reader.dense(files[0]!.vectors[0]!, {
      limit: 10,
      filter: { languages: ["markdown"] },
    });
    deepEqual(md.map((h) => h.chunk.sourcePath), ["docs/auth.md"]);
    const headings = await reader.hybrid("token", files[0]!.vectors[0]!, {
      limit: 10,
      filter: { types: ["heading"] },
    });
    deepEqual(headings.map((h) => h.chunk.type), ["heading"]);
    await reader.close();
    const status = await store.status();
    equal(status.generation, generation);
    equal(status.chunkCount, 4);
    deepEqual(status.pending, []);
    ok(status.bytes! > 0);
  });
});

test("BM25F matches the local index's scores on the same chunks", async () => {
  await withStore(url, "bm25", async (store) => {
    const files = TREE();
    await store.publish(publication(files));
    const chunks = files.flatMap((f) => f.chunks);
    const local = loadLexical(buildLexical(chunks));
    const reader = (await store.open())!;
    for (
      const query of ["refresh auth token", "token", "authorize user", "docs", "Tokens expires"]
    ) {
      const want = local(query, 10).map((h) => [chunks[h.index]!.id, h.score]);
      const got = (await reader.lexical(query, { limit: 10 })).map((h) => [h.chunk.id, h.score]);
      equal(got.length, want.length, query);
      got.forEach(([id, score], i) => {
        equal(id, want[i]![0], query);
        ok(Math.abs((score as number) - (want[i]![1] as number)) < 1e-9, query);
      });
    }
    await reader.close();
  });
});

test(
  "an incremental publish shares rows; a leased generation stays readable",
  async () => {
    await withStore(url, "incremental", async (store) => {
      const files = TREE();
      const first = await store.publish(publication(files));
      const old = (await store.open())!;
      const edited = change("src/auth/token.ts", [
        chunk("src/auth/token.ts", "export function rotateSigningKey() { return newKey(); }", {
          symbol: "rotateSigningKey",
        }),
      ], 9);
      const second = await store.publish(publication([edited], ["docs/auth.md"]));
      ok(Number(second) > Number(first));
      const fresh = (await store.open())!;
      equal(fresh.chunkCount, 2);
      deepEqual(Object.keys(fresh.manifest.files).sort(), ["src/auth/token.ts", "src/authz.ts"]);
      equal(
        (await fresh.lexical("rotate signing key", { limit: 1 }))[0]!.chunk.symbol,
        "rotateSigningKey",
      );
      deepEqual(await fresh.lexical("revoke", { limit: 5 }), []);
      // The old reader still sees its generation whole.
      equal(old.chunkCount, 4);
      equal((await old.lexical("revoke", { limit: 1 }))[0]!.chunk.symbol, "revokeToken");
      deepEqual(await old.lexical("rotate signing", { limit: 5 }), []);
      await old.close();
      await fresh.close();
      // With the leases gone, the next publish reclaims the rows only the old generation saw.
      await store.publish(publication([], ["src/authz.ts"]));
      const sql = new Db(url, 1);
      const [{ rows }] = await sql.unsafe(`SELECT count(*)::int AS rows FROM wayfinder.chunks c
        JOIN wayfinder.corpora k ON k.id = c.corpus WHERE k.name = 'incremental'`);
      await sql.end();
      equal(rows, 1);
      const last = (await store.open())!;
      equal(last.chunkCount, 1);
      equal((await last.dense(edited.vectors[0]!, { limit: 5 })).length, 1);
      await last.close();
      // A fresh publication starts from nothing.
      await store.publish(publication(TREE(), [], true));
      equal((await store.manifest())!.chunkCount, 4);
    });
  },
);

test("pending rows are searchable lexically, skipped densely, reported", async () => {
  await withStore(url, "pending", async (store) => {
    const files = TREE();
    files[0]!.vectors[1] = null;
    await store.publish(publication(files));
    const status = await store.status();
    deepEqual(status.pending, [[1, 2]]);
    const reader = (await store.open())!;
    deepEqual(reader.manifest.pending, [[1, 2]]);
    equal((await reader.dense(unit(1), { limit: 10 })).length, 3);
    equal((await reader.lexical("revoke", { limit: 1 }))[0]!.chunk.symbol, "revokeToken");
    await reader.close();
  });
});

test("the embedding cache is shared across corpora and machines", async () => {
  const files = TREE();
  await withStore(url, "team-a", (store) => store.publish(publication(files)));
  await withStore(url, "team-b", async (store) => {
    const hashes = files.flatMap((f) => f.inputHashes as string[]);
    const cached = await store.cachedVectors("fp-8", DIMS, [...hashes, "input:unknown"]);
    equal(cached.size, hashes.length);
    deepEqual(cached.get(hashes[0]!), files[0]!.vectors[0]);
    equal((await store.cachedVectors("another-model", DIMS, hashes)).size, 0);
    await store.publish(publication(files.slice(0, 1)));
    const reader = (await store.open())!;
    equal((await reader.vectorsByInput(hashes)).size, hashes.length);
    await reader.close();
  });
});

test("the writer lock is one per corpus", async () => {
  await withStore(url, "locked", async (store) => {
    const held = await store.lock();
    await withStore(url, "locked", async (other) => {
      await rejects(other.lock(), (e) => e instanceof WayfinderError && e.code === "busy");
      await withStore(url, "unlocked", async (s) => await (await s.lock()).release());
    });
    await held.release();
    await withStore(url, "locked", async (other) => await (await other.lock()).release());
  });
});

test("hostile paths, contents and queries are data, never SQL", async () => {
  const hostile = [
    "src/'); DROP TABLE wayfinder.chunks; --.ts",
    'src/"quoted" \\back\\slash\\.ts',
    "src/日本語/ünïcödé 🚀.ts",
    "src/$1 $$ E'\\x00'.ts",
  ];
  await withStore(url, "hostile", async (store) => {
    const changes = hostile.map((path, i) =>
      change(path, [
        chunk(path, `const q = '${path}'; -- ${"\\".repeat(i + 1)} $$ %s %% \\N`, {
          symbol: `x'); DELETE FROM wayfinder.corpora; --${i}`,
          metadata: { note: path, nested: { quote: "'", backslash: "\\" } },
        }),
      ], i + 10)
    );
    await store.publish(publication(changes));
    const reader = (await store.open())!;
    equal(reader.chunkCount, hostile.length);
    deepEqual(Object.keys(reader.manifest.files).sort(), [...hostile].sort());
    for (const c of changes) deepEqual(await reader.chunk(c.chunks[0]!.id), c.chunks[0]);
    for (const query of ["'); DROP TABLE wayfinder.postings; --", "\\'", "日本語", "$1"]) {
      await reader.lexical(query, {
        limit: 5,
        filter: { pathPrefixes: [query], types: [query] },
      });
      await reader.hybrid(query, unit(3), { limit: 5, filter: { languages: [query] } });
    }
    const prefix = await reader.lexical("const", {
      limit: 10,
      filter: { pathPrefixes: ["src/日本語"] },
    });
    deepEqual(prefix.map((h) => h.chunk.sourcePath), [hostile[2]]);
    await reader.close();
    await rejects(
      store.publish(publication([change("nul.ts", [chunk("nul.ts", "a\0b")])])),
      (e) => e instanceof WayfinderError && e.code === "input" && !e.message.includes("\n"),
    );
  });
  // Every table is still there and whole.
  await withStore(url, "tree", async (store) => equal((await store.manifest())!.chunkCount, 4));
});

test("the schema has a version table and is migrated once", async () => {
  const sql = new Db(url, 1);
  const versions = async () =>
    (await sql.unsafe("SELECT version FROM wayfinder.schema_version ORDER BY version"))
      .map((r) => r.version);
  try {
    deepEqual(await versions(), [1, 2]);
    await withStore(url, "tree", async () => {});
    deepEqual(await versions(), [1, 2]);
    // A version 1 schema (no index kinds) is brought to 2; its corpora keep their `vector` index.
    await sql.unsafe("ALTER TABLE wayfinder.corpora DROP COLUMN vector_index");
    await sql.unsafe("DELETE FROM wayfinder.schema_version WHERE version = 2");
    await withStore(url, "tree", async (store) => {
      const reader = (await store.open())!;
      const hits = await reader.dense(unit(201), { limit: 2 });
      equal(hits.length, 2);
      await reader.close();
    });
    deepEqual(await versions(), [1, 2]);
    await withStore(url, "tree", (store) => store.publish(publication(TREE(), [], true)));
    deepEqual(
      await sql.unsafe("SELECT vector_index FROM wayfinder.corpora WHERE name = 'tree'"),
      [{ vector_index: "vector" }],
    );
    await sql.unsafe("INSERT INTO wayfinder.schema_version VALUES (99)");
    await rejects(
      openPostgresStore(url, { corpus: "tree" }),
      (e) => e instanceof WayfinderError && e.code === "io" && /version 99/.test(e.message),
    );
    await sql.unsafe("DELETE FROM wayfinder.schema_version WHERE version = 99");
  } finally {
    await sql.end();
  }
  await rejects(
    openPostgresStore(url, { corpus: "x", schema: "a; drop" }),
    (e) => e instanceof WayfinderError && e.code === "usage",
  );
});

test("quantized HNSW indexes find candidates that the full vectors rank", async () => {
  // 60 chunks, so that ef_search 10 leaves most of them out.
  const many = [
    change("many.ts", Array.from({ length: 60 }, (_, i) => chunk("many.ts", `x${i}`)), 7),
  ];
  const sql = new Db(url, 1);
  const exact = many[0]!.vectors as Float32Array[];
  const cosine = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);
  const indexes = async (name: string) =>
    (await sql.unsafe(
      `SELECT i.indexdef FROM pg_indexes i JOIN wayfinder.corpora c ON i.indexname LIKE 'chunks_hnsw_' || c.id || '_%'
       WHERE c.name = $1`,
      [name],
    )).map((r) => r.indexdef as string);
  try {
    for (const type of ["halfvec", "bit"] as const) {
      const corpus = `quantized-${type}`;
      const store = await openPostgresStore(url, { corpus, efSearch: 10, hnsw: { type } });
      await store.publish(publication(many));
      const defs = await indexes(corpus);
      equal(defs.length, 1);
      ok(defs[0]!.includes(type === "bit" ? "bit_hamming_ops" : "halfvec_cosine_ops"), defs[0]);
      const reader = (await store.open())!;
      const query = unit(4242);
      const hits = await reader.dense(query, { limit: 5 });
      equal(hits.length, 5);
      // Scores are the full vectors' cosines, in order.
      for (const [i, hit] of hits.entries()) {
        const n = Number(hit.chunk.content.slice(1));
        ok(Math.abs(hit.score - cosine(exact[n]!, query)) < 1e-6, type);
        if (i > 0) ok(hits[i - 1]!.score >= hit.score, type);
      }
      // The nearest of all is found, whatever the quantization.
      const best = exact.map((v, n) => [cosine(v, query), n] as const).sort((a, b) => b[0] - a[0]);
      equal(hits[0]!.chunk.content, `x${best[0]![1]}`, type);
      // More hits than efSearch: the query sets its own ef_search (a transaction), ranked alike.
      const more = await reader.dense(query, { limit: 20 });
      equal(more.length, 20);
      ok(more.every((hit, i) => i === 0 || more[i - 1]!.score >= hit.score), type);
      equal(more[0]!.chunk.content, `x${best[0]![1]}`, type);
      await reader.close();
      await store.close();
    }
    // A corpus's index is rebuilt with other options; the options of a later publish do not change it.
    await withStore(url, "rebuilt", (store) => store.publish(publication(many)));
    ok((await indexes("rebuilt"))[0]!.includes("vector_cosine_ops"));
    const halfvec = await openPostgresStore(url, {
      corpus: "rebuilt",
      hnsw: { type: "halfvec", m: 8, efConstruction: 32 },
    });
    await halfvec.publish(publication(many));
    ok((await indexes("rebuilt"))[0]!.includes("vector_cosine_ops"));
    await halfvec.rebuildVectorIndex();
    const defs = await indexes("rebuilt");
    equal(defs.length, 1);
    ok(defs[0]!.includes("halfvec_cosine_ops") && /m='?8'?/.test(defs[0]!), defs[0]);
    const reader = (await halfvec.open())!;
    const hits = await reader.dense(exact[3]!, { limit: 1 });
    equal(hits[0]!.chunk.content, "x3");
    ok(Math.abs(hits[0]!.score - 1) < 1e-6);
    await reader.close();
    // A writer holding the lock keeps a rebuild out.
    const lock = await halfvec.lock();
    await withStore(url, "rebuilt", async (other) => {
      await rejects(
        other.rebuildVectorIndex(),
        (e) => e instanceof WayfinderError && e.code === "busy",
      );
    });
    await lock.release();
    await halfvec.close();
    await rejects(
      openPostgresStore(url, { corpus: "x", hnsw: { type: "int8" as "bit" } }),
      (e) => e instanceof WayfinderError && e.code === "usage",
    );
  } finally {
    await sql.end();
  }
});

test("credentials are never printed", async () => {
  const secret = "s3cr3t-Pa55";
  equal(
    redactUrl(`postgres://me:${secret}@db:5432/x?sslmode=require`),
    "postgres://me@db:5432/x?sslmode=require",
  );
  const closed = `postgres://wayfinder:${secret}@127.0.0.1:1/wayfinder`;
  await rejects(openPostgresStore(closed, { corpus: "x" }), (e) => {
    ok(e instanceof WayfinderError && e.code === "io", String(e));
    ok(!e.message.includes(secret) && !e.message.includes("\n"), e.message);
    return true;
  });
  await withStore(
    `postgres://wayfinder:${secret}@127.0.0.1:${server!.port}/wayfinder`,
    "tree",
    (s) => {
      ok(!s.location.includes(secret));
      return Promise.resolve();
    },
  );
});

test(
  "a role granted what docs/postgres.md lists for searching can search, not publish",
  async () => {
    const admin = new Db(url, 1);
    try {
      for (
        const statement of [
          "CREATE ROLE searcher LOGIN",
          "GRANT USAGE ON SCHEMA wayfinder TO searcher",
          "GRANT SELECT ON ALL TABLES IN SCHEMA wayfinder TO searcher",
          "GRANT INSERT, UPDATE, DELETE ON wayfinder.leases TO searcher",
          "GRANT USAGE ON ALL SEQUENCES IN SCHEMA wayfinder TO searcher",
          "GRANT UPDATE ON wayfinder.corpora TO searcher",
        ]
      ) await admin.unsafe(statement);
    } finally {
      await admin.end();
    }
    const searcher = url.replace("//wayfinder@", "//searcher@");
    await withStore(searcher, "tree", async (store) => {
      const reader = (await store.open())!;
      equal((await reader.lexical("revoke token", { limit: 1 }))[0]!.chunk.symbol, "revokeToken");
      await reader.close();
      await rejects(
        store.publish(publication(TREE())),
        (e) =>
          e instanceof WayfinderError && e.code === "io" && /permission denied/.test(e.message),
      );
    });
  },
);

test("TLS asked for in the URL is insisted on", async () => {
  // The test server speaks no TLS: a client that honours sslmode refuses to go on without it.
  await rejects(
    openPostgresStore(`${url}?sslmode=verify-full`, { corpus: "tree" }),
    (e) => e instanceof WayfinderError && e.code === "io" && /SSL/i.test(e.message),
  );
});

test(
  "a server stopped mid-publish: one-line io error, the previous generation stays",
  async () => {
    const big = Array.from({ length: 40 }, (_, f) =>
      change(
        `gen/file${f}.ts`,
        Array.from(
          { length: 500 },
          (_, i) => chunk(`gen/file${f}.ts`, `function f${f}_${i}() { return ${i}; }`),
        ),
        f + 100,
      ));
    await withStore(url, "faults", async (store) => {
      await store.publish(publication(TREE()));
      const publishing = store.publish(publication(big)).then(() => null, (e) => e);
      const watcher = new Db(url, 1);
      for (let i = 0; i < 200; i++) {
        const [row] = await watcher.unsafe(`SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE application_name = 'wayfinder' AND query LIKE 'INSERT INTO wayfinder.chunks%'`);
        if (row!.n > 0) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      await watcher.end();
      await server!.stop("immediate");
      const error = await publishing;
      ok(error instanceof WayfinderError && error.code === "io", String(error));
      ok(!error.message.includes("\n") && error.message.includes("publish"), error.message);
      // Searching while the server is down: io, one line.
      await rejects(store.open(), (e) => e instanceof WayfinderError && e.code === "io");
      await server!.start();
    });
    await withStore(url, "faults", async (store) => {
      // What the failed run embedded is cached: the next run embeds none of it again.
      const inputs = big.flatMap((c) => c.inputHashes as string[]);
      equal((await store.cachedVectors("fp-8", DIMS, inputs)).size, inputs.length);
      const reader = (await store.open())!;
      equal(reader.chunkCount, 4);
      equal((await reader.lexical("revoke token", { limit: 1 }))[0]!.chunk.symbol, "revokeToken");
      // A connection lost during search.
      await server!.stop("immediate");
      await rejects(reader.dense(unit(1), { limit: 3 }), (e) => {
        ok(e instanceof WayfinderError && e.code === "io" && e.exit === 2, String(e));
        ok(!e.message.includes("\n"), e.message);
        return true;
      });
      await server!.start();
    });
  },
);

test("the server stops", async () => {
  await server![Symbol.asyncDispose]();
});
