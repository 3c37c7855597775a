/**
 * What an index may hold and where: nothing from outside the root, never
 * itself, in owner-only folders; and text output that a terminal shows
 * rather than obeys.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { copyTree, firstLineThenStop, tinyModel, wayfinder } from "./_run.ts";
import { CORPUS, SERVICES, tinyEnv } from "./_env.ts";

/** Every byte under a folder, as text, for grepping an index for what it must not hold. */
async function allText(dir: string): Promise<string> {
  let text = "";
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) text += await allText(path);
    else if (entry.isFile) text += new TextDecoder().decode(await Deno.readFile(path));
  }
  return text;
}

Deno.test("content from outside the root never reaches the index", async () => {
  const outside = await Deno.makeTempDir();
  await Deno.writeTextFile(join(outside, "secret.txt"), "TOPSECRET-MARKER outside the root\n");
  const root = await copyTree(SERVICES);
  await Deno.symlink(join(outside, "secret.txt"), join(root, "leak.txt"));
  await Deno.symlink(outside, join(root, "elsewhere"));
  await Deno.writeTextFile(join(root, "notes.md"), "See [the secret](../secret.txt).\n");
  const env = await tinyEnv();
  const dataDir = env.WAYFINDER_DATA_DIR;
  const run = await wayfinder(["index", root, "--include", "**", "--output", "json"], env);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(JSON.parse(run.stdout).files.skipped, 2, "both links are skipped");
  assert.ok(!(await allText(dataDir)).includes("TOPSECRET-MARKER"));
});

Deno.test("the data and index folders are created owner-only", async () => {
  const root = await copyTree(SERVICES);
  const dataDir = join(await Deno.makeTempDir(), "fresh", "data");
  const env = { WAYFINDER_DATA_DIR: dataDir, WAYFINDER_EMBEDDING_MODEL: tinyModel() };
  const run = await wayfinder(["index", root, "--output", "json"], env);
  assert.equal(run.code, 0, run.stderr);
  const indexDir = JSON.parse(run.stdout).index;
  for (const dir of [dataDir, join(dataDir, "indexes"), indexDir]) {
    assert.equal((await Deno.stat(dir)).mode! & 0o777, 0o700, dir);
  }
});

Deno.test("index files stay owner-only in a folder others may read, under umask 000", async () => {
  const root = await copyTree(SERVICES);
  const indexDir = join(await Deno.makeTempDir(), "preidx");
  await Deno.mkdir(indexDir);
  await Deno.chmod(indexDir, 0o755);
  const env = await tinyEnv();
  const before = Deno.umask(0); // the child inherits it
  try {
    const run = await wayfinder(["index", root, "--index-dir", indexDir], env);
    assert.equal(run.code, 0, run.stderr);
  } finally {
    Deno.umask(before);
  }
  const live = (await Deno.readTextFile(join(indexDir, "current"))).trim();
  const loose: string[] = [];
  for (const dir of [indexDir, join(indexDir, live)]) {
    for await (const entry of Deno.readDir(dir)) {
      const mode = (await Deno.stat(join(dir, entry.name))).mode! & 0o777;
      if (mode !== (entry.isDirectory ? 0o700 : 0o600)) {
        loose.push(`${entry.name} ${mode.toString(8)}`);
      }
    }
  }
  assert.deepEqual(loose, []);
});

