/**
 * Golden files for the tests in src/: a value is compared with the JSON
 * stored for it, byte for byte; UPDATE_GOLDENS=1 rewrites the file instead.
 */
import assert from "node:assert/strict";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { fileURLToPath } from "node:url";

/** Asserts that `value`, as indented JSON, is what the golden file at `golden` holds. */
export async function assertGolden(golden: URL, value: unknown): Promise<void> {
  const path = fileURLToPath(golden);
  const name = basename(path);
  const actual = JSON.stringify(value, null, 2) + "\n";
  if (Deno.env.get("UPDATE_GOLDENS") === "1") {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, actual);
    return;
  }
  let expected: string;
  try {
    expected = await readFile(path, "utf8");
  } catch {
    throw new Error(`Golden '${name}' is missing: run with UPDATE_GOLDENS=1`);
  }
  assert.deepEqual(JSON.parse(actual), JSON.parse(expected), `golden '${name}' differs`);
  assert.equal(actual, expected, `golden '${name}' differs in formatting`);
}
