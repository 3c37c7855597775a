/**
 * Target 4, no-op re-index: `indexCorpus` over an unchanged tree of 10,000
 * files, against reading and hashing the same files with xxhash alone, in
 * the same process. The tree and its index are generated once under the
 * bench folder (FakeEmbedder: an unchanged tree embeds nothing, so the model
 * plays no part in what is timed).
 *
 *   deno bench -A bench/reindex_bench.ts      (WAYFINDER_BENCH_FILES=10000 by default)
 */
import { join } from "node:path";
import xxhash from "xxhash-wasm";
import { createCodeChunker } from "../src/chunk/mod.ts";
import { FakeEmbedder } from "../src/embed/mod.ts";
import { indexCorpus } from "../src/pipeline/mod.ts";
import { seededRandom } from "../src/store/testdata/synthetic.ts";
import { median, report } from "./_report.ts";
import { BENCH_DIR } from "./_synthetic_index.ts";

const FILES = Number(Deno.env.get("WAYFINDER_BENCH_FILES") ?? 10_000);
const root = join(BENCH_DIR, `tree-${FILES}`);
const indexDir = join(BENCH_DIR, `tree-${FILES}-index`);
const WORDS = "user session cache fetch parse render token queue retry stream".split(" ");

/** A TypeScript file of three to six small functions, about 1 KB. */
function source(n: number, random: () => number): string {
  const word = () => WORDS[Math.floor(random() * WORDS.length)]!;
  return Array.from(
    { length: 3 + Math.floor(random() * 4) },
    (_, i) =>
      `export function ${word()}${i}_${n}(input: string): string {\n` +
      `  // ${Array.from({ length: 12 }, word).join(" ")}\n  return input + "${word()}";\n}\n`,
  ).join("\n");
}

/** Writes the tree once; returns every file's path. */
async function tree(): Promise<string[]> {
  const random = seededRandom(3);
  const paths = Array.from(
    { length: FILES },
    (_, n) => join(root, `pkg_${n % 100}`, `file_${n}.ts`),
  );
  const marker = join(root, ".complete");
  if (await Deno.stat(marker).then(() => true, () => false)) return paths;
  for (let n = 0; n < FILES; n++) {
    await Deno.mkdir(join(root, `pkg_${n % 100}`), { recursive: true });
    await Deno.writeTextFile(paths[n]!, source(n, random));
  }
  await Deno.writeTextFile(marker, "");
  return paths;
}

const paths = await tree();
const options = {
  root,
  indexDir,
  embedder: new FakeEmbedder({ dimensions: 384 }),
  chunker: await createCodeChunker(),
  longInput: "reject" as const,
};
const first = await indexCorpus(options);
if (!first.current) console.log(`(indexed the tree once: ${first.embeddedChunks} chunks)`);
const { h64Raw } = await xxhash();

async function hashAll(): Promise<void> {
  for (const path of paths) h64Raw(await Deno.readFile(path));
}

const noop: number[] = [];
const hashed: number[] = [];
for (let run = 0; run < 5; run++) {
  let start = performance.now();
  const summary = await indexCorpus(options);
  noop.push(performance.now() - start);
  if (!summary.current) throw new Error("the tree changed under the bench");
  start = performance.now();
  await hashAll();
  hashed.push(performance.now() - start);
}
const files = FILES.toLocaleString("en");
const value = { label: "no-op re-index", amount: median(noop), unit: "ms" };
report(`no-op re-index, ${files} files`, value, { label: "2 s", amount: 2000 }, "target ≤ 1");
report(`no-op re-index, ${files} files`, value, {
  label: "read + xxh64 of every file",
  amount: median(hashed),
}, "target ≤ 3");

Deno.bench("read + xxh64 of every file", { group: "reindex", baseline: true, n: 5 }, hashAll);
Deno.bench("indexCorpus() of the unchanged tree", { group: "reindex", n: 5 }, async () => {
  await indexCorpus(options);
});
