/**
 * Choosing where the index lives, as a user does: `--store URL`,
 * `WAYFINDER_STORE_URL` or `store.url` in wayfinder.json, for `index`,
 * `search`, `status` and `compare-embeddings`, against an Orama file and a
 * real PostgreSQL server (skipped with a line saying why when none can be
 * installed).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { copyTree, REPO, tinyModel, wayfinder } from "./_run.ts";
import { dataEnv, SERVICES } from "./_env.ts";
import { postgresUnavailable, startPostgres } from "./_postgres_server.ts";
import { callTool, mcpClient } from "./_mcp_client.ts";

const MODEL = ["--model", tinyModel()];
const QUERY = "encrypt sensitive data";

interface Hit {
  chunk: { sourcePath: string; lineStart: number };
}

async function search(args: string[], env: Record<string, string> = {}) {
  const run = await wayfinder(["search", ...args, "--output", "json", ...MODEL], env);
  assert.equal(run.code, 0, run.stderr);
  return (JSON.parse(run.stdout).matches as Hit[]).map((h) =>
    `${h.chunk.sourcePath}:${h.chunk.lineStart}`
  );
}

async function indexJson(args: string[], env: Record<string, string> = {}) {
  const run = await wayfinder(["index", ...args, "--output", "json", ...MODEL], env);
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout);
}

Deno.test("--store orama:FILE: index publishes there, and search reads it with no local index", async () => {
  const tree = await copyTree(SERVICES);
  const { WAYFINDER_DATA_DIR: data } = await dataEnv();
  const file = join(await Deno.makeTempDir(), "services.orama.json");
  const store = ["--store", `orama:${file}`];
  const summary = await indexJson([tree, "--data-dir", data, ...store]);
  assert.equal(summary.store.location, file);
  assert.equal(summary.store.changedFiles, summary.files.seen);
  const local = await search([tree, QUERY, "--data-dir", data, "--limit", "3"]);

  // Another machine: no working copy, only the store.
  const { WAYFINDER_DATA_DIR: elsewhere } = await dataEnv();
  const remote = await search([tree, QUERY, "--data-dir", elsewhere, "--limit", "3", ...store]);
  assert.deepEqual(remote, local, "exact dense search ranks alike in both");
  const status = await wayfinder(["status", tree, "--data-dir", elsewhere, ...store]);
  assert.equal(status.code, 0, status.stderr);
  assert.match(status.stdout, /^ready /);
  assert.match(status.stdout, /store +.*services\.orama\.json/);

  // Nothing changed: the store already holds it.
  const again = await indexJson([tree, "--data-dir", data, ...store]);
  assert.equal(again.store.changedFiles, 0);
  await Deno.writeTextFile(
    join(tree, "added.dart"),
    "void rotateKeys() {\n  print('rotate');\n}\n",
  );
  const edited = await indexJson([tree, "--data-dir", data, ...store]);
  assert.equal(edited.store.changedFiles, 1);
  const found = await search([tree, "rotateKeys", "--mode", "lexical", ...store], {
    WAYFINDER_DATA_DIR: elsewhere,
  });
  assert.equal(found[0], "added.dart:1");
});

Deno.test("the store comes from WAYFINDER_STORE_URL or wayfinder.json, a relative file resolved where it is written", async () => {
  const project = await Deno.makeTempDir();
  const tree = join(project, "services");
  await Deno.rename(await copyTree(SERVICES), tree);
  await Deno.writeTextFile(
    join(project, "wayfinder.json"),
    JSON.stringify({ store: { url: "orama:stores/services.orama.json" } }),
  );
  const env = await dataEnv();
  await Deno.mkdir(join(project, "stores"));
  const written = join(project, "stores", "services.orama.json");
  assert.equal((await indexJson([tree], env)).store.location, written);
  await Deno.stat(written);

  const viaEnv = join(await Deno.makeTempDir(), "env.orama.json");
  const byEnv = await indexJson([SERVICES], { ...env, WAYFINDER_STORE_URL: `orama:${viaEnv}` });
  assert.equal(byEnv.store.location, viaEnv);
});

Deno.test("a store URL wayfinder cannot use, or a search only the local index can answer, is one line and exit 2", async () => {
  const env = await dataEnv();
  const bad = await wayfinder(["search", SERVICES, "q", "--store", "http://example.com/x"], env);
  assert.equal(bad.code, 2);
  assert.match(
    bad.stderr,
    /^wayfinder: Invalid value "http:\/\/example\.com\/x" for --store: .*\n$/,
  );

  const tree = await copyTree(SERVICES);
  const store = ["--store", `orama:${join(await Deno.makeTempDir(), "x.orama.json")}`];
  await indexJson([tree, ...store], env);
  const expand = await wayfinder(["search", tree, QUERY, "--expand", ...MODEL, ...store], env);
  assert.equal(expand.code, 2);
  assert.match(expand.stderr, /^wayfinder: Cannot search .* with expansion .*local index.*\n$/);

  const never = await wayfinder([
    "search",
    SERVICES,
    QUERY,
    ...MODEL,
    "--store",
    "orama:/nonexistent/none.json",
  ], env);
  assert.equal(never.code, 2);
  assert.match(never.stderr, /^wayfinder: No index for .*none\.json.*\n$/);
});

Deno.test({
  name: "the MCP server answers search and get_chunk from the store",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const tree = await copyTree(SERVICES);
    const file = join(await Deno.makeTempDir(), "mcp.orama.json");
    const env = await dataEnv();
    await indexJson([tree, "--store", `orama:${file}`], env);
    // A machine that never indexed: a data root of its own.
    const client = await mcpClient([tree], {
      ...(await dataEnv()),
      WAYFINDER_EMBEDDING_MODEL: tinyModel(),
      WAYFINDER_STORE_URL: `orama:${file}`,
    });
    try {
      const found = await callTool(client, "search", { query: QUERY, limit: 3 });
      assert.ok(!found.isError, found.content[0]?.text);
      const matches = found.structuredContent!.matches as { chunk: { id: string } }[];
      assert.equal(matches.length, 3);
      const chunk = await callTool(client, "get_chunk", { id: matches[0]!.chunk.id });
      assert.ok(!chunk.isError, chunk.content[0]?.text);
      const status = await callTool(client, "status", {});
      assert.equal(status.structuredContent?.state, "ready");
    } finally {
      await client.close();
    }
  },
});

Deno.test("--store FOLDER is the local index folder", async () => {
  const tree = await copyTree(SERVICES);
  const folder = join(await Deno.makeTempDir(), "idx");
  const env = await dataEnv();
  const summary = await indexJson([tree, "--store", folder], env);
  assert.equal(summary.index, folder);
  assert.equal(summary.store, undefined);
  const clash = await wayfinder(
    ["status", tree, "--store", folder, "--index-dir", "/tmp/other"],
    env,
  );
  assert.equal(clash.code, 2);
  assert.match(clash.stderr, /^wayfinder: .*differ.*\n$/);
});

const unavailable = await postgresUnavailable();
if (unavailable) console.error(`store_url_test: PostgreSQL tests skipped: ${unavailable}`);
const server = unavailable ? null : await startPostgres();
addEventListener("unload", () => server?.stopNow());

Deno.test({
  name:
    "--store postgres://: a second clone embeds nothing, another machine searches, a lost server is exit 2",
  ignore: server === null,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    // The server trusts loopback: the password is never checked, only never shown.
    const url = `${server!.url.replace("://wayfinder@", "://wayfinder:Sw0rdfish-9@")}#services`;
    assert.ok(url.includes("Sw0rdfish-9"));
    const store = ["--store", url];
    const first = await copyTree(SERVICES);
    const { WAYFINDER_DATA_DIR: data } = await dataEnv();
    const built = await indexJson([first, "--data-dir", data, ...store]);
    assert.ok(built.embeddedChunks > 0);
    assert.equal(built.store.changedFiles, built.files.seen);
    const local = await search([first, QUERY, "--data-dir", data, "--limit", "5"]);

    // A second clone elsewhere, on a machine of its own: every vector comes from the store.
    const second = await copyTree(SERVICES);
    const { WAYFINDER_DATA_DIR: other } = await dataEnv();
    const clone = await indexJson([second, "--data-dir", other, ...store]);
    assert.equal(clone.embeddedChunks, 0);
    assert.equal(clone.sharedChunks, built.embeddedChunks);
    assert.equal(clone.store.changedFiles, 0, "the store already holds the same tree");

    for (const mode of ["dense", "lexical", "hybrid"]) {
      const remote = await search([first, QUERY, "--data-dir", other, "--mode", mode, ...store]);
      assert.ok(remote.length > 0, mode);
    }
    const dense = await search([first, QUERY, "--data-dir", other, "--limit", "5", ...store]);
    assert.deepEqual(dense, local);
    const status = await wayfinder([
      "status",
      first,
      "--data-dir",
      data,
      "--output",
      "json",
      ...store,
    ]);
    assert.equal(status.code, 0, status.stderr);
    const report = JSON.parse(status.stdout);
    assert.equal(report.store.inStep, true);
    assert.ok(!status.stdout.includes("Sw0rdfish"), status.stdout);
    assert.ok(!JSON.stringify(clone).includes("Sw0rdfish"));

    await server!.stop("immediate");
    try {
      const lost = await wayfinder([
        "search",
        first,
        QUERY,
        ...MODEL,
        "--data-dir",
        other,
        ...store,
      ]);
      assert.equal(lost.code, 2);
      assert.match(lost.stderr, /^wayfinder: .*\n$/);
    } finally {
      await server!.start();
    }
  },
});

Deno.test({
  name: "compare-embeddings --store postgres:// scores what the local index scores",
  ignore: server === null,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const bench = join(REPO, "fixtures", "benchmark");
    const args = [
      "compare-embeddings",
      "--corpus",
      join(bench, "repos", "mini"),
      "--queries",
      join(bench, "annotations", "mini.json"),
      "--embedders",
      "bm25,dense,hybrid",
      "--output",
      "json",
      ...MODEL,
    ];
    const scores = async (extra: string[]) => {
      const run = await wayfinder([...args, ...extra], await dataEnv());
      assert.equal(run.code, 0, run.stderr);
      return JSON.parse(run.stdout);
    };
    const local = await scores([]);
    const remote = await scores(["--store", `${server!.url}#mini`]);
    assert.equal(remote.runs.length, 3);
    for (const [i, run] of local.runs.entries()) {
      for (const metric of ["ndcg", "recall"]) {
        const ours = run.metrics[metric];
        const theirs = remote.runs[i].metrics[metric];
        assert.ok(Math.abs(ours - theirs) <= 0.01, `${run.name} ${metric}: ${ours} vs ${theirs}`);
      }
    }
  },
});
