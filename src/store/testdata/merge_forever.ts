/**
 * Child process of the merge kill test: writes a base index, then edits one
 * file (alternating two versions of its passages) and merges every segment
 * into one, over and over, until it is killed. Each edit and each merge is a
 * publish followed by reclamation, so kills land in segment writes, merges
 * and reclamation alike. Prints "ready" once the base is live.
 * Usage: deno run -A merge_forever.ts <indexDir> <count> <dimensions>
 */
import { mergeSegments } from "../merge.ts";
import { openIndex } from "../open_index.ts";
import { publishEdit, writeGeneration } from "../write_generation.ts";
import { editedFile, syntheticGeneration } from "./synthetic.ts";

const [dir, count, dimensions] = Deno.args;
const base = syntheticGeneration(Number(count), Number(dimensions), 1);
await writeGeneration(dir!, base);
console.log("ready");
for (let n = 0;; n++) {
  const edit = editedFile(base, n % 2);
  const live = (await openIndex(dir!, { vectors: "lazy", verifyChecksums: false }))!;
  await publishEdit(dir!, live, {
    manifest: base.manifest,
    removed: [edit.path],
    rows: edit.chunks.map((chunk, i) => [chunk, edit.vectors[i]!]),
  });
  await live.close!();
  await mergeSegments(dir!, { all: true });
}
