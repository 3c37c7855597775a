import { equal } from "node:assert/strict";
import type { Chunk } from "../types.ts";
import { embeddingInput } from "./embedding_input.ts";

function passage(metadata: Record<string, unknown>, type = "paragraph"): Chunk {
  return {
    id: "x",
    sourcePath: "guidance/recovery.md",
    lineStart: 9,
    lineEnd: 9,
    startOffset: 0,
    endOffset: 12,
    type,
    language: "markdown",
    content: "Body text.",
    metadata,
  };
}

Deno.test("okf-context-v2 is title, short description, heading path, structure, blank line, passage", () => {
  const concept = { path: "guidance/recovery.md", title: "Account recovery", links: [] };
  const full = passage({
    concept: { ...concept, description: "How people get back in." },
    headingPath: ["Regaining access", "By email"],
  }, "table");
  equal(
    embeddingInput(full),
    "Title: Account recovery\nDescription: How people get back in.\n" +
      "Section: Regaining access > By email\nContext: table\n\nBody text.",
  );
  const code = passage({ concept, codeLanguage: "ts" }, "code");
  equal(embeddingInput(code), "Title: Account recovery\nContext: code (ts)\n\nBody text.");
});

Deno.test("okf-context-v2 keeps a description of 240 scalars and drops a longer one", () => {
  // Astral characters count once each, as Unicode scalars, not as two UTF-16 units.
  const at = "😀".repeat(240);
  const over = "😀".repeat(241);
  const input = (description: string) =>
    embeddingInput(passage({ concept: { path: "a.md", title: "T", description, links: [] } }));
  equal(input(at), `Title: T\nDescription: ${at}\n\nBody text.`);
  equal(input(over), "Title: T\n\nBody text.");
});

Deno.test("okf-context-v2 of a summary passage says the description once, as the passage", () => {
  const concept = {
    path: "a.md",
    title: "Encryption policy",
    description: "Body text.",
    links: [],
  };
  equal(embeddingInput(passage({ concept }, "summary")), "Title: Encryption policy\n\nBody text.");
});

Deno.test("a fragment that cannot carry its context is embedded as the passage alone", () => {
  const concept = { path: "a.md", title: "T", links: [] };
  equal(embeddingInput(passage({ concept, contextOmitted: true })), "Body text.");
  equal(
    embeddingInput({ ...passage({}), language: "typescript", symbol: "login" }),
    "guidance/recovery.md login\nBody text.",
  );
});
