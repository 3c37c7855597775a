/**
 * Chunking throughput: the code chunker (`chunkFile`, as `index` cuts a file
 * before fitting it to the model) against a bare web-tree-sitter parse of the
 * same files with the same grammar, in the same process, file by file.
 * The corpus is the Python standard library's top-level modules (about 170
 * files, 5 MB), skipped when python3 is absent.
 *
 *   deno bench -A bench/chunk_bench.ts
 */
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Language, Parser } from "web-tree-sitter";
import { chunkFile, createCodeChunker } from "../src/chunk/mod.ts";
import type { SourceFile } from "../src/types.ts";
import { median, report, skipSuite } from "./_report.ts";
import { pythonStdlib, topLevelModules } from "./_python_stdlib.ts";

const ROUNDS = 7;

const stdlib = await pythonStdlib();
if ("skip" in stdlib) skipSuite(stdlib.skip);
const files = await topLevelModules(stdlib.root);
const bytes = files.reduce((sum, file) => sum + file.bytes, 0);

// The chunker loads its grammar from tree-sitter-wasms; the baseline loads the same file.
const chunker = await createCodeChunker({ languages: ["python"] });
const wasms = dirname(fileURLToPath(import.meta.resolve("tree-sitter-wasms/package.json")));
const parser = new Parser();
parser.setLanguage(await Language.load(await readFile(join(wasms, "out/tree-sitter-python.wasm"))));

const parse = (file: SourceFile) => parser.parse(file.content)!.delete();
const chunk = (file: SourceFile) => chunkFile(file, "python", chunker).length;

/** Milliseconds `run` takes. */
function timed(run: () => unknown): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

// Warm both paths once, then time them file by file, alternating which goes
// first each round, so load from other work on the machine hits both alike.
const chunks = files.reduce((sum, file) => (parse(file), sum + chunk(file)), 0);
const parsed: number[] = [];
const chunked: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  let parseMs = 0;
  let chunkMs = 0;
  for (const file of files) {
    if (round % 2 === 0) parseMs += timed(() => parse(file));
    chunkMs += timed(() => chunk(file));
    if (round % 2 === 1) parseMs += timed(() => parse(file));
  }
  parsed.push(parseMs);
  chunked.push(chunkMs);
}
const mbps = (ms: number) => bytes / 1e6 / (ms / 1000);
report(
  `chunking, Python stdlib top level (${files.length} files, ${(bytes / 1e6).toFixed(1)} MB, ` +
    `${chunks.toLocaleString("en")} chunks)`,
  { label: "chunkFile()", amount: mbps(median(chunked)), unit: "MB/s" },
  { label: "bare tree-sitter parse", amount: mbps(median(parsed)) },
  "target ≥ 0.8",
);

Deno.bench("bare tree-sitter parse", { group: "chunk", baseline: true, n: 3, warmup: 1 }, () => {
  files.forEach(parse);
});
Deno.bench("chunkFile()", { group: "chunk", n: 3, warmup: 1 }, () => {
  files.forEach(chunk);
});
