import assert from "node:assert/strict";
import { join } from "node:path";
import { WayfinderError } from "../error.ts";
import { loadQueries } from "./load_queries.ts";

async function write(name: string, text: string): Promise<string> {
  const dir = await Deno.makeTempDir();
  const path = join(dir, name);
  await Deno.writeTextFile(path, text);
  return path;
}

function inputError(pattern: RegExp) {
  return (e: unknown) =>
    e instanceof WayfinderError && e.code === "input" && pattern.test(e.message);
}

Deno.test("loadQueries() reads a JSON map", async () => {
  const path = await write("q.json", JSON.stringify({ q1: "find user", q2: " list users " }));
  assert.deepEqual(await loadQueries(path), { q1: "find user", q2: "list users" });
});

Deno.test("loadQueries() reads a JSON list with id/text or qid/query", async () => {
  const path = await write(
    "q.json",
    JSON.stringify([{ id: "q1", text: "find user" }, { qid: "q2", query: "list users" }]),
  );
  assert.deepEqual(await loadQueries(path), { q1: "find user", q2: "list users" });
});

Deno.test("loadQueries() reads TSV, skipping blanks and comments", async () => {
  const path = await write("q.tsv", "# queries\nq1\tfind user\n\nq2\tlist\tusers\r\n");
  assert.deepEqual(await loadQueries(path), { q1: "find user", q2: "list\tusers" });
});

Deno.test("loadQueries() rejects malformed input with a one-line reason", async () => {
  const bad = await write("bad.json", '{"q1": "x",');
  await assert.rejects(loadQueries(bad), inputError(/bad\.json' is not JSON/));
  const noTab = await write("q.tsv", "q1\tok\nq2 missing tab\n");
  await assert.rejects(loadQueries(noTab), inputError(/line 2 has no tab/));
  const twice = await write("q.tsv", "q1\ta\nq1\tb\n");
  await assert.rejects(loadQueries(twice), inputError(/'q1' appears twice/));
  const empty = await write("q.json", JSON.stringify({ q1: "" }));
  await assert.rejects(loadQueries(empty), inputError(/'q1' has no text/));
  for (const e of [bad, noTab, twice, empty]) {
    await loadQueries(e).catch((err: Error) => assert.ok(!err.message.includes("\n")));
  }
});

Deno.test("loadQueries() reports a missing file as an io error", async () => {
  const dir = await Deno.makeTempDir();
  await assert.rejects(
    loadQueries(join(dir, "none.json")),
    (e) =>
      e instanceof WayfinderError && e.code === "io" && /none\.json': no such file/.test(e.message),
  );
});
