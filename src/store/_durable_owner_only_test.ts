/** Whatever the umask and the folder allow, what the store creates is owner-only. */
import { deepEqual } from "node:assert/strict";
import { join } from "node:path";
import { acquireIndexLock } from "./index_lock.ts";
import { recordRunFailure, writeRunProgress } from "./run_state.ts";
import { syntheticGeneration } from "./testdata/synthetic.ts";
import { writeGeneration } from "./write_generation.ts";

/** Each entry under `dir` with its permission bits, in octal. */
async function modes(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    out.push(`${prefix}${entry.name} ${((await Deno.stat(path)).mode! & 0o777).toString(8)}`);
    if (entry.isDirectory) out.push(...await modes(path, `${prefix}${entry.name}/`));
  }
  return out.sort();
}

Deno.test("generations, lock and run records are owner-only under umask 000 in a 755 folder", async () => {
  const dir = await Deno.makeTempDir();
  const before = Deno.umask(0);
  try {
    await Deno.chmod(dir, 0o755);
    const lock = await acquireIndexLock(dir);
    const now = new Date().toISOString();
    const counts = { filesDone: 0, filesTotal: 0, chunksDone: 0, chunksTotal: 0 };
    await writeRunProgress(dir, {
      pid: Deno.pid,
      startedAt: now,
      updatedAt: now,
      phase: "walk",
      ...counts,
    });
    await recordRunFailure(dir, { at: now, pid: Deno.pid, code: "io", message: "m" });
    const name = await writeGeneration(dir, syntheticGeneration(3, 4));
    const found = await modes(dir);
    const segment = found.find((entry) => entry.startsWith("seg-"))!.split(" ")[0]!;
    await lock.release();
    const expected = [
      ".wayfinder-index 600",
      "current 600",
      "last-failure.json 600",
      "lock 600",
      "progress.json 600",
      "verified.json 600",
      `${name} 700`,
      `${name}/files.jsonl 600`,
      `${name}/manifest.json 600`,
      `${segment} 700`,
      ...["chunks.bin", "lexical.bin", "text.bin", "vectors.f32"].map((file) =>
        `${segment}/${file} 600`
      ),
    ];
    deepEqual(found, expected.sort());
  } finally {
    Deno.umask(before);
    await Deno.remove(dir, { recursive: true });
  }
});
