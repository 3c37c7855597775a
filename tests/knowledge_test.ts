/**
 * Knowledge bundles in `index` and `search`: concepts become passages with
 * their front matter as metadata, and a policy decides what is eligible and
 * what context comes with a match. Real index, tiny model.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { copyTree, REPO, wayfinder } from "./_run.ts";
import { tinyEnv } from "./_env.ts";

const BUNDLE = join(REPO, "fixtures", "okf", "knowledge");

interface Entry {
  reason: string;
  path: string;
  viaPath?: string;
  passage: { chunk: { sourcePath: string; type: string; content: string } };
}
interface Answer {
  matches: { chunk: { sourcePath: string; type: string; content: string } }[];
  context: Entry[];
  contextText?: string;
  notices: string[];
}

async function setup() {
  const root = await copyTree(BUNDLE);
  const env = await tinyEnv();
  const built = await wayfinder(["index", root, "--output", "json"], env);
  assert.equal(built.code, 0, built.stderr);
  return { root, env, summary: JSON.parse(built.stdout) };
}

async function ask(root: string, env: Record<string, string>, query: string, flags: string[] = []) {
  const run = await wayfinder(["search", root, query, "--output", "json", ...flags], env);
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout) as Answer;
}

Deno.test("a bundle's front matter, headings and footnotes are metadata, not passages", async () => {
  const { root, env } = await setup();
  const all = await ask(root, env, "recovery password email", ["--limit", "20"]);
  const bodies = all.matches.filter((m) => m.chunk.sourcePath !== "guidance/only-notes.md");
  const types = new Set(bodies.map((m) => m.chunk.type));
  assert.ok(!types.has("front_matter") && !types.has("footnote"), [...types].join(", "));
  assert.ok(!types.has("heading"), "a bare heading is not a passage");
  const paths = all.matches.map((m) => m.chunk.sourcePath);
  assert.equal(new Set(paths).size, paths.length, "one passage per concept");
  assert.ok(!paths.some((p) => p.endsWith("index.md")), "reserved files are not concepts");
  // A concept with nothing but a heading and a footnote keeps them.
  assert.ok(paths.includes("guidance/only-notes.md"));
  // Source citation lines stay in the passage.
  const recovery = all.matches.find((m) => m.chunk.sourcePath === "guidance/recovery.md")!;
  assert.match(recovery.chunk.content, /\[\^1\]/);
});

Deno.test("--current drops deprecated and stale concepts as of a date; drafts stay", async () => {
  const { root, env } = await setup();
  const everything = await ask(root, env, "recovery rotation", ["--limit", "20"]);
  const everyPath = everything.matches.map((m) => m.chunk.sourcePath);
  assert.ok(
    everyPath.includes("history/recovery.md") && everyPath.includes("guidance/rotation.md"),
  );
  const now = await ask(root, env, "recovery rotation", [
    "--limit",
    "20",
    "--current",
    "--as-of",
    "2026-09-09",
  ]);
  const nowPaths = now.matches.map((m) => m.chunk.sourcePath);
  assert.ok(!nowPaths.includes("history/recovery.md"), "deprecated");
  assert.ok(!nowPaths.includes("guidance/rotation.md"), "past stale_after");
  const before = await ask(root, env, "rotation", [
    "--limit",
    "20",
    "--current",
    "--as-of",
    "2025-06-01",
  ]);
  assert.ok(
    before.matches.some((m) => m.chunk.sourcePath === "guidance/rotation.md"),
    "not yet stale",
  );
  const typed = await ask(root, env, "transport", ["--limit", "20", "--concept-type", "Standard"]);
  assert.deepEqual(typed.matches.map((m) => m.chunk.sourcePath), ["standard/transport.md"]);
  const scoped = await ask(root, env, "transport", ["--limit", "20", "--path-prefix", "impl"]);
  assert.deepEqual(scoped.matches.map((m) => m.chunk.sourcePath), ["impl/transport.md"]);
});

Deno.test("a governing source comes before the concept it governs, with its reason", async () => {
  const { root, env } = await setup();
  const answer = await ask(root, env, "Local diagnostic endpoints may use plain transport", [
    "--limit",
    "1",
    "--path-prefix",
    "impl",
    "--governing",
    "impl/transport.md=standard/transport.md",
  ]);
  assert.deepEqual(answer.matches.map((m) => m.chunk.sourcePath), ["impl/transport.md"]);
  assert.deepEqual(answer.context.map((e) => [e.reason, e.path, e.viaPath ?? null]), [
    ["governing", "standard/transport.md", "impl/transport.md"],
    ["match", "impl/transport.md", null],
  ]);
  const lines = await wayfinder([
    "search",
    root,
    "Local diagnostic endpoints may use plain transport",
    "--output",
    "jsonl",
    "--limit",
    "1",
    "--path-prefix",
    "impl",
    "--governing",
    "impl/transport.md=standard/transport.md",
  ], env);
  assert.deepEqual(
    lines.stdout.trim().split("\n").map((line) => JSON.parse(line) as Entry).map((e) => e.reason),
    ["governing", "match"],
    "jsonl carries the context entries in reading order",
  );
  // A budget for one passage holds the match, not the source governing it.
  const tight = await ask(root, env, "Local diagnostic endpoints may use plain transport", [
    "--limit",
    "1",
    "--path-prefix",
    "impl",
    "--governing",
    "impl/transport.md=standard/transport.md",
    "--context-chars",
    "200",
  ]);
  assert.match(tight.contextText!, /^## impl\/transport\.md:/);
  assert.doesNotMatch(tight.contextText!, /standard\/transport\.md/);
  const chained = await ask(root, env, "Local diagnostic endpoints may use plain transport", [
    "--limit",
    "1",
    "--path-prefix",
    "impl",
    "--governing",
    "impl/transport.md=standard/transport.md",
    "--governing",
    "standard/transport.md=guidance/rotation.md",
  ]);
  assert.deepEqual(chained.context.map((e) => [e.reason, e.path, e.viaPath ?? null]), [
    ["governing", "guidance/rotation.md", "standard/transport.md"],
    ["governing", "standard/transport.md", "impl/transport.md"],
    ["match", "impl/transport.md", null],
  ], "a chain is read from the top down");
  const excluded = await ask(root, env, "plain transport", [
    "--limit",
    "1",
    "--path-prefix",
    "impl",
    "--governing",
    "impl/transport.md=history/recovery.md",
    "--current",
  ]);
  assert.match(
    excluded.notices.join("\n"),
    /governing source history\/recovery\.md of impl\/transport\.md is excluded/,
  );

  const unknown = await wayfinder(
    ["search", root, "x", "--governing", "impl/transport.md=nope.md"],
    env,
  );
  assert.equal(unknown.code, 2);
  assert.match(
    unknown.stderr,
    /^wayfinder: Invalid value "impl\/transport\.md=nope\.md" for --governing: 'nope\.md' is not a concept/,
  );
  const cycle = await wayfinder([
    "search",
    root,
    "x",
    "--governing",
    "impl/transport.md=standard/transport.md",
    "--governing",
    "standard/transport.md=impl/transport.md",
  ], env);
  assert.equal(cycle.code, 2);
  assert.match(cycle.stderr, /is a cycle\n$/);
  const twice = await wayfinder([
    "search",
    root,
    "x",
    "--governing",
    "impl/transport.md=standard/transport.md",
    "--governing",
    "impl/transport.md=history/recovery.md",
  ], env);
  assert.equal(twice.code, 2);
  assert.match(twice.stderr, /impl\/transport\.md is already governed by standard\/transport\.md/);
  for (
    const [flags, message] of [
      [["--current", "--as-of", "2026-02-30"], /Invalid value "2026-02-30" for --as-of: expected/],
      [["--current", "--as-of", "2026-1-5"], /Invalid value "2026-1-5" for --as-of: expected/],
      [["--as-of", "2026-02-01"], /--as-of applies only with --current/],
    ] as const
  ) {
    const run = await wayfinder(["search", root, "x", ...flags], env);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, message);
  }
  // A bad value in wayfinder.json is named there, not as a flag nobody gave.
  for (
    const [knowledge, message] of [
      [{ current: true, asOf: "2026-9-9" }, /for wayfinder\.json 'knowledge\.asOf': expected/],
      [
        { governing: { "nope.md": "impl/transport.md" } },
        /for wayfinder\.json 'knowledge\.governing': 'nope\.md' is not a concept/,
      ],
      [
        { governing: { "a.md": "b.md=c.md" } },
        /for wayfinder\.json 'knowledge\.governing': expected lower\.md=governing\.md/,
      ],
    ] as const
  ) {
    await Deno.writeTextFile(join(root, "wayfinder.json"), JSON.stringify({ knowledge }));
    const run = await wayfinder(["search", root, "x", "--mode", "lexical"], env);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, message);
    assert.doesNotMatch(run.stderr, /--as-of|--governing/);
  }
});

Deno.test("--expand-links adds linked concepts one hop away and names links that lead nowhere", async () => {
  const { root, env } = await setup();
  const answer = await ask(root, env, "single-use recovery link", [
    "--limit",
    "1",
    "--path-prefix",
    "guidance/recovery.md",
    "--expand-links",
  ]);
  assert.deepEqual(answer.context.map((e) => [e.reason, e.path, e.viaPath ?? null]), [
    ["match", "guidance/recovery.md", null],
    ["relationship", "history/recovery.md", "guidance/recovery.md"],
  ]);
  const notices = answer.notices.join("\n");
  assert.match(notices, /link from guidance\/recovery\.md to guidance\/gone\.md does not resolve/);
  // A folder link resolves to the folder's index.md: /standard/ has one, /impl/ has none.
  assert.match(notices, /link from guidance\/recovery\.md to impl\/index\.md does not resolve/);
  assert.doesNotMatch(notices, /standard\/index\.md/);
  assert.match(
    notices,
    /link from guidance\/recovery\.md to \.\.\/\.\.\/wiki\/recovery\.md leads out of the bundle/,
  );
  const current = await ask(root, env, "single-use recovery link", [
    "--limit",
    "1",
    "--path-prefix",
    "guidance/recovery.md",
    "--expand-links",
    "--current",
  ]);
  assert.deepEqual(current.context.map((e) => e.path), ["guidance/recovery.md"]);
  assert.match(
    current.notices.join("\n"),
    /linked concept history\/recovery\.md of guidance\/recovery\.md is excluded by the policy/,
  );
});

Deno.test("a governing source or linked concept sharing no word with a lexical query still comes as context", async () => {
  const { root, env } = await setup();
  const governed = await ask(root, env, "debugging", [
    "--mode",
    "lexical",
    "--governing",
    "impl/transport.md=standard/transport.md",
  ]);
  assert.deepEqual(governed.context.map((e) => [e.reason, e.path]), [
    ["governing", "standard/transport.md"],
    ["match", "impl/transport.md"],
  ]);
  assert.deepEqual(governed.notices, [], "nothing was excluded: no policy was given");
  const linked = await ask(root, env, "single-use", [
    "--mode",
    "lexical",
    "--limit",
    "1",
    "--expand-links",
  ]);
  assert.deepEqual(linked.context.map((e) => [e.reason, e.path]), [
    ["match", "guidance/recovery.md"],
    ["relationship", "history/recovery.md"],
  ]);
  assert.doesNotMatch(linked.notices.join("\n"), /excluded/);
});

Deno.test("--expand-links tells a link to a file the index leaves out from one to nothing", async () => {
  const root = await copyTree(BUNDLE);
  const env = await tinyEnv();
  const guidance = join(root, "guidance");
  await Deno.writeFile(join(guidance, "diagram.png"), new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0]));
  await Deno.writeTextFile(join(guidance, "schema.json"), "{}\n");
  await Deno.writeTextFile(join(guidance, "draft.md"), "---\ntitle: Draft\n---\n\nNot yet.\n");
  await Deno.writeTextFile(join(root, ".gitignore"), "schema.json\ndraft.md\n");
  const outside = await Deno.makeTempDir();
  await Deno.writeTextFile(join(outside, "secret.md"), "# Secret\n");
  await Deno.symlink(join(outside, "secret.md"), join(guidance, "secret.md"));
  const path = join(guidance, "recovery.md");
  await Deno.writeTextFile(
    path,
    (await Deno.readTextFile(path)).replace(
      "[a missing page](gone.md)",
      "[a missing page](gone.md), [the flow](diagram.png), [its schema](schema.json), " +
        "[the draft](draft.md), [a secret](secret.md)",
    ),
  );
  assert.equal((await wayfinder(["index", root], env)).code, 0);
  const answer = await ask(root, env, "single-use recovery link", [
    "--limit",
    "1",
    "--path-prefix",
    "guidance/recovery.md",
    "--expand-links",
  ]);
  const notices = answer.notices.join("\n");
  assert.doesNotMatch(notices, /diagram\.png|schema\.json/, "they exist; only concepts expand");
  assert.match(
    notices,
    /link from guidance\/recovery\.md to guidance\/draft\.md leads to a file the index leaves out/,
  );
  assert.match(notices, /to guidance\/gone\.md does not resolve/);
  assert.match(notices, /to guidance\/secret\.md does not resolve/, "a symlink out of the bundle");
});

Deno.test("a concept of nothing but front matter is found by its title and description, and can govern", async () => {
  const { root, env } = await setup();
  await Deno.writeTextFile(
    join(root, "standard", "policy.md"),
    "---\ntype: Standard\ntitle: Encryption policy\ndescription: All traffic is encrypted in transit.\n---\n",
  );
  assert.equal((await wayfinder(["index", root], env)).code, 0);
  const found = await ask(root, env, "encryption policy", ["--mode", "lexical", "--limit", "1"]);
  assert.deepEqual(
    found.matches.map((m) => [m.chunk.sourcePath, m.chunk.type, m.chunk.content]),
    [["standard/policy.md", "summary", "All traffic is encrypted in transit."]],
  );
  const governed = await ask(root, env, "plain transport", [
    "--limit",
    "1",
    "--path-prefix",
    "impl",
    "--governing",
    "impl/transport.md=standard/policy.md",
  ]);
  assert.deepEqual(governed.context.map((e) => [e.reason, e.path]), [
    ["governing", "standard/policy.md"],
    ["match", "impl/transport.md"],
  ]);
});

Deno.test("a metadata-only edit reuses vectors; deleting a concept removes it", async () => {
  const { root, env, summary } = await setup();
  assert.ok(summary.embeddedChunks > 0);
  const path = join(root, "guidance", "rotation.md");
  await Deno.writeTextFile(
    path,
    (await Deno.readTextFile(path)).replace("status: stable", "status: draft"),
  );
  await Deno.remove(join(root, "history", "recovery.md"));
  const again = await wayfinder(["index", root, "--output", "json"], env);
  assert.equal(again.code, 0, again.stderr);
  const after = JSON.parse(again.stdout);
  assert.equal(after.embeddedChunks, 0, "the embedding inputs did not change");
  assert.equal(after.files.deleted, 1);
  const answer = await ask(root, env, "recovery", ["--limit", "20"]);
  assert.ok(!answer.matches.some((m) => m.chunk.sourcePath === "history/recovery.md"));
});

Deno.test("a folder that comes to declare okf_version is stale, then rebuilt as a bundle by a plain index", async () => {
  const root = await copyTree(BUNDLE);
  const env = await tinyEnv();
  // Indexed as plain Markdown first, while its index.md declared no okf_version.
  const declared = await Deno.readTextFile(join(root, "index.md"));
  await Deno.writeTextFile(join(root, "index.md"), declared.replace(/^---\n[\s\S]*?\n---\n/, ""));
  assert.equal((await wayfinder(["index", root], env)).code, 0);
  await Deno.writeTextFile(join(root, "index.md"), declared);

  const status = await wayfinder(["status", root, "--output", "json"], env);
  assert.equal(JSON.parse(status.stdout).state, "stale");
  assert.match(status.stdout, /embedding input format plain v1 → okf-context-v2/);
  const before = await ask(root, env, "recovery", ["--current"]);
  assert.match(before.notices.join("\n"), /built another way .*run 'wayfinder index/);
  assert.match(
    before.notices.join("\n"),
    /knowledge policy was ignored: .* \(its index\.md now declares okf_version but the index predates that; run 'wayfinder index /,
  );

  const rebuilt = await wayfinder(["index", root, "--output", "json"], env);
  assert.equal(rebuilt.code, 0, rebuilt.stderr);
  assert.equal(JSON.parse(rebuilt.stdout).reusedChunks, 0, "no vector of the old inputs fits");
  const after = await ask(root, env, "recovery", ["--current", "--limit", "20"]);
  // Only what --current dropped is named: the index is current and the policy applies.
  assert.deepEqual(after.notices.filter((notice) => !/ matched better but /.test(notice)), []);
  assert.ok(!after.matches.some((m) => m.chunk.sourcePath === "history/recovery.md"), "deprecated");
  assert.ok(!after.matches.some((m) => m.chunk.type === "front_matter"));
});

Deno.test("--no-knowledge is kept for a folder that declares okf_version, until chosen otherwise", async () => {
  const root = await copyTree(BUNDLE);
  const env = await tinyEnv();
  assert.equal((await wayfinder(["index", root, "--no-knowledge"], env)).code, 0);
  const plain = await wayfinder(["status", root, "--output", "json"], env);
  assert.equal(JSON.parse(plain.stdout).state, "ready", plain.stdout);
  const again = await wayfinder(["index", root, "--output", "json"], env);
  assert.equal(JSON.parse(again.stdout).current, true, "a plain index stays plain");
  assert.equal(
    JSON.parse((await wayfinder(["status", root, "-o", "json"], env)).stdout).state,
    "ready",
  );
  const bundle = await wayfinder(["index", root, "--knowledge", "--output", "json"], env);
  assert.equal(JSON.parse(bundle.stdout).current, false, "--knowledge turns it back on");
});

Deno.test("an edit to a concept's title, description or heading re-embeds it; a status edit does not", async () => {
  const { root, env } = await setup();
  const path = join(root, "guidance", "recovery.md");
  const original = await Deno.readTextFile(path);
  const reindex = async (text: string) => {
    await Deno.writeTextFile(path, text);
    const run = await wayfinder(["index", root, "--output", "json"], env);
    assert.equal(run.code, 0, run.stderr);
    return JSON.parse(run.stdout).embeddedChunks as number;
  };
  assert.equal(await reindex(original.replace("status: stable", "status: draft")), 0);
  assert.ok(await reindex(original.replace("title: Account recovery", "title: Lost access")) > 0);
  assert.ok(
    await reindex(original.replace("How people get back", "How users get back")) > 0,
    "description",
  );
  // Same lines, same passage text: only the heading path in the input changes.
  assert.ok(await reindex(original.replace("# Regaining access", "# Getting back in")) > 0);
});

Deno.test("text and context name each concept's title and lifecycle, and what a governing source governs", async () => {
  const { root, env } = await setup();
  const query = "Email the administrator your current password";
  const text = await wayfinder(["search", root, query, "--limit", "1"], env);
  assert.equal(text.code, 0, text.stderr);
  assert.match(
    text.stdout,
    /^\[match\] history\/recovery\.md:\d+-\d+ .*\n {2}Account recovery before self-service \(Guideline, deprecated\)\n/,
  );
  const governed = await wayfinder([
    "search",
    root,
    "Local diagnostic endpoints may use plain transport",
    "--limit",
    "1",
    "--path-prefix",
    "impl",
    "--governing",
    "impl/transport.md=standard/transport.md",
    "--context-chars",
    "2000",
  ], env);
  assert.equal(governed.code, 0, governed.stderr);
  const headings = governed.stdout.split("\n").filter((line) => line.startsWith("## "));
  assert.deepEqual(headings, [
    "## standard/transport.md:6-6 (paragraph) — Transport security (Standard); governs impl/transport.md",
    "## impl/transport.md:6-6 (paragraph) — Diagnostic transport (Implementation)",
  ]);
});
