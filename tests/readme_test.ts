/**
 * The README is a front page: at most 300 lines, opening with the two
 * commands the project promises, and every `deno task wayfinder` command of
 * its tour running as written from the root of a checkout, with the exit code
 * its comment gives (`# … exit 1`; 0 when it gives none).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO, tinyModel } from "./_run.ts";

const README = readFileSync(join(REPO, "README.md"), "utf8");

/** The lines of the README's `sh` blocks. */
function shellLines(): string[] {
  return [...README.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.trimEnd().split("\n"));
}

/** A command line split into words as a POSIX shell would, quotes removed, `# comment` dropped. */
function shellWords(line: string): { words: string[]; comment: string } {
  const words: string[] = [];
  let word: string | undefined;
  let quote = "";
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = "";
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      word ??= "";
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "#" && word === undefined) {
      return { words, comment: line.slice(i + 1).trim() };
    } else word = (word ?? "") + c;
  }
  assert.equal(quote, "", `unbalanced quote in: ${line}`);
  if (word !== undefined) words.push(word);
  return { words, comment: "" };
}

Deno.test("the README is a front page of at most 300 lines", () => {
  const lines = README.trimEnd().split("\n").length;
  assert.ok(lines <= 300, `${lines} lines`);
});

Deno.test("the README opens with the two commands, and deno.json has their tasks", () => {
  const [first, second] = shellLines().map((line) => shellWords(line).words.join(" "));
  assert.equal(first, "npm install --global deno@2.9.6 && deno task demo");
  assert.equal(second, "deno task test");
  const { tasks } = JSON.parse(readFileSync(join(REPO, "deno.json"), "utf8"));
  for (const task of ["demo", "test", "wayfinder", "bench", "compile"]) {
    assert.ok(tasks[task], `deno.json has the task ${task}`);
  }
});

Deno.test("every wayfinder command of the README's tour runs as written", async () => {
  const commands = shellLines().filter((line) => line.startsWith("deno task wayfinder "));
  assert.ok(commands.length >= 8, `the tour has ${commands.length} commands`);
  const dataDir = await Deno.makeTempDir({ prefix: "wayfinder-readme-" });
  // The environment of a shell with no wayfinder settings, and the tiny model in place of the
  // one `deno task demo` stages, so the run takes seconds.
  const env = Object.fromEntries(
    Object.entries(Deno.env.toObject()).filter(([name]) => !name.startsWith("WAYFINDER_")),
  );
  Object.assign(env, {
    NO_COLOR: "1",
    WAYFINDER_DATA_DIR: dataDir,
    WAYFINDER_EMBEDDING_MODEL: tinyModel(),
    WAYFINDER_THREADS: "1",
  });
  try {
    for (const line of commands) {
      const { words, comment } = shellWords(line);
      const expected = Number(/\bexit (\d+)/.exec(comment)?.[1] ?? 0);
      const run = await new Deno.Command(Deno.execPath(), {
        args: words.slice(1), // `deno` is this Deno
        cwd: REPO,
        env,
        clearEnv: true,
        stdin: "null", // mcp serves until its input closes
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(run.stderr);
      assert.equal(run.code, expected, `${line}\n${stderr}`);
      assert.ok(run.stdout.length > 0 || words.includes("mcp"), `${line} printed nothing`);
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
