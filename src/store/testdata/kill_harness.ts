/**
 * What the SIGKILL tests share: a writer child that says "ready" once it has
 * published, and a look for segment folders no generation lists yet (one
 * being written, or left by a kill).
 */
import { join } from "node:path";

/** Resolves once the child has printed "ready". */
export async function waitForReady(child: Deno.ChildProcess): Promise<void> {
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes("ready")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`child exited before publishing: ${seen}`);
    seen += value;
  }
  reader.releaseLock();
}

/** Segment folders no complete generation lists: being written, or left by a kill. */
export async function unlistedSegments(dir: string): Promise<string[]> {
  const names = (await Array.fromAsync(Deno.readDir(dir))).map((entry) => entry.name);
  const listed = new Set<string>();
  for (const name of names.filter((n) => n.startsWith("gen-"))) {
    try {
      const manifest = JSON.parse(await Deno.readTextFile(join(dir, name, "manifest.json")));
      for (const segment of manifest.segments) listed.add(segment.name);
    } catch {
      // Being written.
    }
  }
  return names.filter((n) => n.startsWith("seg-") && !listed.has(n));
}

/** Resolves as soon as a segment is being written, or after `ms`. */
export async function untilMidWrite(dir: string, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end && (await unlistedSegments(dir)).length === 0) {
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
