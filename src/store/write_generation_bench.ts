/** `deno bench -A src/store/` — write and open a 10k × 384 generation (synthetic). */
import { openIndex } from "./open_index.ts";
import { syntheticGeneration } from "./testdata/synthetic.ts";
import { writeGeneration } from "./write_generation.ts";

const data = syntheticGeneration(10_000, 384);
const dir = await Deno.makeTempDir();
addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
await writeGeneration(dir, data);

Deno.bench({ name: "writeGeneration() 10k × 384", n: 3, warmup: 0 }, async () => {
  await writeGeneration(dir, data);
});

Deno.bench({ name: "openIndex() 10k × 384", n: 5, warmup: 1 }, async () => {
  await openIndex(dir);
});

Deno.bench({ name: "openIndex() + first lexical() 10k × 384", n: 3, warmup: 0 }, async () => {
  (await openIndex(dir))!.lexical("user session token", 50);
});

Deno.bench({ name: "lexical() 10k, warm", n: 20, warmup: 2 }, async (b) => {
  const index = (await openIndex(dir))!;
  index.lexical("warm up", 1);
  b.start();
  index.lexical("refresh user session token", 50);
  b.end();
});
