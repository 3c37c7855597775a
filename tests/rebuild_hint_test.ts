/**
 * The fix a stale-index error names is a command that works: run as told,
 * it rebuilds the index the failing run asked for, and that run then
 * succeeds. Real CLI, real index, tiny model.
 */
import assert from "node:assert/strict";
import { copyTree, tinyModel, tinyModelWithBudget, wayfinder } from "./_run.ts";
import { dataEnv, SERVICES } from "./_env.ts";

/** The one-line error of a refused run, and the command it says to run, as arguments. */
function suggested(run: { code: number; stderr: string }): { line: string; args: string[] } {
  assert.equal(run.code, 2, run.stderr);
  const lines = run.stderr.trimEnd().split("\n");
  assert.equal(lines.length, 1, run.stderr);
  const fix = lines[0]!.match(/; run '(wayfinder index [^']*--rebuild)'$/);
  assert.ok(fix, lines[0]);
  // The temporary paths here need no quoting, so the words split on spaces.
  return { line: lines[0]!, args: fix[1]!.split(" ").slice(1) };
}

Deno.test("a stale-index error names a rebuild that carries this run's flags and the index's record", async () => {
  const root = await copyTree(SERVICES);
  const env = await dataEnv();
  const search = (...flags: string[]) =>
    wayfinder(["search", root, "encrypt sensitive data", "--limit", "1", ...flags], env);
  assert.equal((await wayfinder(["index", root, "--model", tinyModel()], env)).code, 0);

  // A flag of this run: the fix repeats it, and the model the index recorded, which a rebuild drops.
  const policy = suggested(await search("--long-input", "truncate"));
  assert.match(policy.line, /longInput "reject" → "truncate"/);
  assert.deepEqual(policy.args, [
    "index",
    root,
    "--model",
    tinyModel(),
    "--long-input",
    "truncate",
    "--rebuild",
  ]);
  const indexRun = suggested(await wayfinder(["index", root, "--long-input", "truncate"], env));
  assert.deepEqual(indexRun.args, policy.args, "index refuses with the same fix");
  assert.equal((await wayfinder(policy.args, env)).code, 0);
  const truncating = await search("--long-input", "truncate");
  assert.equal(truncating.code, 0, truncating.stderr);

  // Another model by flag: the fix names it, and the policy the index now records.
  const budget = await tinyModelWithBudget(64);
  const model = suggested(await search("--model", budget));
  assert.deepEqual(model.args, [
    "index",
    root,
    "--model",
    budget,
    "--long-input",
    "truncate",
    "--rebuild",
  ]);
  assert.equal((await wayfinder(model.args, env)).code, 0);
  const other = await search("--model", budget);
  assert.equal(other.code, 0, other.stderr);

  // A setting from the environment needs no flag: the rebuild reads it again.
  const rejecting = { ...env, WAYFINDER_LONG_INPUT: "reject" };
  const fromEnv = suggested(
    await wayfinder(["search", root, "encrypt sensitive data"], rejecting),
  );
  assert.deepEqual(fromEnv.args, ["index", root, "--model", budget, "--rebuild"]);
  assert.equal((await wayfinder(fromEnv.args, rejecting)).code, 0);
  const rebuilt = await wayfinder(["search", root, "encrypt sensitive data"], rejecting);
  assert.equal(rebuilt.code, 0, rebuilt.stderr);
});
