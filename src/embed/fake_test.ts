import assert from "node:assert/strict";
import { FakeEmbedder } from "./fake.ts";

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
  return dot;
}

Deno.test("FakeEmbedder.embedDocuments() returns deterministic unit vectors", async () => {
  const embedder = new FakeEmbedder();
  const [a, b, empty] = await embedder.embedDocuments(["Refresh the auth token", "x", ""]);
  const [again] = await new FakeEmbedder().embedDocuments(["Refresh the auth token"]);
  assert.equal(a.length, 64);
  assert.deepEqual(a, again);
  assert.notDeepEqual(a, b);
  for (const vector of [a, b, empty]) assert.ok(Math.abs(Math.hypot(...vector) - 1) < 1e-6);
  assert.equal(embedder.identity.provider, "fake");
  assert.equal(embedder.identity.dimensions, 64);
});

Deno.test("FakeEmbedder ranks similar texts above unrelated ones", async () => {
  const embedder = new FakeEmbedder();
  const [query, near, far] = await embedder.embedDocuments([
    "refresh the authentication token",
    "AuthService.refreshToken renews the authentication token before expiry",
    "Markdown tables render with pipes and dashes",
  ]);
  assert.ok(
    cosine(query, near) > cosine(query, far) + 0.2,
    `${cosine(query, near)} vs ${cosine(query, far)}`,
  );
});

Deno.test("FakeEmbedder.embedQuery() applies the query prefix", async () => {
  const embedder = new FakeEmbedder({ queryPrefix: "search: ", dimensions: 16 });
  const [withPrefix, without] = await embedder.embedDocuments(["search: cache", "cache"]);
  const query = await embedder.embedQuery("cache");
  assert.equal(query.length, 16);
  assert.deepEqual(query, withPrefix);
  assert.notDeepEqual(query, without);
  assert.equal(await embedder.countTokens("cache", "query"), 3);
  assert.equal(await embedder.countTokens("cache", "document"), 1);
});
