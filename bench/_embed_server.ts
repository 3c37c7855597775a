/**
 * A loopback embedding server for benches, in its own process so that a
 * measured wayfinder process pays only its own costs: Ollama's /api/embed,
 * answering with hashed vectors (`FakeEmbedder`) of `dimensions` floats.
 * Prints its URL, then serves until killed.
 *
 *   deno run -A bench/_embed_server.ts [dimensions]
 */
import { FakeEmbedder } from "../src/embed/mod.ts";

const embedder = new FakeEmbedder({ dimensions: Number(Deno.args[0] ?? 384) });
const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (request) => {
  if (new URL(request.url).pathname !== "/api/embed") {
    return new Response("not found", { status: 404 });
  }
  const body = await request.json();
  const vectors = await embedder.embedDocuments(body.input);
  return Response.json({ model: body.model, embeddings: vectors.map((v) => [...v]) });
});
console.log(`http://127.0.0.1:${server.addr.port}`);
