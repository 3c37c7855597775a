import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import { WayfinderError } from "../error.ts";
import { FORMAT_VERSION } from "./manifest.ts";
import { openIndex } from "./open_index.ts";
import { syntheticGeneration } from "./testdata/synthetic.ts";
import { writeGeneration } from "./write_generation.ts";

async function generations(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.name.startsWith("gen-")) names.push(entry.name);
  }
  return names.sort();
}

async function segmentCount(dir: string): Promise<number> {
  let count = 0;
  for await (const entry of Deno.readDir(dir)) if (entry.name.startsWith("seg-")) count++;
  return count;
}

function bits(vectors: Float32Array): Uint32Array {
  return new Uint32Array(vectors.buffer, vectors.byteOffset, vectors.length);
}

Deno.test("writeGeneration() round-trips chunks, vectors and manifest through openIndex()", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const data = syntheticGeneration(50, 16, 7);
    data.vectors[3]![0] = -0; // bit patterns, not just values, must survive
    data.vectors[4]![1] = 1e-42; // a subnormal
    const name = await writeGeneration(dir, data);
    const index = (await openIndex(dir, { verifyChecksums: true }))!;
    equal(index.generation, name);
    equal(index.dir, dir);
    equal((await Deno.readTextFile(join(dir, "current"))).trim(), name);
    deepEqual(index.chunks, data.chunks);
    equal(index.dimensions, 16);
    const expected = new Float32Array(50 * 16);
    data.vectors.forEach((v, i) => expected.set(v, i * 16));
    deepEqual(bits(index.vectors), bits(expected));
    equal(index.manifest.formatVersion, FORMAT_VERSION);
    equal(index.manifest.chunkCount, 50);
    equal(index.manifest.dimensions, 16);
    deepEqual(index.manifest.files, data.manifest.files);
    deepEqual(index.manifest.identity, data.manifest.identity);
    equal(index.manifest.fingerprint, "fp-16");
    ok(!Number.isNaN(Date.parse(index.manifest.createdAt)));
    const [segment] = index.manifest.segments;
    deepEqual(index.manifest.segments, [{ name: segment!.name, rows: 50 }]);
    deepEqual(Object.keys(index.manifest.checksums).map((path) => path.split("/")[1]).sort(), [
      "chunks.bin",
      "files.jsonl",
      "lexical.bin",
      "text.bin",
      "vectors.f32",
    ]);
    equal((await Deno.stat(join(dir, segment!.name, "vectors.f32"))).size, 50 * 16 * 4);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeGeneration() accepts one flat vector array", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const data = syntheticGeneration(3, 2);
    const flat = new Float32Array([1, 2, 3, 4, 5, 6]);
    await writeGeneration(dir, { ...data, vectors: flat });
    deepEqual((await openIndex(dir))!.vectors, flat);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeGeneration() keeps only the live generation and those readers lease", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const first = await writeGeneration(dir, syntheticGeneration(5, 4, 1));
    const second = await writeGeneration(dir, syntheticGeneration(5, 4, 2));
    deepEqual(await generations(dir), [second]);
    ok(!(await Array.fromAsync(Deno.readDir(dir))).some((e) => e.name === first));
    const reader = (await openIndex(dir))!;
    equal(reader.generation, second);
    const third = await writeGeneration(dir, syntheticGeneration(5, 4, 3));
    deepEqual(await generations(dir), [second, third].sort());
    equal(reader.chunks[1]!.content, syntheticGeneration(5, 4, 2).chunks[1]!.content);
    await reader.close!();
    const fourth = await writeGeneration(dir, syntheticGeneration(5, 4, 4));
    deepEqual(await generations(dir), [fourth]);
    equal(await segmentCount(dir), 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeGeneration() ignores and removes the lease of a reader that died", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const first = await writeGeneration(dir, syntheticGeneration(5, 4, 1));
    const dead = new Deno.Command(Deno.execPath(), { args: ["eval", "0"] }).spawn();
    const pid = dead.pid;
    await dead.status;
    await Deno.mkdir(join(dir, "readers"));
    const lease = join(dir, "readers", `${pid}-0badc0de.json`);
    const since = new Date(Date.now() - 1000).toISOString();
    await Deno.writeTextFile(lease, JSON.stringify({ pid, since, generation: first }));
    const second = await writeGeneration(dir, syntheticGeneration(5, 4, 2));
    deepEqual(await generations(dir), [second]);
    await rejects(Deno.stat(lease), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeGeneration() removes at once a torn lease whose writer died, and keeps one being written", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await writeGeneration(dir, syntheticGeneration(5, 4, 1));
    const dead = new Deno.Command(Deno.execPath(), { args: ["eval", "0"] }).spawn();
    await dead.status;
    await Deno.mkdir(join(dir, "readers"));
    // Killed between creating its lease and writing it: an empty file.
    const torn = join(dir, "readers", `${dead.pid}-0badc0de.json`);
    const ours = join(dir, "readers", `${Deno.pid}-0badc0de.json`);
    await Deno.writeTextFile(torn, "");
    await Deno.writeTextFile(ours, "");
    await writeGeneration(dir, syntheticGeneration(5, 4, 2));
    await rejects(Deno.stat(torn), Deno.errors.NotFound);
    // This process may still be writing its own: it stays until it is a minute old.
    ok((await Deno.stat(ours)).isFile);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeGeneration() keeps a pinned generation only while its writer pins it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const start = await writeGeneration(dir, syntheticGeneration(5, 4, 1));
    const pinned = { pinned: [start] };
    await writeGeneration(dir, syntheticGeneration(5, 4, 2), pinned);
    await writeGeneration(dir, syntheticGeneration(5, 4, 3), pinned);
    ok((await generations(dir)).includes(start), "collected while pinned");
    // A writer that stopped (or crashed) pins nothing: the next publish collects it.
    const fourth = await writeGeneration(dir, syntheticGeneration(5, 4, 4));
    deepEqual(await generations(dir), [fourth]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeGeneration() leaves a half-written generation unused, then collects it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const live = await writeGeneration(dir, syntheticGeneration(5, 4, 1));
    const leftover = "gen-9999999999999-deadbeef"; // sorts after everything: newest-looking
    await Deno.mkdir(join(dir, leftover));
    await Deno.writeFile(join(dir, leftover, "vectors.f32"), new Uint8Array(10));
    await Deno.writeTextFile(join(dir, "current.tmp-424242"), leftover);
    await Deno.writeTextFile(join(dir, "progress.json.tmp-424242"), "{");
    await Deno.writeTextFile(join(dir, `progress.json.tmp-${Deno.pid}`), "{");
    const index = (await openIndex(dir))!;
    equal(index.generation, live);
    equal(index.chunks[0]!.metadata.seed, 1);
    await index.close!();
    const next = await writeGeneration(dir, syntheticGeneration(5, 4, 2));
    deepEqual(await generations(dir), [next]);
    const rest = [];
    for await (const entry of Deno.readDir(dir)) rest.push(entry.name);
    deepEqual(rest.filter((n) => n.startsWith("current")), ["current"]);
    // Another process's torn progress goes; this process's own may be mid-write.
    deepEqual(rest.filter((n) => n.startsWith("progress")), [`progress.json.tmp-${Deno.pid}`]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeGeneration() refuses vectors that do not match the chunks", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const data = syntheticGeneration(3, 4);
    await rejects(
      writeGeneration(dir, { ...data, vectors: data.vectors.slice(0, 2) }),
      (error: unknown) =>
        error instanceof WayfinderError && /2 vectors for 3 chunks/.test(error.message),
    );
    await rejects(
      writeGeneration(dir, {
        ...data,
        vectors: [data.vectors[0]!, data.vectors[1]!, new Float32Array(3)],
      }),
      /vector 2 has 3 dimensions, expected 4/,
    );
    equal(await openIndex(dir), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeGeneration() writes an empty index", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await writeGeneration(dir, syntheticGeneration(0, 8));
    const index = (await openIndex(dir))!;
    equal(index.chunks.length, 0);
    equal(index.vectors.length, 0);
    deepEqual(index.lexical("anything", 5), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
