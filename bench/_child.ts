/**
 * One cold measurement per process, for the open and memory benches: builds
 * a synthetic index, or opens one and answers queries, then prints JSON with
 * its timings and peak resident memory (VmHWM from /proc/self/status).
 *
 *   deno run -A bench/_child.ts build <rows> <dir>
 *   deno run -A bench/_child.ts search <indexDir> [--no-verify] [--hybrid | --lexical]
 *
 * `--hybrid` and `--lexical` set the mode of every query, the first one included.
 */
import { searchIndex } from "../src/search/mod.ts";
import { openIndex, writeGeneration } from "../src/store/mod.ts";
import { queryVectors, syntheticData } from "./_synthetic_index.ts";

/** Peak resident set of this process so far, in bytes. */
function peakRss(): number {
  const status = Deno.readTextFileSync("/proc/self/status");
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

async function build(rows: number, dir: string) {
  const start = performance.now();
  await writeGeneration(dir, syntheticData(rows, 384));
  return { buildMs: performance.now() - start };
}

async function search(dir: string, verify: boolean, mode: "dense" | "lexical" | "hybrid") {
  const start = performance.now();
  const index = (await openIndex(dir, { verifyChecksums: verify }))!;
  const opened = performance.now();
  const [first, ...rest] = queryVectors(6);
  const answer = searchIndex(index, first!, "user session token", { limit: 10, mode });
  const text = answer.matches.map((m) => m.chunk.content).join("");
  const answered = performance.now();
  for (const query of rest) {
    searchIndex(index, query, "refresh cache", { limit: 10, mode })
      .matches.forEach((m) => m.chunk.content);
  }
  return { openMs: opened - start, firstAnswerMs: answered - start, textChars: text.length };
}

const [mode, arg, dir] = Deno.args;
const result = mode === "build" ? await build(Number(arg), dir!) : await search(
  arg!,
  !Deno.args.includes("--no-verify"),
  Deno.args.includes("--hybrid") ? "hybrid" : Deno.args.includes("--lexical") ? "lexical" : "dense",
);
console.log(JSON.stringify({ ...result, peakRss: peakRss() }));
