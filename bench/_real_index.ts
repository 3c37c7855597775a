/**
 * A real index for the query bench: zod's v3 TypeScript sources (from
 * node_modules) embedded with all-MiniLM-L6-v2 (f16, one thread), plus query
 * vectors from the passages' own symbols, and int8 and binary copies of the
 * index written from the same vectors, embedded with the bench model
 * (`bench/_model.ts`). Prepared once and reused; `deno task bench` prepares
 * it before the suites that read it, or by hand:
 *
 *   deno run -A bench/_real_index.ts
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { openCorpus } from "../src/corpus/mod.ts";
import { LlamaEmbedder } from "../src/embed/mod.ts";
import { openIndex, type StoredIndex, writeGeneration } from "../src/store/mod.ts";
import type { Quantization } from "../src/types.ts";
import { BENCH_MODEL } from "./_model.ts";
import { BENCH_DIR } from "./_synthetic_index.ts";

export const REAL_INDEX = join(BENCH_DIR, "real-index");
const CORPUS = join(BENCH_DIR, "real-corpus");
const QUERIES = join(BENCH_DIR, "real-queries.json");
const SOURCE = new URL(
  "../node_modules/.deno/zod@3.25.76/node_modules/zod/src/v3",
  import.meta.url,
);

/** Query text from a symbol: `ZodString.email` → "zod string email". */
function words(symbol: string): string {
  return symbol.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[^A-Za-z]+/g, " ").trim()
    .toLowerCase();
}

/** The exact real index and copies with int8 and binary codes. */
export async function quantizedCopies(): Promise<Record<Quantization, StoredIndex>> {
  const none = await openIndex(REAL_INDEX);
  if (!none) throw new Error(`no index at ${REAL_INDEX}`);
  const out = { none } as Record<Quantization, StoredIndex>;
  for (const kind of ["int8", "binary"] as const) {
    const dir = `${REAL_INDEX}-${kind}`;
    let index = await openIndex(dir).catch(() => null);
    if (index?.generation !== none.generation) {
      await Deno.remove(dir, { recursive: true }).catch(() => {});
      const { manifest: m } = none;
      await writeGeneration(dir, {
        manifest: { ...m, quantization: kind, createdAt: none.generation },
        chunks: none.chunks,
        vectors: none.vectors,
      });
      index = await openIndex(dir);
    }
    out[kind] = index!;
  }
  return out;
}

/** The prepared query vectors. */
export async function realQueries(): Promise<Float32Array[]> {
  const rows: number[][] = JSON.parse(await Deno.readTextFile(QUERIES));
  return rows.map((row) => Float32Array.from(row));
}

/** Copies zod's sources into the corpus folder. */
async function copyCorpus(): Promise<void> {
  await Deno.mkdir(CORPUS, { recursive: true });
  for await (const entry of Deno.readDir(SOURCE)) {
    if (entry.isFile) {
      await Deno.copyFile(new URL(`v3/${entry.name}`, SOURCE), join(CORPUS, entry.name));
    }
  }
}

/** Query vectors from the passages' own symbols, 100 at most, spread over the index. */
async function writeQueries(index: StoredIndex): Promise<string[]> {
  const symbols = [...new Set(index.chunks.flatMap((c) => c.symbol ? [words(c.symbol)] : []))];
  const step = Math.max(1, Math.floor(symbols.length / 100));
  const texts = symbols.filter((_, i) => i % step === 0).slice(0, 100);
  const embedder = await LlamaEmbedder.create({
    modelPath: BENCH_MODEL,
    threads: 1,
    inputFormat: index.manifest.inputFormat,
  });
  const vectors: number[][] = [];
  try {
    for (const text of texts) vectors.push([...await embedder.embedQuery(text)]);
  } finally {
    await embedder.close();
  }
  await Deno.writeTextFile(QUERIES, JSON.stringify(vectors));
  return texts;
}

/**
 * Builds the real index, its query vectors and quantized copies, unless they
 * are there and current for the bench model: then it costs a status check.
 */
export async function prepareRealIndex(): Promise<void> {
  await copyCorpus();
  const corpus = await openCorpus(CORPUS, {
    indexDir: REAL_INDEX,
    embedder: { model: BENCH_MODEL, threads: 1, longInput: "truncate" },
  });
  try {
    const { state } = await corpus.status();
    if (state === "ready" && existsSync(QUERIES)) {
      console.log(`The real index at ${REAL_INDEX} is current.`);
      return;
    }
    // The copied sources never change, so stale means another model: embed everything again.
    console.log(await corpus.index({ rebuild: state === "stale" }));
  } finally {
    await corpus.close();
  }
  const index = (await openIndex(REAL_INDEX))!;
  const texts = await writeQueries(index);
  await quantizedCopies();
  console.log(
    `${index.chunks.length} chunks, ${texts.length} queries: ${texts.slice(0, 5).join(" | ")} …`,
  );
}

if (import.meta.main) await prepareRealIndex();
