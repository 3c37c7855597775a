import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import type { Chunk } from "../types.ts";
import { mergeSegments } from "./merge.ts";
import { openIndex, type StoredIndex } from "./open_index.ts";
import { unlistedSegments, untilMidWrite, waitForReady } from "./testdata/kill_harness.ts";
import { editedFile, syntheticGeneration } from "./testdata/synthetic.ts";
import { publishEdit } from "./write_generation.ts";

const CHILD = new URL("./testdata/merge_forever.ts", import.meta.url).pathname;
const CONFIG = new URL("../../deno.json", import.meta.url).pathname;
// Wide vectors make each merge (a rewrite of every row) long enough to land kills in it.
const COUNT = 800;
const DIMENSIONS = 2048;

/** Each chunk's text and vector bits by id: what a reader can tell apart. */
function contents(chunks: Chunk[], vector: (i: number) => Float32Array): Map<string, string> {
  return new Map(chunks.map((chunk, i) => {
    const bits = new Uint32Array(vector(i).slice().buffer);
    let sum = 0;
    for (let k = 0; k < bits.length; k++) sum = (Math.imul(sum, 31) + bits[k]!) >>> 0;
    return [chunk.id, `${chunk.content}|${sum}`];
  }));
}

function expected(version: number): Map<string, string> {
  const base = syntheticGeneration(COUNT, DIMENSIONS, 1);
  const edit = editedFile(base, version);
  const all = contents(base.chunks, (i) => base.vectors[i]!);
  const edited = contents(edit.chunks, (i) => edit.vectors[i]!);
  for (const [id, value] of edited) all.set(id, value);
  return all;
}

function live(index: StoredIndex): Map<string, string> {
  const d = index.dimensions;
  return contents(index.chunks, (i) => index.vectors.subarray(i * d, (i + 1) * d));
}

Deno.test("SIGKILL during segment writes, merges and reclamation: the previous answer stays, the next run repairs", async () => {
  const dir = await Deno.makeTempDir();
  const generation = syntheticGeneration(COUNT, DIMENSIONS, 1);
  const versions = [expected(0), expected(1)];
  const base = contents(generation.chunks, (i) => generation.vectors[i]!);
  const same = (a: Map<string, string>, b: Map<string, string>) =>
    a.size === b.size && [...a].every(([id, value]) => b.get(id) === value);
  try {
    let killedMidWrite = 0;
    for (const delay of [0, -1, 250, -1, 600, -1]) {
      const child = new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--config", CONFIG, CHILD, dir, String(COUNT), String(DIMENSIONS)],
        stdout: "piped",
        stderr: "null",
      }).spawn();
      await waitForReady(child);
      if (delay >= 0) await new Promise((resolve) => setTimeout(resolve, delay));
      else await untilMidWrite(dir, 3000);
      child.kill("SIGKILL");
      equal((await child.status).signal, "SIGKILL");
      if ((await unlistedSegments(dir)).length > 0) killedMidWrite++;

      // Whatever was live answers whole: the base, or one of the two edits, never a mix.
      const index = (await openIndex(dir, { verifyChecksums: true }))!;
      equal(index.pending, undefined, "nothing left to embed");
      const now = live(index);
      ok(
        [base, ...versions].some((want) =>
          JSON.stringify([...want].sort()) === JSON.stringify([...now].sort())
        ),
        "the live generation is one that was published",
      );
      await index.close!();
    }
    ok(killedMidWrite > 0, "no kill landed mid-write; the test did not exercise the window");

    // The next run edits and merges as usual; what the killed runs left is collected.
    const edit = editedFile(generation, 0);
    const previous = (await openIndex(dir, { vectors: "lazy" }))!;
    await publishEdit(dir, previous, {
      manifest: generation.manifest,
      removed: [edit.path],
      rows: edit.chunks.map((chunk, i) => [chunk, edit.vectors[i]!]),
    });
    await previous.close!();
    ok(await mergeSegments(dir, { all: true }));
    const index = (await openIndex(dir))!;
    ok(same(live(index), versions[0]!));
    const names = (await Array.fromAsync(Deno.readDir(dir))).map((entry) => entry.name);
    deepEqual(names.filter((n) => n.startsWith("gen-")), [index.generation]);
    deepEqual(
      names.filter((n) => n.startsWith("seg-")),
      index.manifest.segments.map((segment) => segment.name),
    );
    equal(index.manifest.segments.length, 1);
    // The dead children's leases pinned nothing and are gone; only this reader's is left.
    equal((await Array.fromAsync(Deno.readDir(join(dir, "readers")))).length, 1);
    await index.close!();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
