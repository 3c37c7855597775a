/** Test helpers for the walker: build a tree in a temp dir, list what a walk keeps. */
import { dirname, join } from "node:path";
import { type WalkOptions, walkTree } from "../mod.ts";

/** Writes `files` (path → text or bytes) under a fresh temp dir and returns it. */
export async function makeTree(files: Record<string, string | Uint8Array>): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "wayfinder_walk_" });
  for (const [path, data] of Object.entries(files)) {
    const abs = join(root, path);
    await Deno.mkdir(dirname(abs), { recursive: true });
    if (typeof data === "string") await Deno.writeTextFile(abs, data);
    else await Deno.writeFile(abs, data);
  }
  return root;
}

/** The accepted paths of a walk. */
export async function paths(root: string, options: WalkOptions = {}): Promise<string[]> {
  return (await walkTree(root, options)).files.map((f) => f.path);
}

/** Runs `body` on a fresh tree and removes the tree afterwards. */
export async function withTree(
  files: Record<string, string | Uint8Array>,
  body: (root: string) => Promise<void>,
): Promise<void> {
  const root = await makeTree(files);
  try {
    await body(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}
