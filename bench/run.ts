/**
 * `deno task bench`: runs each bench suite (`*_bench.ts` under bench/ and
 * src/) in a `deno bench` process of its own, one after another, then prints
 * one Markdown table of every measurement with its baseline, ratio and goal.
 * First it prepares what the chosen suites need (bench/_prepare.ts): the
 * model tests/setup.ts prepares, and the real index of the query suite.
 * A suite that cannot run here (no python3, no model could be prepared) is
 * listed as skipped; one that crashes is listed too, the rest still run, and
 * the exit code is 1.
 *
 *   deno task bench [NAME...]      (only suites whose path contains a NAME)
 *   WAYFINDER_BENCH_ROWS=2000 deno task bench      (a quick run on small indexes)
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { prepareModel, prepareRealIndex, suiteNeeds } from "./_prepare.ts";
import type { ReportRow } from "./_report.ts";
import { benchTable, parseBenchJson, skippedSuite, type SuiteOutcome } from "./run_table.ts";

const ROOT = new URL("..", import.meta.url).pathname;

/** Every suite `deno bench` would find, in path order. */
async function findSuites(): Promise<string[]> {
  const found: string[] = [];
  for (const dir of ["bench", "src"]) {
    for (const path of await readdir(join(ROOT, dir), { recursive: true })) {
      if (path.endsWith("_bench.ts")) found.push(join(dir, path));
    }
  }
  return found.sort();
}

/**
 * Runs one suite, passing its output through. `deno bench --json` prints the
 * suite's own lines first and its results last, as a JSON document whose
 * first line is `{`: that document is kept, not shown.
 */
async function runSuite(suite: string, model: string): Promise<SuiteOutcome> {
  const reportFile = await Deno.makeTempFile({ prefix: "wayfinder-bench-report-" });
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["bench", "-A", "--json", suite],
      cwd: ROOT,
      // Every suite measures the same model, the one prepareModel() chose.
      env: { WAYFINDER_BENCH_REPORT: reportFile, WAYFINDER_BENCH_MODEL: model },
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    let json: string[] | undefined;
    let pending = "";
    const encoder = new TextEncoder();
    for await (const text of child.stdout.pipeThrough(new TextDecoderStream())) {
      const lines = (pending + text).split("\n");
      pending = lines.pop()!;
      for (const line of lines) {
        if (json || line === "{") (json ??= []).push(line);
        else Deno.stdout.writeSync(encoder.encode(`${line}\n`));
      }
    }
    json?.push(pending);
    const status = await child.status;
    const text = await readFile(reportFile, "utf8");
    const rows: ReportRow[] = text.split("\n").filter(Boolean).map((line) => JSON.parse(line));
    const failure = status.success
      ? undefined
      : status.signal
      ? `signal ${status.signal}`
      : `exit code ${status.code}`;
    return { suite, rows, benches: json ? parseBenchJson(json.join("\n")) : [], failure };
  } finally {
    await Deno.remove(reportFile);
  }
}

const wanted = Deno.args;
const suites = (await findSuites()).filter((s) =>
  !wanted.length || wanted.some((w) => s.includes(w))
);
const needs = await suiteNeeds(suites);
const model = needs.model ? await prepareModel() : "";
if (needs.realIndex) await prepareRealIndex(model);
const outcomes: SuiteOutcome[] = [];
for (const suite of suites) {
  console.log(`\n── ${suite}`);
  const started = performance.now();
  const outcome = await runSuite(suite, model);
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  const skip = skippedSuite(outcome);
  const how = skip
    ? `skipped (${skip})`
    : outcome.failure
    ? `crashed (${outcome.failure})`
    : "done";
  console.log(`── ${suite}: ${how} in ${seconds} s`);
  outcomes.push(outcome);
}
console.log(`\n${benchTable(outcomes)}`);
const crashed = outcomes.filter((o) => o.failure && !skippedSuite(o));
if (crashed.length > 0) {
  console.error(`\n${crashed.length} suite(s) crashed: ${crashed.map((o) => o.suite).join(", ")}`);
  Deno.exit(1);
}
