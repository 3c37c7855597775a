/**
 * `wayfinder mcp` words its errors and notices for the agent calling its
 * tools: the fix is a tool call, not a command line. Driven by the SDK's own
 * client over a real stdio transport, with the tiny model.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { copyTree } from "./_run.ts";
import { callTool, mcpClient } from "./_mcp_client.ts";
import { SERVICES, tinyEnv } from "./_env.ts";

Deno.test("mcp: a search of an unindexed root says to call the index tool, and then works", async () => {
  const root = await copyTree(SERVICES);
  const client = await mcpClient([root], await tinyEnv());
  const call = (name: string, args: Record<string, unknown>) => callTool(client, name, args);
  try {
    const unindexed = await call("search", { query: "verify the jwt token" });
    assert.equal(unindexed.isError, true);
    assert.equal(
      unindexed.content[0]!.text,
      `wayfinder: No index for ${root}; call the index tool for ${root} first`,
    );

    const indexed = await call("index", {});
    assert.ok(!indexed.isError, indexed.content[0]!.text);
    await Deno.writeTextFile(join(root, "notes.md"), "# Notes\n\nRotate the jwt keys.\n");
    const found = await call("search", { query: "verify the jwt token" });
    assert.ok(!found.isError, found.content[0]!.text);
    assert.ok((found.structuredContent!.matches as unknown[]).length > 0);
    assert.deepEqual(found.structuredContent!.notices, [
      "the index may be behind the tree: 1 folder changed since it was built (files added, removed or renamed there); " +
      `call the index tool for ${root}, or call the status tool for ${root} (or search with checkFresh: true) for the exact count`,
    ]);
    assert.doesNotMatch(JSON.stringify(found), /run 'wayfinder|--mode/);
  } finally {
    await client.close();
  }
});
