import { equal } from "node:assert/strict";
import { join } from "node:path";
import { syntheticGeneration } from "./testdata/synthetic.ts";
import { STAMPS_FILE, verifyGeneration } from "./verify_generation.ts";
import { writeGeneration } from "./write_generation.ts";

/** Overwrites one byte in place: same size, a new mtime. */
async function flipByte(path: string, at: number): Promise<void> {
  using file = await Deno.open(path, { read: true, write: true });
  const byte = new Uint8Array(1);
  await file.seek(at, Deno.SeekMode.Start);
  await file.read(byte);
  byte[0]! ^= 0xff;
  await file.seek(at, Deno.SeekMode.Start);
  await file.write(byte);
}

async function withGeneration(
  fn: (
    dir: string,
    name: string,
    check: () => Promise<string | null>,
    segment: string,
  ) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    const name = await writeGeneration(dir, syntheticGeneration(20, 8));
    const { segments } = JSON.parse(await Deno.readTextFile(join(dir, name, "manifest.json")));
    // Read from the generation itself on each check, so a test may edit it or move `current`.
    const manifest = async () =>
      JSON.parse(await Deno.readTextFile(join(dir, name, "manifest.json")));
    await fn(
      dir,
      name,
      async () => verifyGeneration(dir, name, await manifest()),
      segments[0].name,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

for (const file of ["vectors.f32", "text.bin", "chunks.bin", "lexical.bin"]) {
  Deno.test(`verifyGeneration() notices one flipped byte in ${file}`, async () => {
    await withGeneration(async (dir, _name, check, segment) => {
      equal(await check(), null);
      await flipByte(join(dir, segment, file), 5);
      equal(await check(), `${segment}/${file} fails its checksum`);
    });
  });
}

Deno.test("verifyGeneration() names a missing file, but not a generation a newer run collected", async () => {
  await withGeneration(async (dir, _name, check, segment) => {
    await Deno.remove(join(dir, segment, "text.bin"));
    equal((await check())?.startsWith(`${segment}/text.bin is unreadable (No such file`), true);
    await Deno.writeTextFile(join(dir, "current"), "gen-2-newer\n");
    equal(await check(), null);
  });
});

Deno.test("verifyGeneration() hashes again without its record, or with a torn one, and records anew", async () => {
  await withGeneration(async (dir, _name, check) => {
    const record = join(dir, STAMPS_FILE);
    const written = await Deno.readTextFile(record);
    await Deno.writeTextFile(record, written.slice(0, 20));
    equal(await check(), null);
    equal(await Deno.readTextFile(record), written);
    await Deno.remove(record);
    equal(await check(), null);
    equal(await Deno.readTextFile(record), written);
  });
});

Deno.test("verifyGeneration() notices a manifest whose chunk count disagrees with its vectors", async () => {
  await withGeneration(async (dir, name, check) => {
    equal(await check(), null);
    // Valid JSON of the same length: only the count the data files imply tells.
    const path = join(dir, name, "manifest.json");
    await Deno.writeTextFile(
      path,
      (await Deno.readTextFile(path)).replace('"chunkCount":20', '"chunkCount":21'),
    );
    equal(await check(), "its segments hold 20 live chunks, expected 21");
  });
});
