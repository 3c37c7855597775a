/**
 * The Python standard library as a real corpus for the chunk and dedupe
 * benches: its folder as this machine's python3 reports it, or a reason why
 * there is none.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { SourceFile } from "../src/types.ts";

/** The stdlib folder, or why it cannot be had. */
export async function pythonStdlib(): Promise<{ root: string } | { skip: string }> {
  const code = 'import sysconfig; print(sysconfig.get_paths()["stdlib"])';
  try {
    const out = await new Deno.Command("python3", { args: ["-c", code], stderr: "null" }).output();
    const root = new TextDecoder().decode(out.stdout).trim();
    if (out.success && root) return { root };
    return { skip: "python3 did not report its standard library" };
  } catch {
    return { skip: "python3 not found" };
  }
}

/** The stdlib's top-level modules (`*.py` directly in its folder), in name order. */
export async function topLevelModules(root: string): Promise<SourceFile[]> {
  const names = (await readdir(root)).filter((name) => name.endsWith(".py")).sort();
  return await Promise.all(names.map(async (path) => {
    const absolutePath = join(root, path);
    const bytes = await readFile(absolutePath);
    return { path, absolutePath, content: new TextDecoder().decode(bytes), bytes: bytes.length };
  }));
}
