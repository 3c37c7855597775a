import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { configurationSha256, lockText } from "./lock_file.ts";
import { readBinding } from "./read_binding.ts";

async function bindingFile(data: unknown): Promise<string> {
  const file = join(await Deno.makeTempDir(), "wayfinder.json");
  writeFileSync(file, JSON.stringify(data));
  return file;
}

const source = { git: "../profiles", ref: "main", path: "profiles/acme" };

Deno.test("readBinding() resolves a local git path and applies_to against the file's folder", async () => {
  const file = await bindingFile({
    version: 1,
    profiles: { acme: { source, applies_to: ["./knowledge"], types: [{ name: "Memo" }] } },
    embedding: { model: "m.gguf" },
    embeding: {},
  });
  const binding = readBinding(file);
  const dir = join(file, "..");
  assert.equal(binding.profiles[0]!.source.git, join(dir, "..", "profiles"));
  assert.deepEqual(binding.profiles[0]!.appliesTo, [join(dir, "knowledge")]);
  assert.deepEqual(binding.profiles[0]!.written, source);
  assert.deepEqual(binding.unknownKeys, ["embeding"]);
});

Deno.test("readBinding() keeps URLs as written and refuses a malformed binding", async () => {
  const url = "https://example.test/profiles.git";
  const ok = readBinding(
    await bindingFile({ version: 1, profiles: { a: { source: { ...source, git: url } } } }),
  );
  assert.equal(ok.profiles[0]!.source.git, url);
  assert.throws(() => readBinding("/no/such/wayfinder.json"), /Cannot read config/);
  const garbage = join(await Deno.makeTempDir(), "wayfinder.json");
  writeFileSync(garbage, "garbage\n");
  assert.throws(
    () => readBinding(garbage),
    (e: Error) =>
      /^Cannot read config '.*': .*garbage/.test(e.message) && !e.message.includes("\n"),
  );
  for (
    const bad of [{ version: 2, profiles: {} }, { version: 1, profiles: [] }, {
      version: 1,
      profiles: { a: {} },
    }]
  ) {
    const file = await bindingFile(bad);
    assert.throws(
      () => readBinding(file),
      (e: Error) => e.name === "WayfinderError" && /Invalid Profile binding/.test(e.message),
    );
  }
});

Deno.test("configurationSha256() covers sources only, in canonical key order", async () => {
  const base = { version: 1, profiles: { acme: { source, tags: [{ name: "a" }] } } };
  const sha = configurationSha256(readBinding(await bindingFile(base)));
  const reordered = {
    profiles: {
      acme: { tags: [{ name: "b" }], source: { path: source.path, ref: "main", git: source.git } },
    },
    version: 1,
  };
  assert.equal(configurationSha256(readBinding(await bindingFile(reordered))), sha);
  const moved = { version: 1, profiles: { acme: { source: { ...source, ref: "v2" } } } };
  assert.notEqual(configurationSha256(readBinding(await bindingFile(moved))), sha);
  assert.match(
    lockText({ lock_version: 1, configuration_sha256: sha, profiles: {} }),
    /^\{\n {2}"lock_version": 1,\n/,
  );
});

Deno.test("readBinding() refuses an unknown key in a profile entry or its source, naming it", async () => {
  const cases: [unknown, RegExp][] = [
    [
      { source, "applies-to": ["./knowledge"] },
      /profiles\.a has an unknown key 'applies-to'; did you mean 'applies_to'\?$/,
    ],
    [{ source, type: [] }, /profiles\.a has an unknown key 'type'; expected source, applies_to, /],
    [
      { source: { ...source, reference: "v2" } },
      /profiles\.a\.source has an unknown key 'reference'/,
    ],
    [{ source: { ...source, ref: "" } }, /profiles\.a\.source\.ref must be a non-empty string$/],
  ];
  for (const [entry, message] of cases) {
    const file = await bindingFile({ version: 1, profiles: { a: entry } });
    assert.throws(
      () => readBinding(file),
      (e: Error) =>
        e.name === "WayfinderError" && /^Invalid Profile binding in /.test(e.message) &&
        message.test(e.message) && !e.message.includes("\n"),
    );
  }
});

Deno.test("readBinding() lists applies_to entries that name no existing folder", async () => {
  const file = await bindingFile({
    version: 1,
    profiles: { a: { source, applies_to: ["./knowledge", "./knowlege", "wayfinder.json"] } },
  });
  await Deno.mkdir(join(file, "..", "knowledge"));
  assert.deepEqual(readBinding(file).profiles[0]!.missingFolders, [
    "./knowlege",
    "wayfinder.json",
  ]);
});

Deno.test("readBinding() refuses an empty applies_to and reads a missing one as the project folder", async () => {
  const empty = await bindingFile({ version: 1, profiles: { t: { source, applies_to: [] } } });
  assert.throws(
    () => readBinding(empty),
    (e: Error) =>
      e.name === "WayfinderError" &&
      /^Invalid Profile binding in '.*': profiles\.t\.applies_to is empty: name the bundle folders it governs, or leave it out for the project folder$/
        .test(e.message),
  );
  const missing = await bindingFile({ version: 1, profiles: { t: { source } } });
  assert.deepEqual(readBinding(missing).profiles[0]!.appliesTo, [join(missing, "..")]);
});