Deno.test("search text output escapes control characters in paths and passages", async () => {
  const root = await Deno.makeTempDir();
  const name = "evil\x1b[31mred.md";
  const passage =
    "Rotate the quasarkey \x1b]0;pwned\x07 now\r\nthen \x1b[2J clear \u202eesrever\r\n";
  await Deno.writeTextFile(join(root, name), `# Keys\r\n\r\n${passage}`);
  const env = await tinyEnv();
  assert.equal((await wayfinder(["index", root], env)).code, 0);

  const text = await wayfinder(["search", root, "quasarkey", "--mode", "lexical"], env);
  assert.equal(text.code, 0, text.stderr);
  // deno-lint-ignore no-control-regex
  assert.doesNotMatch(text.stdout, /[\x1b\x07\r\u202e]/);
  assert.match(text.stdout, /^evil\\x1b\[31mred\.md:3-4 /);
  assert.match(
    text.stdout,
    /quasarkey \\x1b\]0;pwned\\x07 now\n {4}then \\x1b\[2J clear \\u202eesrever/,
  );

  const context = await wayfinder(
    ["search", root, "quasarkey", "--mode", "lexical", "--context-chars", "500"],
    env,
  );
  // deno-lint-ignore no-control-regex
  assert.doesNotMatch(context.stdout, /[\x1b\x07\u202e]/);

  // JSON carries the text as it is: JSON escaping is enough there.
  const json = await wayfinder(
    ["search", root, "quasarkey", "--mode", "lexical", "-o", "json"],
    env,
  );
  const hit = JSON.parse(json.stdout).matches[0].chunk;
  assert.equal(hit.sourcePath, name);
  assert.equal(hit.content, passage.trimEnd());
});

Deno.test("an index folder in the tree is never indexed; the tree itself is refused", async () => {
  const root = await copyTree(SERVICES);
  const env = await tinyEnv();
  const itself = await wayfinder(["index", root, "--index-dir", root], env);
  assert.equal(itself.code, 2);
  assert.match(
    itself.stderr,
    /^wayfinder: Cannot keep the index of .* choose another --index-dir\n$/,
  );

  const inside = join(root, ".index");
  for (const round of [1, 2]) {
    const run = await wayfinder(["index", root, "--index-dir", inside, "-o", "json"], env);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).files.seen, 5, `round ${round}`);
    if (round === 2) assert.equal(JSON.parse(run.stdout).current, true);
  }

  await Deno.remove(inside, { recursive: true });

  // A data folder inside the tree, as wayfinder.json may name it.
  await Deno.writeTextFile(join(root, "wayfinder.json"), JSON.stringify({ dataDir: ".wayfinder" }));
  const { WAYFINDER_DATA_DIR: _, ...noData } = env;
  for (const round of [1, 2]) {
    const run = await wayfinder(["index", root, "-o", "json"], noData);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(
      JSON.parse(run.stdout).files.seen,
      5,
      `round ${round}: the tree, without the tool's own wayfinder.json`,
    );
    if (round === 2) assert.equal(JSON.parse(run.stdout).current, true);
  }
  // fit-inputs walks what index walks: neither the data folder nor wayfinder.json.
  const fit = await wayfinder(["fit-inputs", root, "-o", "json"], noData);
  assert.equal(fit.code, 0, fit.stderr);
  assert.deepEqual(JSON.parse(fit.stdout).files, { seen: 5, skipped: 0 });
  assert.ok((await Deno.stat(join(root, ".wayfinder", "indexes"))).isDirectory);
});

Deno.test("an --index-dir reaching the tree through a symlink, or a folder of other files, is refused", async () => {
  const root = await copyTree(SERVICES);
  const env = { WAYFINDER_EMBEDDING_MODEL: tinyModel() };
  const link = `${root}-link`;
  await Deno.symlink(root, link);
  const refused = async (args: string[], why: RegExp) => {
    const run = await wayfinder(args, env);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, why);
    assert.equal(run.stderr.split("\n").length, 2, run.stderr);
  };
  const holdsTree = /^wayfinder: Cannot keep the index of .*: it holds the tree itself;/;
  await refused(["index", root, "--index-dir", link], holdsTree);
  await refused(["index", link, "--index-dir", root], holdsTree);
  await refused(["status", root, "--index-dir", link], holdsTree);
  const before = (await Array.fromAsync(Deno.readDir(root))).length;

  // A source folder of the tree: indexing into it would mix the index into the sources.
  const src = join(root, "src");
  await Deno.mkdir(src);
  await Deno.writeTextFile(join(src, "alpha.ts"), "export const alpha = 1;\n");
  await refused(
    ["index", root, "--index-dir", src],
    /^wayfinder: Cannot keep the index of .* in '.*\/src': it is a folder of other files, not a wayfinder index;/,
  );
  assert.deepEqual((await Array.fromAsync(Deno.readDir(src))).map((e) => e.name), ["alpha.ts"]);
  assert.equal((await Array.fromAsync(Deno.readDir(root))).length, before + 1, "nothing written");

  // An empty folder, and then the index it became, are fine.
  const empty = await Deno.makeTempDir();
  for (const round of [1, 2]) {
    const run = await wayfinder(["index", root, "--index-dir", empty, "-o", "json"], env);
    assert.equal(run.code, 0, `round ${round}: ${run.stderr}`);
    assert.equal(JSON.parse(run.stdout).files.seen, 6);
  }
});

