import assert from "node:assert/strict";
import type { Chunk } from "../../types.ts";
import type { ConceptMeta } from "./concept.ts";
import { describeConcept, describeEntry } from "./describe_concept.ts";

function passage(concept?: Partial<ConceptMeta>): Chunk {
  return {
    id: "p",
    sourcePath: "guidance/rotation.md",
    lineStart: 8,
    lineEnd: 8,
    startOffset: 0,
    endOffset: 4,
    type: "paragraph",
    language: "markdown",
    content: "text",
    metadata: concept ? { concept: { path: "guidance/rotation.md", links: [], ...concept } } : {},
  };
}

Deno.test("describeConcept() gives a concept's title, type and status, and stale since when past stale_after", () => {
  const rotation = passage({
    title: "Signing key rotation",
    type: "Guideline",
    status: "stable",
    staleAfter: "2026-01-01",
  });
  assert.equal(
    describeConcept(rotation, "2026-09-09"),
    "Signing key rotation (Guideline, stable, stale since 2026-01-01)",
  );
  assert.equal(describeConcept(rotation, "2025-12-31"), "Signing key rotation (Guideline, stable)");
  assert.equal(describeConcept(passage({ title: "Notes" })), "Notes");
  assert.equal(describeConcept(passage()), undefined, "a file that is no concept");
});

Deno.test("describeEntry() adds why a governing source or a linked concept is there", () => {
  const chunk = passage({ title: "Transport security", type: "Standard" });
  const entry = (reason: "match" | "governing" | "relationship", viaPath?: string) => ({
    reason,
    path: chunk.sourcePath,
    viaPath,
    passage: { chunk, score: 1, similarity: 1, scores: {} },
  });
  assert.equal(
    describeEntry(entry("governing", "impl/transport.md")),
    "Transport security (Standard); governs impl/transport.md",
  );
  assert.equal(
    describeEntry(entry("relationship", "guidance/recovery.md")),
    "Transport security (Standard); linked from guidance/recovery.md",
  );
  assert.equal(describeEntry(entry("match")), "Transport security (Standard)");
});
