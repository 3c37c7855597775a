import assert from "node:assert/strict";
import { createCodeChunker } from "../chunk/mod.ts";
import { FakeEmbedder } from "../embed/mod.ts";
import { chunkSource } from "./chunk_source.ts";
import { fromText } from "../testdata/source_files.ts";

const CONCEPT = fromText(
  "guidance/uploads.md",
  `---
title: Interrupted uploads
status: stable
---

# Uploads

## Required operation

Continue from the last server-confirmed byte offset.

## Prohibited shortcut

Never mark an upload complete before verifying its checksum.

[^1]: Upload runbook.
`,
);

/** The concept's passages as `chunkSource` cuts them in knowledge mode, before fitting. */
async function passages(maxTokens: number, maxChunkChars?: number) {
  const fitted = await chunkSource(CONCEPT, {
    chunker: await createCodeChunker(),
    embedder: new FakeEmbedder({ maxTokens }),
    knowledge: true,
    maxChunkChars,
  });
  return fitted.map((f) => f.chunk);
}

Deno.test("a short concept that fits one input is one passage, from its first block's heading to its last block", async () => {
  const [whole, ...rest] = await passages(512);
  assert.equal(rest.length, 0);
  assert.equal(whole.type, "concept");
  assert.match(
    whole.content,
    /^## Required operation\n\nContinue from[\s\S]*## Prohibited shortcut[\s\S]*checksum\.$/,
  );
  assert.equal(CONCEPT.content.slice(whole.startOffset, whole.endOffset), whole.content);
  assert.deepEqual(whole.metadata.headingPath, ["Uploads"], "the headings both blocks share");
  assert.equal((whole.metadata.concept as { title: string }).title, "Interrupted uploads");
});

Deno.test("a concept over one input or over the chunk budget keeps its blocks", async () => {
  for (const cut of [await passages(20), await passages(512, 60)]) {
    assert.deepEqual(cut.map((p) => p.type), ["paragraph", "paragraph"]);
    assert.deepEqual(cut[1].metadata.headingPath, ["Uploads", "Prohibited shortcut"]);
  }
});

Deno.test("a one-block concept stays that block", async () => {
  const file = fromText("note.md", "---\ntitle: Note\n---\n\nOne paragraph.\n");
  const fitted = await chunkSource(file, {
    chunker: await createCodeChunker(),
    embedder: new FakeEmbedder(),
    knowledge: true,
  });
  assert.deepEqual(fitted.map((f) => f.chunk.type), ["paragraph"]);
});
