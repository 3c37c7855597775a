import { equal, throws } from "node:assert/strict";
import { WayfinderError } from "../error.ts";
import { hintsFor, worded } from "../hints.ts";
import { assertSameModel, FORMAT_VERSION, type IndexManifest } from "./manifest.ts";
import { testIdentity } from "./testdata/synthetic.ts";

const manifest: IndexManifest = {
  formatVersion: FORMAT_VERSION,
  root: "/corpus",
  createdAt: "2026-01-01T00:00:00.000Z",
  identity: testIdentity(4),
  fingerprint: "aaaaaaaaaaaaaaaa",
  dimensions: 4,
  chunkCount: 0,
  files: {},
  segments: [],
  checksums: {},
};

Deno.test("assertSameModel() accepts the same fingerprint", () => {
  equal(assertSameModel(manifest, testIdentity(4), "aaaaaaaaaaaaaaaa", "/corpus"), undefined);
});

Deno.test("assertSameModel() refuses another model, names what differs and the fix", () => {
  const other = { ...testIdentity(4), name: "other-model", sha256: "ff", longInput: "truncate" };
  throws(
    () => assertSameModel(manifest, other, "bbbbbbbbbbbbbbbb", "/corpus"),
    (error: unknown) =>
      error instanceof WayfinderError && error.code === "stale_index" &&
      error.fix?.kind === "rebuild" && worded(error, hintsFor("cli")).message ===
        `Cannot use index for /corpus: it was built with model 'synthetic', this run uses 'other-model' ` +
          `(name "synthetic" → "other-model", weights, longInput "reject" → "truncate"); ` +
          `run 'wayfinder index /corpus --rebuild'`,
  );
});

Deno.test("assertSameModel() names the fix it is given", () => {
  const other = { ...testIdentity(4), longInput: "truncate" as const };
  const command = "wayfinder index /corpus --long-input truncate --rebuild";
  throws(
    () =>
      assertSameModel(manifest, other, "bbbbbbbbbbbbbbbb", "/corpus", { command, recorded: "" }),
    (error: unknown) =>
      error instanceof WayfinderError &&
      worded(error, hintsFor("cli")).message.endsWith(
        `(longInput "reject" → "truncate"); run '${command}'`,
      ),
  );
});
