/** `deno task compile` refuses a DENORT_BIN that is no denort, before it builds anything. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO } from "./_run.ts";

Deno.test("compile refuses a DENORT_BIN that is a folder or another program", async () => {
  for (const path of [await Deno.makeTempDir(), "/bin/true"]) {
    const run = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", join(REPO, "tools", "compile.ts")],
      env: { DENORT_BIN: path },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(run.stderr);
    assert.equal(run.code, 2, stderr);
    assert.equal(
      stderr,
      `wayfinder: DENORT_BIN points to '${path}', which is not Deno's runtime 'denort' v${Deno.version.deno}\n`,
    );
  }
});
