/**
 * What the MCP server adds to a search: a warm server's `search` tool
 * called through the SDK's stdio client, against the same search in
 * process (query embedding plus `searchIndex`), on the peer corpus with a
 * real model. Each call asks a query not asked before, so neither side
 * answers from a cache.
 *
 *   WAYFINDER_BENCH_MODEL=.cache/models/minilm-f16.gguf deno bench -A bench/mcp_bench.ts
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { openCorpus } from "../src/mod.ts";
import { liveIndex } from "../src/corpus/mod.ts";
import { LlamaEmbedder } from "../src/embed/mod.ts";
import { INPUT_FORMAT } from "../src/pipeline/mod.ts";
import { searchIndex } from "../src/search/mod.ts";
import { benchWithFixture } from "./_fixture.ts";
import { requireModel } from "./_model.ts";

const CORPUS = new URL("../fixtures/corpus", import.meta.url).pathname;
const MAIN = new URL("../main.ts", import.meta.url).pathname;
const model = requireModel();
const dataDir = await Deno.makeTempDir({ prefix: "wayfinder-mcp-bench-" });
const corpus = await openCorpus(CORPUS, { dataDir, embedder: { model, threads: 1 } });
await corpus.index();
const index = await liveIndex(corpus);
await corpus.close();

const client = new Client({ name: "wayfinder-bench", version: "1.0.0" });
await client.connect(
  new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", "-A", "--quiet", MAIN, "mcp", CORPUS, "--model", model, "--threads", "1"],
    env: { WAYFINDER_DATA_DIR: dataDir, PATH: Deno.env.get("PATH") ?? "" },
    stderr: "ignore",
  }),
);

const topics = ["encrypt sensitive data", "refresh auth token", "cancel an order", "list users"];
let n = 0;
const nextQuery = () => `${topics[n % topics.length]} ${n++}`;

// Each iteration loads its own model, warmed by one query, and frees it (see _fixture.ts):
// a model still open when the bench ends crashed Deno ("Check failed: node->IsInUse()").
benchWithFixture("in process: embed query + searchIndex", {
  group: "search",
  baseline: true,
  n: 10,
  warmup: 1,
}, {
  open: async () => {
    const embedder = await LlamaEmbedder.create({
      modelPath: model,
      threads: 1,
      inputFormat: INPUT_FORMAT,
    });
    await embedder.embedQuery(nextQuery());
    return embedder;
  },
  run: async (embedder) => {
    const query = nextQuery();
    searchIndex(index, await embedder.embedQuery(query), query, { limit: 10 });
  },
  close: (embedder) => embedder.close(),
});

Deno.bench("mcp: search tool over stdio", { group: "search" }, async () => {
  await client.callTool({ name: "search", arguments: { query: nextQuery(), limit: 10 } });
});

globalThis.addEventListener("unload", () => {
  client.close().catch(() => {});
});
