import { deepEqual, equal, ok, rejects, throws } from "node:assert/strict";
import { join } from "node:path";
import { WayfinderError } from "../error.ts";
import { hintsFor, worded } from "../hints.ts";
import {
  decodeFileRecords,
  encodeFileRecords,
  FILE_RECORDS,
  FileBytes,
  findFileRecord,
} from "./file_records.ts";
import type { FileRecord } from "./manifest.ts";
import { openIndex, readManifest } from "./open_index.ts";
import { syntheticGeneration } from "./testdata/synthetic.ts";
import { verifyGeneration } from "./verify_generation.ts";
import { writeGeneration } from "./write_generation.ts";

/** A stale-index error, its fix worded as the CLI words it, matching `pattern`. */
function staleMatching(pattern: RegExp) {
  return (error: unknown) =>
    error instanceof WayfinderError && error.code === "stale_index" &&
    pattern.test(worded(error, hintsFor("cli")).message);
}

const record = (n: number): FileRecord => ({ hash: `h${n}`, bytes: n, chunkIds: [`c${n}`] });

Deno.test("files.jsonl: every path is found by the binary search, others are not", () => {
  const paths = [
    "a.py",
    "b/c.py",
    "constructor",
    "toJSON",
    "ünïcode/✓.md",
    "line\nbreak.txt",
    'quote".ts',
    "Z.py",
    ...Array.from({ length: 300 }, (_, i) => `pkg/m${i}.py`),
  ];
  const files = Object.fromEntries(paths.map((path, n) => [path, record(n)]));
  const bytes = new TextEncoder().encode(encodeFileRecords(files));
  for (const path of paths) deepEqual(findFileRecord(bytes, path), files[path], path);
  for (const path of ["", "a", "pkg/m", "pkg/m300.py", "zzz", "hasOwnProperty"]) {
    equal(findFileRecord(bytes, path), undefined, path);
  }
  deepEqual(decodeFileRecords(bytes), files);
  deepEqual(decodeFileRecords(new Uint8Array()), {});
  equal(findFileRecord(new Uint8Array(), "a.py"), undefined);
});

/** An index of one generation; `fn` gets its folder and its generation's. */
async function withIndex(fn: (dir: string, genDir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    const name = await writeGeneration(dir, syntheticGeneration(400, 8));
    await fn(dir, join(dir, name));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a published generation keeps its file records beside the manifest, not in it", async () => {
  await withIndex(async (dir, genDir) => {
    const expected = syntheticGeneration(400, 8).manifest.files;
    const onDisk = JSON.parse(await Deno.readTextFile(join(genDir, "manifest.json")));
    equal(onDisk.files, undefined);
    ok(`${genDir.split("/").pop()}/${FILE_RECORDS}` in onDisk.checksums);
    const index = (await openIndex(dir))!;
    deepEqual(index.manifest.files, expected);
    deepEqual((await readManifest(dir))!.files, expected);
    const path = "src/module_7/file_7.ts";
    deepEqual(index.manifest.files[path], expected[path]);
    ok(path in index.manifest.files);
    ok(!("src/none.ts" in index.manifest.files));
    equal(index.manifest.files["src/none.ts"], undefined);
  });
});

Deno.test("an open reads no file record; one path is looked up without parsing the rest", async () => {
  await withIndex(async (dir, genDir) => {
    const path = join(genDir, FILE_RECORDS);
    const lines = (await Deno.readTextFile(path)).trimEnd().split("\n");
    const [first] = JSON.parse(lines[0]!) as [string];
    const index = (await openIndex(dir, { verifyChecksums: false }))!;
    // The last line damaged after the open: a lookup of the first path never reaches it.
    lines[lines.length - 1] = "{damaged";
    await Deno.writeTextFile(path, lines.join("\n") + "\n");
    equal(
      index.manifest.files[first]!.hash,
      syntheticGeneration(400, 8).manifest.files[first]!.hash,
    );
    ok(Object.hasOwn(index.manifest.files, first)); // as readLines asks
    equal(index.manifest.files["constructor"], undefined);
    throws(
      () => Object.keys(index.manifest.files),
      staleMatching(/gen-\d+-[0-9a-f]+\/files\.jsonl is unreadable .*to rebuild it$/),
    );
  });
});

Deno.test("a damaged or missing files.jsonl is a one-line stale index", async () => {
  await withIndex(async (dir, genDir) => {
    const path = join(genDir, FILE_RECORDS);
    const bytes = await Deno.readFile(path);
    bytes[bytes.length >> 1]! ^= 0x01;
    await Deno.writeFile(path, bytes);
    await rejects(
      openIndex(dir),
      staleMatching(
        /^Cannot use index at [^\n]+: gen-\d+-[0-9a-f]+\/files\.jsonl fails its checksum; run 'wayfinder index \/corpus' to rebuild it$/,
      ),
    );
    // The cheap check `status`, `search` and an index run make notices it too (its stat moved).
    const manifest = (await readManifest(dir))!;
    const generation = genDir.split("/").pop()!;
    equal(
      await verifyGeneration(dir, generation, manifest),
      `${generation}/${FILE_RECORDS} fails its checksum`,
    );
    await Deno.remove(path);
    await rejects(openIndex(dir), staleMatching(/is missing files|files\.jsonl/));
  });
});

Deno.test("an index of format 3 (file records in the manifest) is refused with the rebuild hint", async () => {
  await withIndex(async (dir, genDir) => {
    const path = join(genDir, "manifest.json");
    const manifest = JSON.parse(await Deno.readTextFile(path));
    const old = {
      ...manifest,
      formatVersion: 3,
      files: syntheticGeneration(400, 8).manifest.files,
    };
    await Deno.writeTextFile(path, JSON.stringify(old));
    await Deno.remove(join(genDir, FILE_RECORDS));
    const refused = staleMatching(
      /^Cannot use index at .+: built by format 3, this wayfinder reads 4; run 'wayfinder index \/corpus' to rebuild it$/,
    );
    await rejects(openIndex(dir), refused);
    await rejects(readManifest(dir), refused);
  });
});

Deno.test("files.jsonl read in blocks: lines across blocks and longer than one are found", async () => {
  const files: Record<string, FileRecord> = {};
  for (let n = 0; n < 2000; n++) files[`src/f${n}.py`] = record(n);
  // A file of many chunks: its line is longer than a block.
  files["src/big.py"] = {
    hash: "h",
    bytes: 1,
    chunkIds: Array.from({ length: 900 }, (_, i) => `id-${i}`),
  };
  const path = await Deno.makeTempFile();
  try {
    await Deno.writeTextFile(path, encodeFileRecords(files));
    const bytes = new FileBytes(path);
    ok(bytes.length > 8192 * 4);
    for (const name of Object.keys(files)) {
      deepEqual(bytes.use((source) => findFileRecord(source, name)), files[name], name);
    }
    equal(bytes.use((source) => findFileRecord(source, "src/none.py")), undefined);
  } finally {
    await Deno.remove(path);
  }
});
