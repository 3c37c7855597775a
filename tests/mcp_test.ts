/**
 * `wayfinder mcp` driven by the SDK's own client over a real stdio
 * transport, on a small corpus indexed with the tiny model.
 */
import assert from "node:assert/strict";
import { basename, join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { writeTinyReranker } from "../src/model/mod.ts";
import { exampleProject, profileRepo } from "./_profile_repo.ts";
import { copyTree, MAIN, REPO, wayfinder } from "./_run.ts";
import { dataEnv, SERVICES, tinyEnv } from "./_env.ts";
import { callTool, mcpClient, type ToolResult } from "./_mcp_client.ts";

/** The server built with a short `index` answer wait (see _mcp_server.ts). */
const QUICK_ANSWER = (ms: number) => [join(REPO, "tests", "_mcp_server.ts"), String(ms)];

const root = await copyTree(SERVICES);
const env = await tinyEnv();

type Tool = { name: string; description?: string; outputSchema?: Record<string, unknown> };

async function connect(
  roots: string[] = [root],
  cwd?: string,
  own: Record<string, string> = {},
  server: string[] = [MAIN, "mcp"],
): Promise<Client> {
  return await mcpClient(roots, { ...env, ...own }, { server, cwd });
}

const call = callTool;

Deno.test("mcp serves search, read_range, index and status over stdio", async () => {
  const client = await connect();
  try {
    const tools = (await client.listTools()).tools.map((t: { name: string }) => t.name).sort();
    assert.deepEqual(tools, [
      "fit_inputs",
      "get_chunk",
      "index",
      "read_range",
      "search",
      "status",
      "validate",
    ]);
    const fit = await call(client, "fit_inputs", {});
    assert.ok(!fit.isError, fit.content[0].text);
    assert.ok(
      (fit.structuredContent?.inputs as number) >= (fit.structuredContent?.chunks as number),
    );
    assert.equal(fit.structuredContent?.embeddingInputs, undefined);
    const shown = await call(client, "fit_inputs", { showInputs: true });
    const inputs = shown.structuredContent?.embeddingInputs as { text: string }[];
    assert.equal(inputs.length, fit.structuredContent?.inputs);

    assert.equal((await call(client, "status", {})).structuredContent?.state, "absent");
    const progress: number[] = [];
    const indexed = await client.callTool(
      { name: "index", arguments: {} },
      undefined,
      { onprogress: (p: { progress: number }) => progress.push(p.progress) },
    ) as ToolResult;
    assert.ok(!indexed.isError, indexed.content[0].text);
    assert.ok(progress.length > 2, "progress notifications arrive");
    assert.ok(progress.every((p, i) => i === 0 || p > progress[i - 1]!), "and always rise");
    assert.ok((indexed.structuredContent?.embeddedChunks as number) > 0);
    assert.equal((await call(client, "status", {})).structuredContent?.state, "ready");
    const resources = (await client.listResources()).resources;
    assert.equal(resources.length, 1);
    const read = await client.readResource({ uri: resources[0].uri });
    assert.equal(JSON.parse((read.contents[0] as { text: string }).text).state, "ready");

    // The same query through the CLI gives the same structured result.
    const query = "verify the jwt token";
    const found = await call(client, "search", { query, limit: 3, mode: "hybrid" });
    assert.ok(!found.isError, found.content[0].text);
    const cli = await wayfinder(
      ["search", root, query, "--limit", "3", "--mode", "hybrid", "--output", "json"],
      env,
    );
    assert.equal(cli.code, 0, cli.stderr);
    assert.deepEqual(found.structuredContent, JSON.parse(cli.stdout));
    assert.match(found.content[0].text, /^1\. \S+\.dart:\d+-\d+ /);

    const first = (found.structuredContent!.matches as { chunk: { sourcePath: string } }[])[0];
    const range = await call(client, "read_range", {
      path: first.chunk.sourcePath,
      lineStart: 1,
      lineEnd: 3,
    });
    assert.ok(!range.isError, range.content[0].text);
    const text = await Deno.readTextFile(join(root, first.chunk.sourcePath));
    assert.equal(range.structuredContent?.content, text.split("\n").slice(0, 3).join("\n"));
  } finally {
    await client.close();
  }
});

Deno.test("mcp search tells a tree that moved on cheaply, and exactly with checkFresh", async () => {
  const own = await copyTree(SERVICES);
  assert.equal((await wayfinder(["index", own], env)).code, 0);
  const client = await connect([own]);
  try {
    await Deno.writeTextFile(join(own, "extra.dart"), "void extra() {}\n");
    const notices = async (args: Record<string, unknown>) => {
      const found = await call(client, "search", { query: "token", mode: "lexical", ...args });
      assert.ok(!found.isError, found.content[0].text);
      return (found.structuredContent!.notices as string[]).join("\n");
    };
    assert.match(
      await notices({}),
      /^the index may be behind the tree: 1 folder changed since it was built .*call the status tool for /,
    );
    assert.match(
      await notices({ checkFresh: true }),
      /^the index is behind the tree \(0 changed, 1 added, 0 deleted since it was built\); call the index tool/,
    );
  } finally {
    await client.close();
  }
});

Deno.test("mcp describes every parameter of every tool to the model", async () => {
  // A second root of the same folder name: named by its path where the name would not do.
  const twin = join(await Deno.makeTempDir({ prefix: "wayfinder-mcp-twin-" }), basename(root));
  await Deno.mkdir(twin);
  const other = await Deno.makeTempDir({ prefix: "wayfinder-mcp-other-" });
  const client = await connect([root, twin, other]);
  try {
    const { tools } = await client.listTools();
    const served = `one of ${basename(root)} (${root}), ${basename(root)} (${twin}), ` +
      `${basename(other)} (${other})`;
    for (const tool of tools) {
      const { root: described } = tool.inputSchema.properties as Record<
        string,
        { description?: string }
      >;
      assert.equal(
        described?.description,
        `Which served root, by folder name or path: ${served}; default: ` +
          (tool.name === "get_chunk"
            ? `for an id, any root whose index holds it; for lines, ${root}`
            : root),
        tool.name,
      );
    }
    const search = tools.find((t: { name: string }) => t.name === "search")!;
    const properties = search.inputSchema.properties as Record<string, { description?: string }>;
    assert.deepEqual(Object.keys(properties).sort(), [
      "asOf",
      "checkFresh",
      "conceptType",
      "contextChars",
      "current",
      "diverse",
      "expand",
      "expandLinks",
      "governing",
      "lang",
      "limit",
      "mode",
      "path",
      "pathPrefix",
      "query",
      "root",
      "status",
      "type",
    ]);
    // A date alone is refused: the model must learn that before sending one.
    assert.match(properties.asOf!.description!, /^Knowledge bundles, only together with `current`/);
    for (const tool of tools) {
      const described = tool.inputSchema.properties as Record<string, { description?: string }>;
      for (const [name, schema] of Object.entries(described ?? {})) {
        assert.ok(schema.description?.trim(), `${tool.name}.${name} has no description`);
      }
    }
  } finally {
    await client.close();
  }
});

Deno.test("mcp refuses paths outside the root, clamps limits and survives bad arguments", async () => {
  const client = await connect();
  try {
    // Two index calls at once: the second waits for the first instead of meeting its lock.
    const both = await Promise.all([call(client, "index", {}), call(client, "index", {})]);
    for (const run of both) assert.ok(!run.isError, run.content[0].text);
    for (const path of ["../../etc/passwd", "/etc/passwd"]) {
      const outside = await call(client, "read_range", { path, lineStart: 1, lineEnd: 2 });
      assert.equal(outside.isError, true);
      assert.match(outside.content[0].text, /^wayfinder: '.*' is not a file inside a served root$/);
    }
    const many = await call(client, "search", { query: "token", limit: 100_000, mode: "lexical" });
    assert.ok((many.structuredContent!.matches as unknown[]).length <= 100);

    // A wrong, missing or unknown argument: one line naming it and what it takes.
    for (
      const [args, line] of [
        [{ query: "token", limit: "ten" }, `search: limit must be a whole number ≥ 1, not "ten"`],
        [{ limit: 3 }, "search needs query: a string"],
        [{ query: "token", limits: 3 }, "search has no argument 'limits'; it takes query, root, "],
      ] as const
    ) {
      const malformed = await call(client, "search", args);
      assert.equal(malformed.isError, true);
      assert.ok(
        malformed.content[0].text.startsWith(`wayfinder: ${line}`),
        malformed.content[0].text,
      );
      assert.ok(!malformed.content[0].text.includes("\n"), malformed.content[0].text);
    }
    const empty = await call(client, "search", { query: "   " });
    assert.equal(empty.isError, true);
    assert.match(empty.content[0].text, /^wayfinder: Cannot search: the query is empty$/);

    // Still serving after all that.
    assert.equal((await call(client, "status", {})).structuredContent?.state, "ready");
  } finally {
    await client.close();
  }
});

Deno.test("mcp reads only files the index holds, and names a file's length past its end", async () => {
  const added = [".gitignore", ".env", "forty.md", "later.md"];
  await Deno.writeTextFile(join(root, ".gitignore"), ".env\n");
  await Deno.writeTextFile(join(root, ".env"), "SECRET=hunter2\n");
  const forty = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
  await Deno.writeTextFile(join(root, "forty.md"), forty);
  const client = await connect();
  try {
    assert.ok(!(await call(client, "index", {})).isError);
    await Deno.writeTextFile(join(root, "later.md"), "# Written after indexing\n");
    for (const tool of ["read_range", "get_chunk"]) {
      for (const path of [".env", join(root, ".env"), "later.md"]) {
        const refused = await call(client, tool, { path, lineStart: 1, lineEnd: 1 });
        assert.equal(refused.isError, true, `${tool} ${path}`);
        assert.match(
          refused.content[0].text,
          /^wayfinder: '.*' is not a file the index of .* holds \(ignored, excluded or not indexed yet\)$/,
        );
        assert.ok(!refused.content[0].text.includes("hunter2"));
      }
    }
    const past = await call(client, "read_range", {
      path: "forty.md",
      lineStart: 900,
      lineEnd: 905,
    });
    assert.equal(past.isError, true);
    assert.equal(
      past.content[0].text,
      "wayfinder: 'forty.md' has 40 lines; lineStart 900 is past its end",
    );
    const tail = await call(client, "read_range", { path: "forty.md", lineStart: 39, lineEnd: 45 });
    assert.ok(!tail.isError, tail.content[0].text);
    assert.deepEqual(
      [tail.structuredContent?.lineEnd, tail.structuredContent?.content],
      [40, "line 39\nline 40"],
    );
  } finally {
    await client.close();
    for (const name of added) await Deno.remove(join(root, name)).catch(() => {});
  }
});

Deno.test("mcp validates a bundle inside the root and refuses one outside", async () => {
  const bundle = join(root, "kb");
  await Deno.mkdir(bundle, { recursive: true });
  await Deno.writeTextFile(join(bundle, "good.md"), "---\ntype: Guide\n---\n# Good\n");
  await Deno.writeTextFile(join(bundle, "bad.md"), "---\ntitle: No type\n---\n# Bad\n");
  const client = await connect();
  try {
    const report = await call(client, "validate", { bundle: "kb" });
    assert.ok(!report.isError, report.content[0].text);
    assert.equal(report.structuredContent?.gate, "FAIL");
    const ids = (report.structuredContent!.findings as { id: string }[]).map((f) => f.id);
    assert.ok(ids.includes("okf/missing-type"), ids.join(", "));
    assert.match(report.content[0].text, /bad\.md:\d+:\d+ error .*okf\/missing-type/);
    const outside = await call(client, "validate", { bundle: "/tmp" });
    assert.equal(outside.isError, true);
  } finally {
    await client.close();
    await Deno.remove(bundle, { recursive: true });
  }
});

Deno.test("mcp validates with the Profile cache of the project's own dataDir, as the CLI does", async () => {
  const source = await profileRepo();
  const top = await Deno.makeTempDir({ prefix: "wayfinder-mcp-top-" });
  const project = join(top, "dd");
  await Deno.rename(await exampleProject("acme-notes", source.dir), project);
  const file = join(project, "wayfinder.json");
  const dataDir = join(top, "data3");
  const binding = JSON.parse(await Deno.readTextFile(file));
  await Deno.writeTextFile(file, JSON.stringify({ ...binding, dataDir }));
  // No data root in the environment: the project's wayfinder.json names it.
  const own = { WAYFINDER_DATA_DIR: "", HOME: top };
  const cliEnv = { ...env, ...own, PATH: Deno.env.get("PATH") ?? "" };
  assert.equal((await wayfinder(["get", project], cliEnv)).code, 0);
  const cli = await wayfinder(
    ["validate", join(project, "knowledge"), "--output", "json"],
    cliEnv,
  );
  assert.equal(cli.code, 0, cli.stdout + cli.stderr);
  const client = await connect([top], undefined, own);
  try {
    const report = await call(client, "validate", { bundle: "dd/knowledge" });
    assert.ok(!report.isError, report.content[0].text);
    assert.equal(report.structuredContent?.gate, "PASS", report.content[0].text);
    assert.deepEqual(report.structuredContent, JSON.parse(cli.stdout));
  } finally {
    await client.close();
  }
});

Deno.test("mcp sees a generation published while it runs", async () => {
  const client = await connect();
  try {
    assert.ok(!(await call(client, "index", {})).isError);
    const before = await call(client, "search", {
      query: "zebra quartz",
      mode: "lexical",
      limit: 1,
    });
    const paths = (r: ToolResult) =>
      (r.structuredContent!.matches as { chunk: { sourcePath: string } }[]).map((m) =>
        m.chunk.sourcePath
      );
    assert.ok(!paths(before).includes("zebra.dart"));
    await Deno.writeTextFile(join(root, "zebra.dart"), "// zebra quartz\nvoid zebraQuartz() {}\n");
    const published = await wayfinder(["index", root], env);
    assert.equal(published.code, 0, published.stderr);
    const after = await call(client, "search", {
      query: "zebra quartz",
      mode: "lexical",
      limit: 1,
    });
    assert.deepEqual(paths(after), ["zebra.dart"]);
  } finally {
    await client.close();
    await Deno.remove(join(root, "zebra.dart")).catch(() => {});
  }
});

Deno.test("mcp search answers as the CLI does under wayfinder.json's search and knowledge settings", async () => {
  const bundle = await copyTree(join(REPO, "fixtures", "okf", "knowledge"));
  await Deno.writeTextFile(
    join(bundle, "wayfinder.json"),
    JSON.stringify({
      search: { limit: 2, mode: "hybrid", lambda: 0 },
      knowledge: { current: true, asOf: "2026-09-09" },
      mcp: { roots: [".", root] },
    }),
  );
  assert.equal((await wayfinder(["index", bundle], env)).code, 0);
  assert.equal((await wayfinder(["index", root], env)).code, 0);
  const query = "Email the administrator your password";
  const cli = await wayfinder(["search", bundle, query, "--output", "json"], env);
  assert.equal(cli.code, 0, cli.stderr);
  const cliDiverse = await wayfinder(["search", bundle, query, "--diverse", "-o", "json"], env);
  assert.equal(cliDiverse.code, 0, cliDiverse.stderr);
  // Named on the command line, the bundle alone is served: mcp.roots does not add the other tree.
  const client = await connect([bundle]);
  try {
    // Listed, the tools' output schemas check every search result below (the client does).
    assert.ok((await client.listTools()).tools.some((t: Tool) => t.outputSchema));
    assert.equal((await client.listResources()).resources.length, 1);
    const found = await call(client, "search", { query });
    assert.ok(!found.isError, found.content[0].text);
    assert.deepEqual(found.structuredContent, JSON.parse(cli.stdout));
    const paths = (found.structuredContent!.matches as { chunk: { sourcePath: string } }[])
      .map((m) => m.chunk.sourcePath);
    assert.equal(paths.length, 2, "search.limit from wayfinder.json");
    assert.ok(!paths.includes("history/recovery.md"), "knowledge.current drops the deprecated");
    assert.match(found.content[0].text, /^1\. \[match\] \S+\.md:\d+-\d+ /);

    // `diverse: true` takes the file's lambda, as --diverse does.
    const diverse = await call(client, "search", { query, diverse: true });
    assert.deepEqual(diverse.structuredContent, JSON.parse(cliDiverse.stdout));
    // A call's own arguments win over the file's.
    const history = await call(client, "search", { query, current: false, limit: 10 });
    const all = (history.structuredContent!.matches as { chunk: { sourcePath: string } }[])
      .map((m) => m.chunk.sourcePath);
    assert.ok(all.includes("history/recovery.md"));
    // As the CLI's --as-of, a date asked without `current` is refused, not ignored.
    const lone = await call(client, "search", { query, current: false, asOf: "2026-01-01" });
    assert.ok(lone.isError);
    assert.equal(lone.content[0].text, "wayfinder: asOf applies only with current");
    // Each citation names its concept and lifecycle, stale as of the configured date.
    const cited = history.content[0].text;
    assert.match(
      cited,
      /\] history\/recovery\.md:\d+-\d+ .* — Account recovery before self-service \(Guideline, deprecated\) \[/,
    );
    assert.match(cited, / — Signing key rotation \(Guideline, stable, stale since 2026-01-01\) \[/);
  } finally {
    await client.close();
  }
  // Without roots on the command line, mcp.roots is what is served, each root with its own
  // settings: the bundle's limit of 2 is not the other tree's.
  const configured = await connect([], bundle);
  try {
    assert.equal((await configured.listResources()).resources.length, 2);
    const other = await call(configured, "search", { query: "token", root, mode: "lexical" });
    assert.ok((other.structuredContent!.matches as unknown[]).length > 2, "not the limit of 2");
    const own = await call(configured, "search", { query, root: bundle });
    assert.deepEqual(own.structuredContent, JSON.parse(cli.stdout));
  } finally {
    await configured.close();
  }
});

Deno.test("mcp get_chunk fetches a search hit again by its id, from any served root", async () => {
  const unindexed = await Deno.makeTempDir({ prefix: "wayfinder-mcp-bare-" });
  const tree = await Deno.makeTempDir({ prefix: "wayfinder-mcp-ids-" });
  const source = "export function pangolinScales(): number {\n  return 42;\n}\n";
  await Deno.writeTextFile(join(tree, "pangolin.ts"), source);
  await Deno.writeTextFile(join(tree, "notes.md"), "# Notes\n\nNothing about scales here.\n");
  assert.equal((await wayfinder(["index", tree], env)).code, 0);
  // The first root has no index: an id is looked for in every root that has one.
  const client = await connect([unindexed, tree]);
  try {
    const found = await call(client, "search", { query: "pangolin", root: tree, mode: "lexical" });
    const hit = (found.structuredContent!.matches as {
      chunk: { id: string; sourcePath: string; lineStart: number; lineEnd: number };
    }[]).find((m) => m.chunk.sourcePath === "pangolin.ts")!.chunk as Record<string, unknown>;
    const byId = await call(client, "get_chunk", { id: hit.id });
    assert.ok(!byId.isError, byId.content[0].text);
    assert.deepEqual(byId.structuredContent, {
      root: tree,
      id: hit.id,
      path: "pangolin.ts",
      lineStart: hit.lineStart,
      lineEnd: hit.lineEnd,
      type: hit.type,
      language: "typescript",
      symbol: "pangolinScales",
      content: hit.content,
      metadata: hit.metadata,
    });
    assert.equal(byId.content[0].text, `pangolin.ts:1-3 pangolinScales\n${source.trimEnd()}`);
    // The passage as stored, not as the file now reads, until the root is indexed again.
    await Deno.writeTextFile(join(tree, "pangolin.ts"), source.replace("42", "43"));
    const stored = await call(client, "get_chunk", { id: hit.id, root: tree });
    assert.equal(stored.structuredContent?.content, hit.content);

    const refusals: [Record<string, unknown>, RegExp][] = [
      [{ id: hit.id, root: unindexed }, /^wayfinder: No index for .+; call the index tool for /],
      [{ id: "f".repeat(40) }, /^wayfinder: No chunk 'f{40}' in any served index; .*search again$/],
      [
        { id: hit.id, path: "pangolin.ts", lineStart: 1, lineEnd: 2 },
        /^wayfinder: get_chunk takes either id or path, lineStart and lineEnd, not both$/,
      ],
      [{}, /^wayfinder: get_chunk needs id, or path, lineStart and lineEnd$/],
      [
        { path: "pangolin.ts", lineStart: 1, root: tree },
        /^wayfinder: get_chunk needs lineEnd with path and lineStart \(or an id alone\)$/,
      ],
      [{ id: "" }, /^wayfinder: get_chunk: id must be a non-empty string, not ""$/],
    ];
    for (const [args, line] of refusals) {
      const refused = await call(client, "get_chunk", args);
      assert.equal(refused.isError, true, JSON.stringify(args));
      assert.match(refused.content[0].text, line);
    }
    assert.equal((await call(client, "index", { root: tree })).isError, undefined);
    const gone = await call(client, "get_chunk", { id: hit.id, root: tree });
    assert.equal(gone.isError, true, "a changed passage has a new id");
    assert.match(gone.content[0].text, /^wayfinder: No chunk '[0-9a-f]{40}' in the index of /);
    // The lines form still reads the file as read_range does.
    const lines = await call(client, "get_chunk", {
      path: "pangolin.ts",
      lineStart: 2,
      lineEnd: 2,
      root: tree,
    });
    assert.equal(lines.structuredContent?.content, "  return 43;");
  } finally {
    await client.close();
  }
});

Deno.test("mcp escapes control characters in cited paths and reads files named '..x'", async () => {
  const tree = await Deno.makeTempDir({ prefix: "wayfinder-mcp-names-" });
  await Deno.writeTextFile(join(tree, "..notes.txt"), "the quokka notes\n");
  await Deno.writeTextFile(join(tree, "q\x1b[2Jz\nw.txt"), "the quokka forgery\n");
  assert.equal((await wayfinder(["index", tree], env)).code, 0);
  const client = await connect([tree]);
  try {
    const found = await call(client, "search", { query: "quokka", mode: "lexical" });
    const text = found.content[0].text;
    assert.ok(!text.includes("\x1b"), "no raw escape reaches the agent");
    assert.match(text, /q\\x1b\[2Jz\\x0aw\.txt:1-1/);
    const range = await call(client, "read_range", {
      path: "..notes.txt",
      lineStart: 1,
      lineEnd: 1,
    });
    assert.ok(!range.isError, range.content[0].text);
    assert.equal(range.structuredContent?.content, "the quokka notes");
  } finally {
    await client.close();
  }
});

for (const stop of ["cancelled", "stdin closed", "SIGTERM"] as const) {
  Deno.test(`mcp stopped (${stop}) during an index call keeps the previous index and records no failure`, async () => {
    const tree = await Deno.makeTempDir({ prefix: "wayfinder-mcp-stop-" });
    const own = await dataEnv();
    await Deno.writeTextFile(
      join(tree, "keys.md"),
      "# Keys\n\nRotate the signing keys every quarter.\n",
    );
    assert.equal((await wayfinder(["index", tree], { ...env, ...own })).code, 0);
    const status = async () =>
      JSON.parse(
        (await wayfinder(["status", tree, "--output", "json"], { ...env, ...own })).stdout,
      );
    const before = await status();
    // Enough to chunk and embed that the run is still going when the server is stopped.
    for (let i = 0; i < 600; i++) {
      await Deno.writeTextFile(join(tree, `note_${i}.md`), `# Note ${i}\n\nTopic ${i % 17}.\n`);
    }
    const client = await connect([tree], undefined, own);
    const { pid } = client.transport as StdioClientTransport;
    const cancel = new AbortController();
    let stopping: Promise<void> | undefined;
    const running = client.callTool({ name: "index", arguments: {} }, undefined, {
      signal: cancel.signal,
      onprogress: ({ message }: { message?: string }) => {
        if (stopping || !message?.startsWith("chunk")) return;
        if (stop === "cancelled") cancel.abort();
        if (stop === "SIGTERM") Deno.kill(pid!, "SIGTERM");
        // Closing waits for the server to exit, so for its run to end.
        stopping = client.close();
      },
    });
    await assert.rejects(running);
    await stopping;
    const after = await status();
    assert.equal(after.generation, before.generation, "the previous index stays published");
    assert.equal(after.state, "stale", after.failure?.message);
    assert.equal(after.failure, undefined, "an abort is no failure");
    for (const left of ["lock", "progress.json", "last-failure.json"]) {
      assert.throws(() => Deno.statSync(join(after.indexDir, left)), Deno.errors.NotFound, left);
    }
  });
}

/** A tree whose first index outlasts a 50 ms answer wait, by enough to publish partial generations. */
async function slowTree(prefix: string): Promise<string> {
  const tree = await Deno.makeTempDir({ prefix });
  for (let i = 0; i < 600; i++) {
    await Deno.writeTextFile(
      join(tree, `note_${i}.md`),
      `# Note ${i}\n\nTopic ${i % 17} of the walrus.\n`,
    );
  }
  return tree;
}

Deno.test("mcp index answers within its wait and the run goes on; search works meanwhile", async () => {
  const tree = await slowTree("wayfinder-mcp-slow-");
  const own = await dataEnv();
  const client = await connect([tree], undefined, own, QUICK_ANSWER(50));
  try {
    const description = (await client.listTools()).tools.find((t: { name: string }) =>
      t.name === "index"
    )!
      .description!;
    assert.match(description, /can take minutes/);
    assert.match(description, /Search works meanwhile/);
    const first = await call(client, "index", {});
    assert.ok(!first.isError, first.content[0].text);
    assert.equal(first.structuredContent?.state, "indexing");
    assert.equal(first.structuredContent?.root, tree);
    assert.match(
      first.content[0].text,
      /^Still indexing .+ \(.+\); search works meanwhile on what is published; poll the status tool/,
    );
    while (!(await call(client, "status", {})).structuredContent?.progress) {
      await new Promise((wait) => setTimeout(wait, 50));
    }
    // A second call joins the run: it neither meets the run's lock nor starts another.
    const second = await call(client, "index", {});
    assert.ok(!second.isError, second.content[0].text);
    assert.equal(second.structuredContent?.state, "indexing");
    assert.notEqual(second.structuredContent?.progress, null, "the run's progress so far");

    let searchedMeanwhile = false;
    for (let polls = 0;; polls++) {
      assert.ok(polls < 1200, "the run ends");
      const status = (await call(client, "status", {})).structuredContent!;
      if (status.state === "ready") break;
      assert.equal(status.state, "indexing", JSON.stringify(status));
      if (!searchedMeanwhile && status.generation !== null) {
        // A partial generation is live: every passage is searchable lexically already.
        const found = await call(client, "search", { query: "walrus", mode: "lexical" });
        assert.ok(!found.isError, found.content[0].text);
        assert.ok((found.structuredContent!.matches as unknown[]).length > 0);
        searchedMeanwhile = true;
      }
      await new Promise((wait) => setTimeout(wait, 50));
    }
    assert.ok(searchedMeanwhile, "a partial generation was published while the run went on");
    // Even finding the index current outlasts a 50 ms wait: call again until the answer comes.
    let done: ToolResult;
    do done = await call(client, "index", {}); while (done.structuredContent?.state === "indexing");
    assert.equal(done.structuredContent?.current, true, done.content[0].text);
  } finally {
    await client.close();
  }
});

Deno.test("mcp closed while an answered index run goes on stops it cleanly", async () => {
  const tree = await slowTree("wayfinder-mcp-bg-");
  const own = await dataEnv();
  const client = await connect([tree], undefined, own, QUICK_ANSWER(50));
  const answered = await call(client, "index", {});
  assert.equal(answered.structuredContent?.state, "indexing", answered.content[0].text);
  // Closing waits for the server to exit: for the run to stop and release its lock.
  await client.close();
  const status = JSON.parse(
    (await wayfinder(["status", tree, "--output", "json"], { ...env, ...own })).stdout,
  );
  assert.notEqual(status.state, "indexing");
  assert.equal(status.failure, undefined, "an abort is no failure");
  for (const left of ["lock", "progress.json", "last-failure.json"]) {
    assert.throws(() => Deno.statSync(join(status.indexDir, left)), Deno.errors.NotFound, left);
  }
});

Deno.test("mcp read_range says when a file changed or went since it was indexed", async () => {
  const tree = await Deno.makeTempDir({ prefix: "wayfinder-mcp-drift-" });
  await Deno.writeTextFile(
    join(tree, "kept.md"),
    "\uFEFF# Kept\n\nUnchanged, with a byte order mark.\n",
  );
  await Deno.writeTextFile(join(tree, "edited.md"), "# Edited\n\nThe first words.\n");
  await Deno.writeTextFile(join(tree, "gone.md"), "# Gone\n\nSoon deleted.\n");
  assert.equal((await wayfinder(["index", tree], env)).code, 0);
  await Deno.writeTextFile(join(tree, "edited.md"), "# Edited\n\nOther words.\n");
  await Deno.remove(join(tree, "gone.md"));
  const client = await connect([tree]);
  try {
    const kept = await call(client, "read_range", { path: "kept.md", lineStart: 1, lineEnd: 1 });
    assert.ok(!kept.isError, kept.content[0].text);
    assert.equal(kept.structuredContent?.changedSinceIndex, undefined);
    assert.equal(kept.content[0].text, "kept.md:1-1\n# Kept", "read as indexed: no mark, no note");
    for (const tool of ["read_range", "get_chunk"]) {
      const edited = await call(client, tool, { path: "edited.md", lineStart: 3, lineEnd: 3 });
      assert.ok(!edited.isError, edited.content[0].text);
      assert.equal(edited.structuredContent?.changedSinceIndex, true);
      assert.equal(edited.structuredContent?.content, "Other words.");
      assert.equal(
        edited.content[0].text,
        "note: edited.md changed since it was indexed; lines may not match search results " +
          "(call the index tool to index it again)\nedited.md:3-3\nOther words.",
      );
      for (const path of ["gone.md", join(tree, "gone.md")]) {
        const gone = await call(client, tool, { path, lineStart: 1, lineEnd: 1 });
        assert.equal(gone.isError, true);
        assert.equal(
          gone.content[0].text,
          `wayfinder: '${path}' was indexed but no longer exists; the index is behind the tree ` +
            "(call the index tool to bring it up to date)",
        );
      }
    }
    // A path the index never held is still refused as before.
    const never = await call(client, "read_range", { path: "never.md", lineStart: 1, lineEnd: 1 });
    assert.match(
      never.content[0].text,
      /^wayfinder: 'never\.md' is not a file inside a served root$/,
    );
    assert.equal((await call(client, "index", {})).isError, undefined);
    const current = await call(client, "read_range", {
      path: "edited.md",
      lineStart: 3,
      lineEnd: 3,
    });
    assert.equal(current.structuredContent?.changedSinceIndex, undefined, "indexed again");
  } finally {
    await client.close();
  }
});

Deno.test("mcp search text shows each hit's first lines under a citation that names its score's kind", async () => {
  const tree = await Deno.makeTempDir({ prefix: "wayfinder-mcp-text-" });
  const body = Array.from({ length: 20 }, (_, i) => `  const ocelot${i} = ${i};`).join("\n");
  await Deno.writeTextFile(
    join(tree, "ocelot.ts"),
    `export function ocelotCount(): number {\n${body}\n  return 20;\n}\n\n` +
      "export function ocelotName(): string {\n  return 'ocelot';\n}\n",
  );
  await Deno.writeTextFile(join(tree, "notes.md"), "# Notes\n\nThe ocelot sleeps by day.\n");
  assert.equal((await wayfinder(["index", tree], env)).code, 0);
  const client = await connect([tree]);
  try {
    const { tools } = await client.listTools();
    const search = tools.find((t: Tool) => t.name === "search")!;
    assert.match(search.description!, /cos is dense cosine similarity/);
    const output = search.outputSchema as { properties: Record<string, unknown> };
    assert.deepEqual(
      Object.keys(output.properties).sort(),
      ["context", "contextText", "matches", "notices", "query"],
    );

    const lexical = await call(client, "search", { query: "ocelotCount", mode: "lexical" });
    assert.ok(!lexical.isError, lexical.content[0].text);
    const text = lexical.content[0].text;
    const matches = lexical.structuredContent!.matches as { chunk: { id: string } }[];
    const long = matches[0]!.chunk;
    // Lexical search of a source tree is ordered by the code ranking stage.
    assert.match(text, /^1\. ocelot\.ts:1-23 ocelotCount \[ranked \d+\.\d{3}\]\n/);
    const lines = text.split("\n");
    assert.deepEqual(lines.slice(1, 10), [
      "    export function ocelotCount(): number {",
      ...Array.from({ length: 7 }, (_, i) => `      const ocelot${i} = ${i};`),
      `    … 15 more lines (get_chunk id=${long.id})`,
    ]);
    const whole = await call(client, "get_chunk", { id: long.id });
    assert.equal((whole.structuredContent!.content as string).split("\n").length, 8 + 15);
    // A short passage is shown whole.
    assert.match(
      text,
      /\n\d\. ocelot\.ts:25-27 ocelotName \[ranked [\d.]+\]\n {4}export function ocelotName\(\): string \{\n {6}return 'ocelot';\n {4}\}(\n|$)/,
    );

    for (
      // Hybrid on a source tree fuses after the code ranking stage: its score is a ranking one.
      const [mode, kind] of [["dense", /\[cos \d\.\d{3}\]/], [
        "hybrid",
        /\[ranked \d\.\d{3}\]/,
      ]] as const
    ) {
      const found = await call(client, "search", { query: "ocelot", mode });
      assert.ok(!found.isError, found.content[0].text);
      const cited = found.content[0].text.split("\n").filter((line) => /^\d+\. /.test(line));
      assert.ok(cited.length > 0 && cited.every((line) => kind.test(line)), found.content[0].text);
    }
    // Prompt context replaces the lines: citations, then the context.
    const context = await call(client, "search", {
      query: "ocelot",
      mode: "lexical",
      contextChars: 400,
      expand: true,
      diverse: true,
    });
    assert.ok(!context.isError, context.content[0].text);
    const [cites, rest] = context.content[0].text.split("\n\n");
    assert.ok(cites!.split("\n").every((line) => /^(\d+\. |note: )/.test(line)), cites);
    assert.ok(rest!.startsWith("## "), rest);
  } finally {
    await client.close();
  }
  // Reranking the best one only: it is labelled by the reranker's score, the rest by the fused
  // ranking's (hybrid, the default on a source tree).
  const reranker = join(tree, "..", `${tree.split("/").at(-1)}-reranker.gguf`);
  await writeTinyReranker(reranker);
  const reranking = await connect([tree, "--rerank", "1", "--reranker", reranker]);
  try {
    const found = await call(reranking, "search", { query: "ocelot", limit: 3 });
    assert.ok(!found.isError, found.content[0].text);
    const cited = found.content[0].text.split("\n").filter((line) => /^\d+\. /.test(line));
    assert.match(cited[0]!, /\[rerank \d\.\d{3}\]$/);
    assert.ok(cited.slice(1).every((line) => /\[ranked \d\.\d{3}\]$/.test(line)), cited.join("\n"));
  } finally {
    await reranking.close();
  }
});
