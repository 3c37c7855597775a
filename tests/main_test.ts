/** The front door (main.ts): help, debug output and exit codes of every command. */
import assert from "node:assert/strict";
import { COMMANDS } from "../commands/mod.ts";
import { join } from "node:path";
import { wayfinder } from "./_run.ts";

Deno.test("every command and group answers --help and -h on stdout with exit 0", async () => {
  const groups = [...new Set(Object.keys(COMMANDS).filter((n) => n.includes(" ")))]
    .map((n) => n.split(" ")[0]!);
  const asks = [...Object.keys(COMMANDS), ...new Set(groups)]
    .flatMap((name) => [[...name.split(" "), "--help"], [...name.split(" "), "-h"]]);
  const runs = await Promise.all(asks.map((args) => wayfinder(args)));
  runs.forEach((run, i) => {
    const name = asks[i]!.slice(0, -1).join(" ");
    assert.equal(run.code, 0, `${asks[i]!.join(" ")}: ${run.stderr}`);
    assert.equal(run.stderr, "", asks[i]!.join(" "));
    assert.match(run.stdout, new RegExp(`^Usage: wayfinder ${name} `), asks[i]!.join(" "));
  });
  const model = runs[asks.findIndex((args) => args.join(" ") === "model --help")]!;
  assert.match(model.stdout, /^ {2}prepare {2}.*\n {2}import {3}/m);
});

Deno.test("a bare group or an unknown command is a usage error", async () => {
  const bare = await wayfinder(["model"]);
  assert.equal(bare.code, 2);
  assert.equal(
    bare.stderr,
    "wayfinder: 'wayfinder model' needs one of: prepare, import, distill; see 'wayfinder model --help'\n",
  );
  const unknown = await wayfinder(["frobnicate"]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /^wayfinder: Unknown command 'frobnicate'/);
});

Deno.test("--debug adds the stack to an error, one met before the settings too", async () => {
  for (const command of ["index", "get", "validate"]) {
    const plain = await wayfinder([command, "--bogus"]);
    const debug = await wayfinder([command, "--bogus", "--debug"]);
    for (const run of [plain, debug]) {
      assert.equal(run.code, 2);
      assert.match(
        run.stderr,
        new RegExp(`^wayfinder: Unknown flag '--bogus' for 'wayfinder ${command}'`),
      );
    }
    assert.doesNotMatch(plain.stderr, /^\s+at /m);
    assert.match(debug.stderr, /^WayfinderError: Unknown flag/m);
    assert.match(debug.stderr, /^\s+at parseFlags \(/m);
  }
  // An error without a cause, met after the settings are resolved, shows its own.
  const missing = await wayfinder(["index", "/nonexistent/wayfinder-root", "--debug"]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /^\s+at /m);
});

Deno.test("every command that takes a folder says the same of a missing one, a file and /", async () => {
  const dir = await Deno.makeTempDir();
  const file = join(dir, "file.txt");
  await Deno.writeTextFile(file, "text\n");
  const env = { WAYFINDER_DATA_DIR: dir };
  const cases = [
    [join(dir, "missing"), `'${join(dir, "missing")}' does not exist`],
    [join(file, "below"), `'${join(file, "below")}' does not exist`],
    [file, `'${file}' is a file, not a directory`],
    ["/", "'/' is the filesystem root, not a project directory"],
  ];
  // The words after the folder: search's query.
  const commands: [string, ...string[]][] = [
    ["index"],
    ["search", "query"],
    ["status"],
    ["watch"],
    ["fit-inputs"],
    ["validate"],
    ["get"],
  ];
  const asks = commands.flatMap(([name, ...after]) =>
    cases.filter(([path]) => !(name === "get" && path === file)) // get reads a file's folder
      .map(([path, message]) => ({ args: [name, path!, ...after], message }))
  );
  const runs = await Promise.all(asks.map(({ args }) => wayfinder(args, env)));
  runs.forEach((run, i) => {
    assert.equal(run.code, 2, asks[i]!.args.join(" "));
    assert.equal(run.stderr, `wayfinder: ${asks[i]!.message}\n`, asks[i]!.args.join(" "));
  });
  await Deno.remove(dir, { recursive: true });
});
