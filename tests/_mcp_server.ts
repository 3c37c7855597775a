/**
 * `wayfinder mcp` built from the library with a short `index` answer wait,
 * for tests of index calls that outlast it: `_mcp_server.ts <ms> <root…>`.
 * The model and data root come from the environment, as for the CLI; the
 * close sequence is the command's.
 */
import process from "node:process";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { openConfiguredCorpus } from "../src/cli/mod.ts";
import { createServer, Roots } from "../src/mcp/mod.ts";

const [answerMs, ...roots] = Deno.args;
const embedder = { model: Deno.env.get("WAYFINDER_EMBEDDING_MODEL"), threads: 1 };
const corpora = await Promise.all(roots.map((root) => openConfiguredCorpus(root, { embedder })));
const server = createServer(new Roots(corpora), {
  version: "test",
  dataRootAt: () => Deno.env.get("WAYFINDER_DATA_DIR")!,
  indexAnswerMs: Number(answerMs),
});
const transport = new StdioServerTransport();
const closed = new Promise<void>((done) => (transport.onclose = done));
await server.connect(transport);
process.stdin.on("end", () => void transport.close());
await closed;
await server.settled();
for (const corpus of corpora) await corpus.close();
