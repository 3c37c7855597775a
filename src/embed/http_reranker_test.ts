import assert from "node:assert/strict";
import { WayfinderError } from "../error.ts";
import { HttpReranker } from "./http_reranker.ts";
import { serve } from "./testdata/serve_json.ts";

/** TEI's /rerank: scores by the number of query words a text holds, returned best first. */
function teiRerank(body: Record<string, unknown>): Response {
  const words = String(body.query).split(" ");
  const texts = body.texts as string[];
  const scored = texts.map((text, index) => ({
    index,
    score: words.filter((w) => text.includes(w)).length / words.length,
  }));
  return Response.json(scored.sort((a, b) => b.score - a.score));
}

Deno.test("HttpReranker.rank() speaks TEI /rerank and returns scores in input order", async () => {
  await using server = serve(teiRerank);
  const reranker = HttpReranker.create({ url: server.url });
  const scores = await reranker.rank("save index", ["parse flags", "save the index", "index"]);
  assert.deepEqual(scores, [0, 1, 0.5]);
  assert.equal(server.paths[0], "/rerank");
  assert.deepEqual(server.bodies[0], {
    query: "save index",
    texts: ["parse flags", "save the index", "index"],
    truncate: true,
  });
});

Deno.test("HttpReranker.rank() splits long candidate lists into batches", async () => {
  await using server = serve(teiRerank);
  const reranker = HttpReranker.create({ url: `${server.url}/rerank`, batchSize: 2 });
  const scores = await reranker.rank("a", ["a", "b", "a", "b", "a"]);
  assert.deepEqual(scores, [1, 0, 1, 0, 1]);
  assert.deepEqual(server.bodies.map((b) => (b.texts as string[]).length), [2, 2, 1]);
});

Deno.test("HttpReranker retries a 503, then reports a malformed response in one line", async () => {
  await using server = serve((_body, _request, count) =>
    count === 1 ? new Response("loading", { status: 503 }) : Response.json([{ index: 0 }])
  );
  const reranker = HttpReranker.create({ url: server.url, retryDelayMs: 1 });
  await assert.rejects(reranker.rank("q", ["x"]), (error: unknown) => {
    assert.ok(error instanceof WayfinderError);
    assert.match(error.message, /^Cannot rerank with .*\/rerank: malformed response: bad score/);
    return true;
  });
  assert.equal(server.bodies.length, 2);
});

Deno.test("HttpReranker times out a slow server and names the attempts", async () => {
  await using server = serve(async () => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    return Response.json([]);
  });
  const reranker = HttpReranker.create({
    url: server.url,
    timeoutMs: 50,
    retries: 1,
    retryDelayMs: 1,
  });
  await assert.rejects(reranker.rank("q", ["x"]), /timed out after 50 ms \(2 attempts\)/);
});

Deno.test("HttpReranker.create() refuses a URL that is not one", () => {
  assert.throws(
    () => HttpReranker.create({ url: "not a url" }),
    /Invalid reranker URL 'not a url'/,
  );
});
