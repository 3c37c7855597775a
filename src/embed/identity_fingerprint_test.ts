import assert from "node:assert/strict";
import type { ModelIdentity } from "./embedder.ts";
import { identityFingerprint } from "./identity_fingerprint.ts";

const identity: ModelIdentity = {
  name: "all-MiniLM-L6-v2",
  provider: "llama",
  sha256: "ab".repeat(32),
  dimensions: 384,
  queryPrefix: "",
  pooling: "mean",
  normalize: true,
  maxTokens: 512,
  longInput: "reject",
  inputFormat: 1,
};

Deno.test("identityFingerprint() ignores field order", () => {
  const reversed = Object.fromEntries(
    Object.entries(identity).reverse(),
  ) as unknown as ModelIdentity;
  assert.match(identityFingerprint(identity), /^[0-9a-f]{64}$/);
  assert.equal(identityFingerprint(reversed), identityFingerprint(identity));
});

Deno.test("identityFingerprint() changes with every field", () => {
  const base = identityFingerprint(identity);
  const changes: Partial<ModelIdentity>[] = [
    { name: "other" },
    { provider: "ollama" },
    { sha256: "cd".repeat(32) },
    { dimensions: 768 },
    { queryPrefix: "query: " },
    { pooling: "cls" },
    { normalize: false },
    { maxTokens: 256 },
    { longInput: "truncate" },
    { inputFormat: 2 },
  ];
  const seen = new Set([base]);
  for (const change of changes) {
    const fingerprint = identityFingerprint({ ...identity, ...change });
    assert.ok(!seen.has(fingerprint), JSON.stringify(change));
    seen.add(fingerprint);
  }
});
