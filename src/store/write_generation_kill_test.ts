import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { openIndex } from "./open_index.ts";
import { unlistedSegments, untilMidWrite, waitForReady } from "./testdata/kill_harness.ts";
import { syntheticGeneration } from "./testdata/synthetic.ts";
import { STAMPS_FILE } from "./verify_generation.ts";
import { writeGeneration } from "./write_generation.ts";

const CHILD = new URL("./testdata/write_forever.ts", import.meta.url).pathname;
const CONFIG = new URL("../../deno.json", import.meta.url).pathname;
// Wide vectors make the file-writing window long enough to land kills in it.
const COUNT = 800;
const DIMENSIONS = 2048;

Deno.test("writeGeneration() survives SIGKILL mid-write: the last complete generation stays live", async () => {
  const dir = await Deno.makeTempDir();
  const expected = [1, 2].map((seed) => syntheticGeneration(COUNT, DIMENSIONS, seed));
  const flat = expected.map(({ vectors }) => {
    const out = new Float32Array(COUNT * DIMENSIONS);
    vectors.forEach((v, i) => out.set(v, i * DIMENSIONS));
    return new Uint32Array(out.buffer);
  });
  try {
    // The child republishes generations back to back. Kill it at growing delays,
    // alternating with kills aimed at the moment a generation directory is half written.
    let killedMidWrite = 0;
    for (const delay of [0, -1, 150, -1, 400, -1]) {
      const child = new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--config", CONFIG, CHILD, dir, String(COUNT), String(DIMENSIONS)],
        stdout: "piped",
        stderr: "null",
      }).spawn();
      await waitForReady(child);
      if (delay >= 0) await new Promise((resolve) => setTimeout(resolve, delay));
      else await untilMidWrite(dir, 3000);
      child.kill("SIGKILL");
      const status = await child.status;
      equal(status.signal, "SIGKILL");
      if ((await unlistedSegments(dir)).length > 0) killedMidWrite++;

      const index = (await openIndex(dir, { verifyChecksums: true }))!;
      const seed = index.chunks[0]!.metadata.seed as number;
      ok(seed === 1 || seed === 2);
      deepEqual(index.chunks, expected[seed - 1]!.chunks);
      deepEqual(
        new Uint32Array(index.vectors.buffer, index.vectors.byteOffset, index.vectors.length),
        flat[seed - 1],
      );
      equal(index.lexical(expected[seed - 1]!.chunks[7]!.symbol!, 1)[0]!.index, 7);
      await index.close!();
    }
    ok(killedMidWrite > 0, "no kill landed mid-write; the test did not exercise the window");
    // Leftovers of the killed writes go with the next successful one.
    const last = await writeGeneration(dir, syntheticGeneration(3, DIMENSIONS, 3));
    const names = [];
    for await (const entry of Deno.readDir(dir)) names.push(entry.name);
    ok(names.includes(last));
    equal(names.filter((n) => n.startsWith("gen-")).length, 1, names.join(", "));
    equal(names.filter((n) => n.startsWith("seg-")).length, 1, names.join(", "));
    // Besides them, only the live pointer, the record of files known intact and the (empty) leases.
    deepEqual(
      names.filter((n) => !n.startsWith("gen-") && !n.startsWith("seg-")).sort(),
      ["current", "readers", STAMPS_FILE],
    );
    deepEqual(await Array.fromAsync(Deno.readDir(join(dir, "readers"))), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