Deno.test("an --index-dir that is a file, or lies under one, is refused in one line", async () => {
  const root = await copyTree(SERVICES);
  const file = `${root}-file`;
  await Deno.writeTextFile(file, "not a folder\n");
  const env = { WAYFINDER_EMBEDDING_MODEL: tinyModel() };
  for (const command of ["index", "status", "watch"]) {
    for (const [indexDir, which] of [[file, "it"], [join(file, "sub"), `'${file}'`]]) {
      const run = await wayfinder([command, root, "--index-dir", indexDir], env);
      assert.equal(run.code, 2, run.stderr);
      assert.equal(
        run.stderr,
        `wayfinder: Cannot keep the index of ${root} in '${indexDir}': ${which} is a file, not a directory; choose another --index-dir\n`,
      );
    }
  }
  assert.equal(await Deno.readTextFile(file), "not a folder\n");
});

Deno.test("a root whose name holds control characters is escaped in every text line", async () => {
  const parent = await Deno.makeTempDir();
  const root = join(parent, "r\x1b[31mroot");
  await Deno.mkdir(root);
  await Deno.writeTextFile(join(root, "keys.md"), "# Keys\n\nRotate the signing keys.\n");
  const env = await tinyEnv();
  const outputs: string[] = [];
  const run = async (args: string[], code: number) => {
    const result = await wayfinder(args, env);
    assert.equal(result.code, code, `${args[0]}: ${result.stderr}`);
    outputs.push(result.stdout, result.stderr);
    return result;
  };
  assert.match((await run(["index", root], 0)).stdout, /^Indexed .*r\\x1b\[31mroot: /);
  assert.match((await run(["index", root], 0)).stdout, /^Index for .*\\x1b.* is current/);
  assert.match((await run(["fit-inputs", root], 0)).stdout, /r\\x1b\[31mroot: 1 file/);
  assert.match((await run(["status", root], 0)).stdout, /^ready {2}.*\\x1b/);
  await Deno.writeTextFile(join(root, "new.md"), "# New\n");
  assert.match((await run(["search", root, "keys"], 0)).stderr, /^note: .*\\x1b\[31mroot'/m);
  const missing = await run(["index", join(parent, "\x1bnope")], 2);
  assert.match(missing.stderr, /^wayfinder: '.*\\x1bnope' does not exist/);

  // watch's first line names the root too.
  const { first, stderr } = await firstLineThenStop(["watch", root], env);
  outputs.push(first, stderr);
  assert.match(first, /watching: .*r\\x1b\[31mroot, /);

  for (const text of outputs) assert.ok(!text.includes("\x1b"), JSON.stringify(text));
});

Deno.test("an --index-dir holding another tree's index is neither searched nor replaced unasked", async () => {
  const env = { WAYFINDER_EMBEDDING_MODEL: tinyModel() };
  const indexDir = join(await Deno.makeTempDir(), "shared-index");
  const first = await copyTree(SERVICES);
  const second = await copyTree(join(CORPUS, "utils"));
  const run = (args: string[]) => wayfinder([...args, "--index-dir", indexDir], env);
  assert.equal((await run(["index", first])).code, 0);
  for (const args of [["index", second], ["search", second, "log"]]) {
    const refused = await run(args);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(
      refused.stderr,
      new RegExp(
        `^wayfinder: Cannot use index at .*: it indexes ${first}, not ${second}; .*--rebuild`,
      ),
    );
  }
  assert.equal(
    (await run(["search", first, "payment"])).code,
    0,
    "the first tree's index is intact",
  );
  assert.equal((await run(["index", second, "--rebuild"])).code, 0, "--rebuild replaces it");
  assert.equal((await run(["search", second, "log"])).code, 0);
  assert.equal((await run(["search", first, "payment"])).code, 2);
});
