import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { WayfinderError } from "../error.ts";
import { resolveModelPath } from "./resolve_model.ts";

/** A temp layout: an explicit model, and an executable and a project folder each with a model. */
async function withLayout(run: (root: string) => void): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "wayfinder_resolve_" });
  try {
    await writeFile(join(root, "chosen.gguf"), "gguf");
    for (const dir of ["bin", "project"]) {
      await mkdir(join(root, dir, "models"), { recursive: true });
      await writeFile(join(root, dir, "models", "embedding.gguf"), "gguf");
    }
    run(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

function throwsNoModel(run: () => unknown, message: RegExp) {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof WayfinderError);
    assert.equal(error.code, "no_model");
    assert.match(error.message, message);
    return true;
  });
}

Deno.test("resolveModelPath() prefers the explicit model, then the executable's, then the project's", async () => {
  await withLayout((root) => {
    const all = {
      model: join(root, "chosen.gguf"),
      executableDir: join(root, "bin"),
      projectDir: join(root, "project"),
    };
    assert.deepEqual(resolveModelPath(all), {
      path: join(root, "chosen.gguf"),
      tried: [join(root, "chosen.gguf")],
      from: "explicit",
    });
    const beside = resolveModelPath({ ...all, model: undefined });
    assert.equal(beside.from, "executable");
    assert.equal(beside.path, join(root, "bin", "models", "embedding.gguf"));
    const project = resolveModelPath({ ...all, model: undefined, executableDir: join(root, "x") });
    assert.equal(project.from, "project");
    assert.deepEqual(project.tried, [
      join(root, "x", "models", "embedding.gguf"),
      join(root, "project", "models", "embedding.gguf"),
    ]);
  });
});

Deno.test("resolveModelPath() names a missing explicit path and its origin instead of falling through", async () => {
  await withLayout((root) => {
    throwsNoModel(
      () =>
        resolveModelPath({
          model: join(root, "gone.gguf"),
          origin: "--model",
          projectDir: join(root, "project"),
        }),
      /^Cannot find the embedding model: '.*gone\.gguf' \(from --model\) does not exist$/,
    );
  });
});

Deno.test("resolveModelPath() lists every place tried when there is no model", () => {
  throwsNoModel(
    () => resolveModelPath({ executableDir: "/nowhere/bin", projectDir: "/nowhere/project" }),
    /tried: \/nowhere\/bin\/models\/embedding\.gguf, \/nowhere\/project\/models\/embedding\.gguf\. Run 'wayfinder model prepare'/,
  );
});
