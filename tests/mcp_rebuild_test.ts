/**
 * An index built another way than `wayfinder mcp` is set up to search: the
 * agent is told to call the index tool with `rebuild: true`, which rebuilds
 * with the server's settings, and searching works again. Where the index
 * recorded settings the server lacks, the fix says the rebuild drops them
 * and names the command that keeps them. The SDK's own client over stdio,
 * the CLI to build the index, the tiny model.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { copyTree, MAIN, REPO, tinyModel, tinyModelWithBudget, wayfinder } from "./_run.ts";
import { SERVICES, tinyEnv } from "./_env.ts";
import { callTool, mcpClient, type ToolResult } from "./_mcp_client.ts";

/** `wayfinder mcp <root>` with `env` (the server's settings) and a client talking to it. */
async function serve(root: string, env: Record<string, string>, server = [MAIN, "mcp"]) {
  const client = await mcpClient([root], env, { server });
  const call = (name: string, args: Record<string, unknown> = {}) => callTool(client, name, args);
  return { client, call };
}

/** The server's environment: its model is the tiny one under a 64-token budget. */
async function serverEnv(): Promise<Record<string, string>> {
  return await tinyEnv(await tinyModelWithBudget(64));
}

const SET_UP_ANOTHER_WAY =
  "model 'wayfinder-tiny-test' was set up another way when it was built (maxTokens 512 → 64)";

Deno.test("mcp: an index built with another model setup names the index tool with rebuild: true, which mends it", async () => {
  const root = await Deno.makeTempDir({ prefix: "wayfinder-mcp-rebuild-" });
  // One passage: the replies count it in the singular.
  await Deno.writeTextFile(join(root, "keys.txt"), "Rotate the signing keys every quarter.\n");
  const env = await serverEnv();
  const built = await wayfinder(["index", root, "--model", tinyModel()], env);
  assert.equal(built.code, 0, built.stderr);
  const { client, call } = await serve(root, env);
  try {
    const fix = `call the index tool for ${root} with rebuild: true`;
    const refused = `wayfinder: Cannot use index for ${root}: ${SET_UP_ANOTHER_WAY}; ${fix}`;
    const search = await call("search", { query: "signing keys" });
    assert.equal(search.isError, true);
    assert.equal(search.content[0]!.text, refused);
    const stale = await call("status");
    assert.equal(stale.content[0]!.text, `${root}: stale; ${fix}`);
    assert.equal(stale.structuredContent!.hint, fix);
    assert.match(
      (stale.structuredContent!.stale as { reasons: string[] }).reasons[0]!,
      /^model wayfinder-tiny-test with the manifest beside .*tiny-64\.gguf loads another way \(maxTokens 512 → 64\)$/,
    );
    const plain = await call("index");
    assert.equal(plain.isError, true, "a plain run refuses it too");
    assert.equal(plain.content[0]!.text, refused);
    const failed = await call("status");
    assert.equal(failed.content[0]!.text, `${root}: failed; ${fix}`);

    const rebuilt = await call("index", { rebuild: true });
    assert.ok(!rebuilt.isError, rebuilt.content[0]!.text);
    assert.equal(rebuilt.content[0]!.text, `Rebuilt ${root}: 1 chunk embedded, 0 reused`);
    assert.equal(rebuilt.structuredContent!.reusedChunks, 0);
    const found = await call("search", { query: "signing keys" });
    assert.ok(!found.isError, found.content[0]!.text);
    assert.equal((found.structuredContent!.matches as unknown[]).length, 1);
    const ready = await call("status");
    assert.equal(ready.content[0]!.text, `${root}: ready`);
    assert.equal(ready.structuredContent!.hint, undefined);

    const current = await call("index");
    assert.equal(current.content[0]!.text, `Index for ${root} is current`);
    const fit = await call("fit_inputs");
    assert.equal(
      fit.content[0]!.text,
      "1 chunk → 1 input within 64 tokens; 0 diagnostics, 0 that cannot fit",
    );
  } finally {
    await client.close();
  }
});

Deno.test("mcp: a rebuild fix says what of the index's record the server's settings drop, and how to keep it", async () => {
  const root = await copyTree(SERVICES);
  const env = await serverEnv();
  const built = await wayfinder(
    ["index", root, "--model", tinyModel(), "--max-chunk-chars", "800"],
    env,
  );
  assert.equal(built.code, 0, built.stderr);
  // The user's command: the server's own model comes from the environment, so only the record's budget.
  const command = `wayfinder index ${root} --max-chunk-chars 800 --rebuild`;
  const { client, call } = await serve(root, env);
  try {
    const search = await call("search", { query: "encrypt sensitive data" });
    assert.equal(
      search.content[0]!.text,
      `wayfinder: Cannot use index for ${root}: ${SET_UP_ANOTHER_WAY}; call the index tool for ${root} ` +
        "with rebuild: true, which builds with the server's settings and drops the index's own " +
        `--max-chunk-chars 800; to keep that, ask the user to run '${command}' instead`,
    );
    // Run as told, in the server's environment, the command keeps the budget and mends the index.
    const kept = await wayfinder(command.split(" ").slice(1), env);
    assert.equal(kept.code, 0, kept.stderr);
    const found = await call("search", { query: "encrypt sensitive data" });
    assert.ok(!found.isError, found.content[0]!.text);
    const other = await wayfinder(
      ["status", root, "--max-chunk-chars", "1500", "--output", "json"],
      env,
    );
    assert.deepEqual(JSON.parse(other.stdout).stale.reasons, ["maxChunkChars 800 → 1500"]);
  } finally {
    await client.close();
  }
});

Deno.test("mcp: a rebuild asked while a plain index run goes says it waits for that run, then runs", async () => {
  const root = await Deno.makeTempDir({ prefix: "wayfinder-mcp-rebuild-" });
  for (let i = 0; i < 600; i++) {
    await Deno.writeTextFile(join(root, `note_${i}.md`), `# Note ${i}\n\nTopic ${i % 17}.\n`);
  }
  const env = await serverEnv();
  // The server answers an index call within 50 ms (see _mcp_server.ts).
  const quick = [join(REPO, "tests", "_mcp_server.ts"), "50"];
  const { client, call } = await serve(root, env, quick);
  try {
    const plain = await call("index");
    assert.equal(plain.structuredContent!.state, "indexing", plain.content[0]!.text);
    const rebuild = await call("index", { rebuild: true });
    assert.ok(!rebuild.isError, rebuild.content[0]!.text);
    assert.match(
      rebuild.content[0]!.text,
      /^Still rebuilding .+ \(waiting for the index run going on to end first\); search works meanwhile/,
    );
    // Plain calls made meanwhile join the rebuild; once it ends, the index is current.
    let done: ToolResult;
    do done = await call("index"); while (done.structuredContent!.state === "indexing");
    assert.ok(!done.isError, done.content[0]!.text);
    if (done.structuredContent!.current !== true) {
      assert.equal(done.structuredContent!.reusedChunks, 0, "the rebuild's summary");
    }
    assert.equal((await call("status")).structuredContent!.state, "ready");
  } finally {
    await client.close();
  }
});
