/** A local server speaking Ollama's /api/embed, for tests of the HTTP embedder path. */
import { FakeEmbedder } from "../src/embed/mod.ts";

/**
 * Serves Ollama's /api/embed on a free local port, computing vectors with the
 * deterministic fake embedder; `failing(true)` makes it answer HTTP 400 (which
 * the embedder does not retry, so an update fails at once) until turned off.
 */
export function ollamaServer() {
  const embedder = new FakeEmbedder();
  let requests = 0;
  let failing = false;
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (request) => {
    requests++;
    const body = await request.json();
    if (new URL(request.url).pathname !== "/api/embed") {
      return new Response("not found", { status: 404 });
    }
    if (failing) return new Response("model is reloading", { status: 400 });
    const vectors = await embedder.embedDocuments(body.input);
    return Response.json({ model: body.model, embeddings: vectors.map((v) => [...v]) });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    server,
    requests: () => requests,
    failing: (on: boolean) => {
      failing = on;
    },
  };
}
