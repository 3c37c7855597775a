/**
 * Target 2, open: a fresh process opens a 100k-chunk index (every data file's
 * xxh64 verified) and answers a dense query, hits' text included (and, on the
 * exact index, a lexical and a hybrid one); the cost of
 * that verification against opening without it; and the index's size on
 * disk against its raw vector bytes plus passage text.
 *
 *   deno bench -A bench/open_bench.ts      (WAYFINDER_BENCH_ROWS=100000 by default)
 */
import { openIndex } from "../src/store/mod.ts";
import { median, report } from "./_report.ts";
import { generationFiles, syntheticIndex } from "./_synthetic_index.ts";
import { child } from "./_spawn.ts";

const ROWS = Number(Deno.env.get("WAYFINDER_BENCH_ROWS") ?? 100_000);
const RUNS = 5;

const rows = ROWS.toLocaleString("en");
for (const kind of ["none", "int8", "binary"] as const) {
  const dir = await syntheticIndex(ROWS, kind);
  const verified: number[] = [];
  const unverified: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    verified.push((await child("search", dir)).firstAnswerMs!);
    unverified.push((await child("search", dir, "--no-verify")).firstAnswerMs!);
  }
  const second = { label: "1 s", amount: 1000 };
  report(
    `open to first answer, ${rows} chunks, ${kind}`,
    { label: "median of 5 processes", amount: median(verified), unit: "ms" },
    second,
    "target ≤ 1",
  );
  report(
    `open to first answer, ${rows} chunks, ${kind}`,
    { label: "with xxh64 checks", amount: median(verified), unit: "ms" },
    { label: "without", amount: median(unverified) },
    "the cost of verifying every data file",
  );
  if (kind === "none") {
    // The other modes from a cold process; the query vector is given, so no model loads.
    for (const mode of ["lexical", "hybrid"]) {
      const times: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        times.push((await child("search", dir, `--${mode}`)).firstAnswerMs!);
      }
      report(
        `open to first answer, ${rows} chunks, ${mode}`,
        { label: "median of 5 processes", amount: median(times), unit: "ms" },
        second,
        "target ≤ 1",
      );
    }
  }
  const files = await generationFiles(dir);
  const total = Object.values(files).reduce((a, b) => a + b, 0);
  const raw = files["vectors.f32"]! + files["text.bin"]!;
  report(
    `size on disk, ${rows} chunks, ${kind}`,
    { label: "all files", amount: total / 1e6, unit: "MB" },
    { label: "vector bytes + passage text", amount: raw / 1e6 },
    "target ≤ 1.3",
  );
}

const dir = await syntheticIndex(ROWS, "none");
Deno.bench("openIndex(), xxh64 verified", { group: "open", n: 5, warmup: 1 }, async () => {
  await openIndex(dir);
});
Deno.bench(
  "openIndex(), not verified",
  { group: "open", baseline: true, n: 5, warmup: 1 },
  async () => {
    await openIndex(dir, { verifyChecksums: false });
  },
);
