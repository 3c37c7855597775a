/**
 * `deno task compile`: builds the single `wayfinder` binary into dist/, with
 * the tree-sitter grammars and the default model's manifest beside it (the
 * binary looks for `grammars/` and `models/` next to itself).
 *
 * `deno compile` needs Deno's `denort` runtime for the target. It is fetched
 * from Deno's servers unless DENORT_BIN points to a local copy; where neither
 * works this stops with a clear message instead of a download stack trace.
 */
import { cpSync, existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { LANGUAGES } from "../src/chunk/mod.ts";

const repo = dirname(dirname(fileURLToPath(import.meta.url)));
const dist = join(repo, "dist");
const version = Deno.version.deno;

async function denortReachable(): Promise<boolean> {
  const url = `https://dl.deno.land/release/v${version}/denort-x86_64-unknown-linux-gnu.zip`;
  try {
    const response = await fetch(url, { method: "HEAD", signal: AbortSignal.timeout(5000) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * Whether `path` is an executable file holding this Deno's version (denort
 * carries it; `/bin/true` or a folder does not): a wrong runtime would build
 * a binary that silently does nothing.
 */
async function isDenort(path: string): Promise<boolean> {
  const info = await Deno.stat(path).catch(() => null);
  if (!info?.isFile || ((info.mode ?? 0o111) & 0o111) === 0) return false;
  const bytes = await Deno.readFile(path);
  return new TextDecoder("latin1").decode(bytes).includes(version);
}

const denortBin = Deno.env.get("DENORT_BIN");
if (denortBin && !existsSync(denortBin)) {
  console.error(`wayfinder: DENORT_BIN points to '${denortBin}', which does not exist`);
  Deno.exit(2);
}
if (denortBin && !(await isDenort(denortBin))) {
  console.error(
    `wayfinder: DENORT_BIN points to '${denortBin}', which is not Deno's runtime 'denort' v${version}`,
  );
  Deno.exit(2);
}
if (!denortBin && !(await denortReachable())) {
  console.error(
    `wayfinder: Cannot compile: Deno's runtime 'denort' v${version} cannot be downloaded from dl.deno.land here. ` +
      `Download denort-<target>.zip for v${version} on a connected machine, unzip it, and run ` +
      `'DENORT_BIN=/path/to/denort deno task compile'`,
  );
  Deno.exit(2);
}

mkdirSync(join(dist, "models"), { recursive: true });
const compile = new Deno.Command(Deno.execPath(), {
  args: ["compile", "-A", "--output", join(dist, "wayfinder"), join(repo, "main.ts")],
  cwd: repo,
  stdout: "inherit",
  stderr: "inherit",
}).spawn();
const { code } = await compile.status;
if (code !== 0) Deno.exit(code);

cpSync(join(repo, "node_modules", "tree-sitter-wasms", "out"), join(dist, "grammars"), {
  recursive: true,
});
// Grammars from packages of their own replace tree-sitter-wasms' of the same name.
for (const spec of Object.values(LANGUAGES)) {
  if (!spec.package) continue;
  const file = `tree-sitter-${spec.grammar}.wasm`;
  cpSync(join(repo, "node_modules", spec.package, file), join(dist, "grammars", file));
}
cpSync(join(repo, "models", "default.json"), join(dist, "models", "default.json"));
for (const file of ["embedding.gguf", "embedding.manifest.json"]) {
  if (existsSync(join(repo, "models", file))) {
    cpSync(join(repo, "models", file), join(dist, "models", file));
  }
}
console.error(`Built ${join(dist, "wayfinder")} with grammars/ and models/ beside it`);
