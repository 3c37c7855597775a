import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { renameImports } from "./wasm_imports.ts";

const GRAMMARS = fileURLToPath(
  new URL("out/", import.meta.resolve("tree-sitter-wasms/package.json")),
);

function functionImports(bytes: Uint8Array): string[] {
  const module = new WebAssembly.Module(bytes as Uint8Array<ArrayBuffer>);
  return WebAssembly.Module.imports(module).filter((i) => i.kind === "function").map((i) => i.name);
}

Deno.test("renameImports() points the Bash grammar's isalpha at the runtime's iswalpha", async () => {
  const original = new Uint8Array(await readFile(join(GRAMMARS, "tree-sitter-bash.wasm")));
  assert.ok(functionImports(original).includes("isalpha"));
  const renamed = renameImports(original);
  const names = functionImports(renamed);
  assert.ok(!names.includes("isalpha"));
  assert.deepEqual(names, functionImports(original).map((n) => n === "isalpha" ? "iswalpha" : n));
  // Every other import, and every other section, is as it was.
  const others = (bytes: Uint8Array) =>
    WebAssembly.Module.imports(new WebAssembly.Module(bytes as Uint8Array<ArrayBuffer>))
      .filter((i) => i.kind !== "function");
  assert.deepEqual(others(renamed), others(original));
  assert.equal(renamed.length, original.length + 1);
});

Deno.test("renameImports() returns a module with nothing to rename as it is, and refuses non-modules", async () => {
  const go = new Uint8Array(await readFile(join(GRAMMARS, "tree-sitter-go.wasm")));
  assert.equal(renameImports(go), go);
  assert.throws(() => renameImports(new TextEncoder().encode("not wasm")), /not a WebAssembly/);
  assert.throws(() => renameImports(go.subarray(0, 40)), /truncated/);
});
