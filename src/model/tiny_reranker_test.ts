import assert from "node:assert/strict";
import { join } from "node:path";
import { readManifest } from "./manifest.ts";
import { writeTinyReranker } from "./tiny_reranker.ts";

Deno.test("writeTinyReranker() writes the same bytes every time, with a reranker manifest", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const a = await writeTinyReranker(join(dir, "a.gguf"));
    const b = await writeTinyReranker(join(dir, "b.gguf"));
    assert.equal(a.sha256, b.sha256);
    const manifest = await readManifest(join(dir, "a.gguf"));
    assert.equal(manifest?.kind, "reranker");
    assert.equal(manifest?.pooling, "rank");
    assert.equal(manifest?.sha256, a.sha256);
    assert.equal((await Array.fromAsync(Deno.readDir(dir))).length, 4, "no temp files left");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
