import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { WayfinderError } from "../error.ts";
import { resolveModelPath } from "./resolve_model.ts";

/** A temp layout: a project, a config folder and an executable folder, each with a model. */
async function withLayout(run: (root: string) => void): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "wayfinder_resolve_" });
  try {
    for (const file of ["flag.gguf", "env.gguf", "conf/config.gguf"]) {
      await mkdir(join(root, file, ".."), { recursive: true });
      await writeFile(join(root, file), "gguf");
    }
    for (const dir of ["bin", "project"]) {
      await mkdir(join(root, dir, "models"), { recursive: true });
      await writeFile(join(root, dir, "models", "embedding.gguf"), "gguf");
    }
    run(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

function throwsNoModel(run: () => unknown, message: string) {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof WayfinderError);
    assert.equal(error.code, "no_model");
    assert.equal(error.message, message);
    return true;
  });
}

Deno.test("resolveModelPath() follows flag > env > config > executable > project", async () => {
  await withLayout((root) => {
    const all = {
      flag: join(root, "flag.gguf"),
      env: join(root, "env.gguf"),
      config: "config.gguf",
      configDir: join(root, "conf"),
      executableDir: join(root, "bin"),
      projectDir: join(root, "project"),
    };
    assert.deepEqual(resolveModelPath(all), {
      path: join(root, "flag.gguf"),
      tried: [join(root, "flag.gguf")],
      from: "flag",
    });
    assert.equal(resolveModelPath({ ...all, flag: undefined }).from, "env");
    assert.equal(resolveModelPath({ ...all, flag: undefined }).path, join(root, "env.gguf"));
    const fromConfig = resolveModelPath({ ...all, flag: undefined, env: "" });
    assert.equal(fromConfig.from, "config");
    assert.equal(fromConfig.path, join(root, "conf", "config.gguf"));
    const fromExecutable = resolveModelPath({
      ...all,
      flag: undefined,
      env: undefined,
      config: undefined,
    });
    assert.equal(fromExecutable.from, "executable");
    assert.equal(fromExecutable.path, join(root, "bin", "models", "embedding.gguf"));
    const fromProject = resolveModelPath({ projectDir: all.projectDir });
    assert.deepEqual(fromProject, {
      path: join(root, "project", "models", "embedding.gguf"),
      tried: [join(root, "project", "models", "embedding.gguf")],
      from: "project",
    });
  });
});

Deno.test("resolveModelPath() falls back to the project when the executable has no model", async () => {
  await withLayout((root) => {
    const result = resolveModelPath({ executableDir: root, projectDir: join(root, "project") });
    assert.equal(result.from, "project");
    assert.deepEqual(result.tried, [
      join(root, "models", "embedding.gguf"),
      join(root, "project", "models", "embedding.gguf"),
    ]);
  });
});

Deno.test("resolveModelPath() resolves a relative config path against configDir, else projectDir", async () => {
  await withLayout((root) => {
    const result = resolveModelPath({ config: "conf/config.gguf", projectDir: root });
    assert.equal(result.path, join(root, "conf", "config.gguf"));
    const absolute = resolveModelPath({
      config: join(root, "env.gguf"),
      configDir: join(root, "conf"),
      projectDir: root,
    });
    assert.equal(absolute.path, join(root, "env.gguf"));
  });
});

Deno.test("resolveModelPath() names a missing explicit path instead of falling through", async () => {
  await withLayout((root) => {
    const base = { executableDir: join(root, "bin"), projectDir: join(root, "project") };
    const missing = join(root, "missing.gguf");
    throwsNoModel(
      () => resolveModelPath({ ...base, flag: missing }),
      `Cannot find the embedding model: '${missing}' (from --model) does not exist`,
    );
    throwsNoModel(
      () => resolveModelPath({ ...base, env: missing }),
      `Cannot find the embedding model: '${missing}' (from WAYFINDER_EMBEDDING_MODEL) does not exist`,
    );
    throwsNoModel(
      () => resolveModelPath({ ...base, config: "missing.gguf", configDir: root }),
      `Cannot find the embedding model: '${missing}' (from wayfinder.json 'model') does not exist`,
    );
  });
});

Deno.test("resolveModelPath() lists every place tried when there is no model", async () => {
  await withLayout((root) => {
    const exe = join(root, "conf");
    const project = join(root, "nowhere");
    throwsNoModel(
      () => resolveModelPath({ executableDir: exe, projectDir: project }),
      `Cannot find an embedding model; tried: ${join(exe, "models", "embedding.gguf")}, ` +
        `${join(project, "models", "embedding.gguf")}. Run 'wayfinder model prepare' (download) ` +
        "or 'wayfinder model import <checkpoint>'",
    );
  });
});
