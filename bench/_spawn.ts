/** Runs `bench/_child.ts` in a fresh Deno process and returns the JSON it prints. */
const CHILD = new URL("./_child.ts", import.meta.url).pathname;
const CONFIG = new URL("../deno.json", import.meta.url).pathname;

export async function child(...args: string[]): Promise<Record<string, number>> {
  const started = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--config", CONFIG, CHILD, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const wallMs = performance.now() - started;
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return { ...JSON.parse(new TextDecoder().decode(out.stdout)), wallMs };
}
