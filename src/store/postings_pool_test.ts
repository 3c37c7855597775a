import { deepEqual } from "node:assert/strict";
import { PostingsWriter } from "./lexical_format.ts";
import { PostingsPool } from "./postings_pool.ts";

Deno.test("PostingsPool encodes interleaved lists exactly as one PostingsWriter per list", () => {
  const pool = new PostingsPool();
  const writers = Array.from({ length: 3000 }, () => new PostingsWriter());
  const ids = writers.map(() => pool.list());
  let state = 5;
  const random = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const rows = writers.map(() => 0);
  for (let step = 0; step < 40_000; step++) {
    const list = Math.floor(random() ** 3 * writers.length); // a few long lists, many short ones
    rows[list]! += 1 + Math.floor(random() ** 4 * 2 ** 22); // gaps of every varint length
    const count = random() < 0.7 ? 1 : 2 + Math.floor(random() * 500);
    writers[list]!.add(rows[list]!, count);
    pool.add(ids[list]!, rows[list]!, count);
  }
  writers.forEach((writer, i) => {
    const out = new Uint8Array(pool.size(ids[i]!));
    pool.copy(ids[i]!, out, 0);
    deepEqual(out, writer.bytes.subarray(0, writer.length), `list ${i}`);
  });
});
