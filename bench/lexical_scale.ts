/**
 * Lexical index cost at scale: build time and file size, then, in fresh
 * processes, `openIndex` time, the first `lexical()` call (which reads the
 * full-text file) and warm query latency. A script, not a `deno bench`
 * module: each measurement needs a cold process.
 *
 *   deno run -A bench/lexical_scale.ts [--chunks 100000] [--corpus synthetic|zipf] [--runs 3]
 *
 * `--orama` measures `_orama_public.ts` (Orama's public build, save and load) instead.
 * "synthetic" is `syntheticGeneration` (a 40-word vocabulary: few, very long
 * postings lists); "zipf" draws words from 50k made-up identifiers with Zipf
 * frequencies, closer to a real code base's long tail. Prints one JSON object.
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openIndex } from "../src/store/open_index.ts";
import { syntheticGeneration } from "../src/store/testdata/synthetic.ts";
import { FILES, writeGeneration } from "../src/store/write_generation.ts";
import type { Chunk } from "../src/types.ts";
import { buildOrama, loadOrama, type OramaConfig } from "./_orama_public.ts";

/** One of the best Orama configurations `lexical_probe.ts` found on the judged queries. */
const ORAMA_CONFIG: OramaConfig = {
  wholeWords: true,
  boost: { content: 1, symbol: 3, sourcePath: 1 },
  relevance: { k: 1.2, b: 0.1, d: 1.5 },
};

/** Ten queries drawn from the index: three body words of spread-out chunks, every other with its symbol. */
function queriesOf(chunks: Chunk[]): string[] {
  return Array.from({ length: 10 }, (_, i) => {
    const chunk = chunks[Math.floor((i * chunks.length) / 10)]!;
    const words = chunk.content.split("// ")[1]!.split(" ").slice(i, i + 3);
    return [...words, ...(i % 2 === 0 ? [chunk.symbol!] : [])].join(" ");
  });
}

/** Median of a list of numbers. */
function median(values: number[]): number {
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Chunks whose words follow Zipf's law over 50k made-up identifiers. */
function zipfChunks(count: number): Chunk[] {
  let state = 7;
  const random = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const syllables = "qu zor bel ka mi tra on ex pul vin dor sa fe li gro nap".split(" ");
  const vocabulary = Array.from({ length: 50_000 }, (_, i) => {
    const a = syllables[i % 16]!;
    const b = syllables[Math.floor(i / 16) % 16]!;
    return `${a}${b[0]!.toUpperCase()}${b.slice(1)}${Math.floor(i / 256)}`;
  });
  // Inverse CDF of a Zipf(1) law over the vocabulary, approximated continuously.
  const word = () => vocabulary[Math.floor(Math.exp(random() * Math.log(vocabulary.length))) - 1]!;
  return Array.from({ length: count }, (_, i) => {
    const name = `${word()}${i}`;
    const body = Array.from({ length: 60 + Math.floor(random() * 120) }, word).join(" ");
    const content = `export function ${name}() {\n  // ${body}\n}\n`;
    return {
      id: String(i),
      sourcePath: `src/pkg_${i % 97}/file_${i % 3000}.ts`,
      lineStart: 1,
      lineEnd: 3,
      startOffset: 0,
      endOffset: content.length,
      type: i % 5 === 0 ? "class" : "function",
      language: i % 3 === 0 ? "dart" : "typescript",
      symbol: name,
      content,
      metadata: {},
    };
  });
}

/**
 * Child: times one cold open and first query, then warm queries; prints
 * JSON. `orama` names a file saved by `_orama_public.ts` to load instead.
 */
async function child(dir: string, queries: string[], orama?: string): Promise<void> {
  const start = performance.now();
  let lexical: (query: string, limit: number) => unknown;
  if (orama) {
    const json = await Deno.readTextFile(orama);
    const search = loadOrama(json, ORAMA_CONFIG);
    lexical = search;
  } else {
    const index = (await openIndex(dir))!;
    lexical = (query, limit) => index.lexical(query, limit);
  }
  const opened = performance.now();
  lexical(queries[0]!, 50);
  const first = performance.now();
  const warm = queries.map((query) => {
    const t = performance.now();
    lexical(query, 50);
    return performance.now() - t;
  });
  console.log(JSON.stringify({
    sinceProcessStartMs: first,
    openIndexMs: opened - start,
    firstLexicalMs: first - opened,
    warmQueryMedianMs: median(warm),
    warmQueryMaxMs: Math.max(...warm),
  }));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      chunks: { type: "string", default: "100000" },
      corpus: { type: "string", default: "synthetic" },
      runs: { type: "string", default: "3" },
      orama: { type: "boolean", default: false },
      child: { type: "string" },
      queries: { type: "string" },
      "orama-file": { type: "string" },
    },
  });
  if (values.child) {
    return await child(values.child, JSON.parse(values.queries!), values["orama-file"]);
  }
  const count = Number(values.chunks);
  const data = syntheticGeneration(count, 1);
  if (values.corpus === "zipf") data.chunks = zipfChunks(count);
  const queries = queriesOf(data.chunks);
  const dir = await Deno.makeTempDir({ prefix: "wayfinder-lexical-bench-" });
  try {
    const t = performance.now();
    const generation = await writeGeneration(dir, data);
    let writeMs = performance.now() - t;
    let lexicalPath = join(dir, generation, FILES.lexical);
    if (values.orama) {
      // Orama's public build and save, instead of the store's lexical file.
      const t = performance.now();
      lexicalPath = join(dir, "orama-public.json");
      await Deno.writeTextFile(lexicalPath, buildOrama(data.chunks, ORAMA_CONFIG));
      writeMs = performance.now() - t;
    }
    const lexicalBytes = (await Deno.stat(lexicalPath)).size;
    const runs: Record<string, number>[] = [];
    for (let i = 0; i < Number(values.runs); i++) {
      const out = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          import.meta.filename!,
          "--child",
          dir,
          "--queries",
          JSON.stringify(queries),
          ...(values.orama ? ["--orama-file", lexicalPath] : []),
        ],
        stderr: "inherit",
      }).output();
      runs.push(JSON.parse(new TextDecoder().decode(out.stdout)));
    }
    const med = (key: string) => median(runs.map((r) => r[key]!));
    console.log(JSON.stringify(
      {
        corpus: values.corpus,
        chunks: count,
        lexical: values.orama ? "orama public API" : "store",
        buildMs: Math.round(writeMs),
        lexicalFile: lexicalPath.slice(lexicalPath.lastIndexOf("/") + 1),
        lexicalBytes,
        openIndexMs: Math.round(med("openIndexMs")),
        firstLexicalMs: Math.round(med("firstLexicalMs")),
        sinceProcessStartMs: Math.round(med("sinceProcessStartMs")),
        warmQueryMedianMs: Number(med("warmQueryMedianMs").toFixed(2)),
        warmQueryMaxMs: Number(med("warmQueryMaxMs").toFixed(2)),
      },
      null,
      2,
    ));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

await main();
