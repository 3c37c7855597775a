/**
 * The documented recipes must run as written: the CI recipe of
 * docs/knowledge.md on a fresh runner (the embedding model is gitignored, so
 * compare-embeddings needs a prepare step, and a cache keyed on the committed
 * model manifest, before it), and the Makefile of docs/cli.md, whose `ask`
 * prints only the context on stdout.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { MAIN, REPO, tinyModel } from "./_run.ts";

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, string>;
}

/** The first block of `lang` after the heading `title` in a page of docs/. */
function block(page: string, title: string, lang: string): string {
  const text = readFileSync(join(REPO, "docs", page), "utf8");
  const at = text.search(new RegExp(`^#+ ${title}$`, "m"));
  assert.ok(at >= 0, `docs/${page} has a section '${title}'`);
  return text.slice(at).match(new RegExp("```" + lang + "\n([\\s\\S]*?)```"))![1]!;
}

function ciSteps(): Step[] {
  const workflow = parse(block("knowledge.md", "CI recipe", "yaml")) as {
    jobs: Record<string, { steps: Step[] }>;
  };
  return Object.values(workflow.jobs).flatMap((job) => job.steps);
}

Deno.test("docs/knowledge.md CI recipe prepares the gitignored model before compare-embeddings, cached on its manifest", () => {
  const steps = ciSteps();
  const at = (test: (s: Step) => boolean) => steps.findIndex(test);
  const compare = at((s) => /wayfinder compare-embeddings/.test(s.run ?? ""));
  const prepare = at((s) => /wayfinder model prepare\b/.test(s.run ?? ""));
  const cache = at((s) => /^actions\/cache@/.test(s.uses ?? ""));
  assert.ok(compare > 0, "the recipe runs compare-embeddings");
  assert.ok(prepare >= 0 && prepare < compare, "model prepare runs before compare-embeddings");
  assert.ok(cache >= 0 && cache < prepare, "the model cache is restored before prepare");
  const { path, key } = steps[cache]!.with!;
  assert.match(path!, /models\/embedding\.gguf/);
  const manifest = key!.match(/hashFiles\('([^']+)'\)/)![1]!;
  assert.ok(existsSync(join(REPO, manifest)), `${manifest} is committed`);
  assert.match(readFileSync(join(REPO, ".gitignore"), "utf8"), /^models\/\*\.gguf$/m);
});

Deno.test({
  name: "docs/cli.md Makefile: make ask prints the context and nothing else on stdout",
  ignore: !new Deno.Command("make", { args: ["--version"], stdout: "null" }).outputSync().success,
  async fn() {
    const makefile = block("cli.md", "From a Makefile", "make");
    const project = await Deno.makeTempDir({ prefix: "wayfinder-make-" });
    await Deno.writeTextFile(join(project, "Makefile"), makefile);
    await Deno.writeTextFile(
      join(project, "auth.ts"),
      "/** Refreshes the session token. */\nexport function refresh(t: string) {\n  return t;\n}\n",
    );
    const run = await new Deno.Command("make", {
      // A command-line variable overrides the Makefile's: main.ts lives in this checkout.
      args: ["ask", "Q=refresh the session token", `WAYFINDER=${Deno.execPath()} run -A ${MAIN}`],
      cwd: project,
      env: {
        WAYFINDER_DATA_DIR: join(project, ".data"),
        WAYFINDER_EMBEDDING_MODEL: tinyModel(),
        WAYFINDER_THREADS: "1",
      },
    }).output();
    const stdout = new TextDecoder().decode(run.stdout);
    const stderr = new TextDecoder().decode(run.stderr);
    assert.equal(run.code, 0, stderr);
    assert.match(stdout, /^## auth\.ts:1-4/, "the context comes first, no echoed command");
    assert.doesNotMatch(stdout, /^(Indexed |\S*deno run )/m, "no summary, no echoed command");
    assert.match(stderr, /Indexed /, "index's summary goes to stderr");
  },
});
