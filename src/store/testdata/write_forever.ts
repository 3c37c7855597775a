/**
 * Child process of the kill test: publishes large generations with
 * alternating seeds until it is killed. Prints "ready" once the first
 * generation is live.
 * Usage: deno run -A write_forever.ts <indexDir> <count> <dimensions>
 */
import { writeGeneration } from "../write_generation.ts";
import { syntheticGeneration } from "./synthetic.ts";

const [dir, count, dimensions] = Deno.args;
const generations = [1, 2].map((seed) =>
  syntheticGeneration(Number(count), Number(dimensions), seed)
);
for (let n = 0;; n++) {
  await writeGeneration(dir!, generations[n % 2]!);
  if (n === 0) console.log("ready");
}
