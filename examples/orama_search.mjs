// A plain Orama program, with nothing of wayfinder in it: it loads the database
// `wayfinder export --format orama --out FILE` wrote and runs a full-text and a
// vector query, as a documentation site or an edge function would.
//
//   node examples/orama_search.mjs FILE "encrypt sensitive data" [VECTOR.json]
//   deno run --allow-read --allow-env examples/orama_search.mjs FILE "encrypt sensitive data"
//
// VECTOR.json is a JSON array: the query embedded by the index's own model.
// Without one, the vector query looks for the passages nearest the best
// full-text hit ("more like this").
import { readFile } from "node:fs/promises";
import process from "node:process";
import { search } from "@orama/orama";
import { restore } from "@orama/plugin-data-persistence";

const [file, query, vectorFile] = process.argv.slice(2);
if (!file || !query) {
  console.error("usage: orama_search.mjs FILE QUERY [VECTOR.json]");
  process.exit(2);
}
const db = await restore("json", await readFile(file, "utf8"));

const line = (hit) => {
  const { sourcePath, lineStart, lineEnd, symbol } = hit.document;
  return `  ${sourcePath}:${lineStart}-${lineEnd}  ${hit.score.toFixed(3)}  ${symbol ?? ""}`;
};

// Full text: BM25 over each passage, its symbol and its path.
const text = await search(db, {
  term: query,
  properties: ["content", "symbol", "sourcePath"],
  limit: 5,
  includeVectors: true,
});
console.log(`full text "${query}":`);
for (const hit of text.hits) console.log(line(hit));

// Vector: cosine similarity with each passage's `embedding`, best first.
const vector = vectorFile
  ? JSON.parse(await readFile(vectorFile, "utf8"))
  : text.hits[0]?.document.embedding;
if (vector) {
  const near = await search(db, {
    mode: "vector",
    vector: { value: vector, property: "embedding" },
    similarity: 0.5,
    limit: 5,
  });
  console.log(vectorFile ? "vector query:" : `nearest ${text.hits[0].document.sourcePath}:`);
  for (const hit of near.hits) console.log(line(hit));
}
