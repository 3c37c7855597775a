import { deepEqual, equal, ok } from "node:assert/strict";
import type { SourceFile } from "../../types.ts";
import { chunkConcept, joinConcept, SUMMARY_TYPE } from "./chunk_concept.ts";
import { policyFilter } from "./knowledge_search.ts";

function concept(content: string): SourceFile {
  return { path: "guide.md", absolutePath: "/bundle/guide.md", content, bytes: content.length };
}

Deno.test("joinConcept() joins a short concept, but never across a footnote definition", () => {
  const plain = concept(
    "---\ntype: Guide\n---\n# Guide\n\nFirst rule.\n\nSecond rule.[^a]\n\n[^a]: Source.\n",
  );
  const joined = joinConcept(plain, chunkConcept(plain));
  equal(joined?.type, "concept");
  ok(!joined!.content.includes("[^a]: Source."), "a trailing footnote stays out");

  const between = concept("# Guide\n\nFirst rule.[^a]\n\n[^a]: Zebra footnote.\n\nSecond rule.\n");
  const passages = chunkConcept(between);
  equal(joinConcept(between, passages), undefined);
  ok(passages.every((p) => !p.content.includes("Zebra")), "the definition is no passage");
  deepEqual(passages.map((p) => p.content), ["First rule.[^a]", "Second rule."]);
});

Deno.test("policyFilter() holds a bundle's other files to the path scope, status and type", () => {
  const notes = { ...chunkConcept(concept("# Notes\n\nPlain text.\n"))[0]!, metadata: {} };
  const keep = (policy: Parameters<typeof policyFilter>[0]) => policyFilter(policy)(notes);
  equal(keep({}), true);
  equal(keep({ current: true }), true, "no lifecycle to expire");
  equal(keep({ pathPrefixes: ["guide.md"] }), true);
  equal(keep({ pathPrefixes: ["standard"] }), false);
  equal(keep({ status: ["draft"] }), false);
  equal(keep({ conceptTypes: ["Guide"] }), false);
});

Deno.test("chunkConcept() makes a concept of nothing but front matter one summary passage, never its YAML", () => {
  const described = concept(
    "---\ntype: Standard\ntitle: Encryption policy\ndescription: >\n  All traffic is\n  encrypted.\n---\n",
  );
  const [passage, ...rest] = chunkConcept(described);
  equal(rest.length, 0);
  equal(passage!.type, SUMMARY_TYPE);
  equal(passage!.content, "All traffic is encrypted.", "the description's text, not its YAML");
  equal(passage!.symbol, "Encryption policy");
  deepEqual([passage!.lineStart, passage!.lineEnd], [1, 7], "where that text lives");
  equal((passage!.metadata.concept as { title: string }).title, "Encryption policy");

  const titled = chunkConcept(concept("---\ntitle: Encryption policy\nstatus: draft\n---\n"));
  deepEqual(titled.map((p) => p.content), ["Encryption policy"]);
  const empty = chunkConcept(concept(""));
  deepEqual(empty.map((p) => [p.type, p.content]), [[SUMMARY_TYPE, "guide"]], "its file name");
  // A body, however short, is the passage as before.
  deepEqual(chunkConcept(concept("---\ntitle: T\n---\n\nRule.\n")).map((p) => p.type), [
    "paragraph",
  ]);
});

Deno.test("joinConcept() starts a joined concept at its first passage's heading, as it keeps the later ones", () => {
  const adr = concept(
    "---\ntype: Decision\n---\n\n# Context\n\nKafka is hard to run.\n\n# Decision\n\nUse NATS.\n\n" +
      "# Consequences\n\nOne broker less.\n",
  );
  const joined = joinConcept(adr, chunkConcept(adr))!;
  equal(joined.lineStart, 5, "the `# Context` line");
  ok(joined.content.startsWith("# Context\n\nKafka"), joined.content);
  ok(joined.content.includes("# Decision") && joined.content.endsWith("One broker less."));
  // A concept whose first passage comes before any heading starts at that passage.
  const lead = concept("Intro rule.\n\n# Details\n\nMore.\n");
  equal(joinConcept(lead, chunkConcept(lead))!.content, "Intro rule.\n\n# Details\n\nMore.");
});
