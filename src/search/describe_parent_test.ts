import assert from "node:assert/strict";
import { describeParent, parentIsWider } from "./describe_parent.ts";
import { expandingSearcher } from "./expand.ts";
import { indexSearcher } from "./searcher.ts";
import { cut, makeIndex } from "./testdata/index.ts";

const EAST = new Float32Array([1, 0, 0]);
const embedQuery = () => Promise.resolve(EAST);

Deno.test("describeParent() names no context for a container that is itself the hit", async () => {
  // A class too long for one chunk: its methods are chunks of their own.
  const body = (name: string) =>
    Array.from(
      { length: 30 },
      (_, i) => `    const ${name}${i} = computeSomething(${i}, "${name}");`,
    )
      .join("\n");
  const source = "export interface IndexLock {\n  release(): Promise<void>;\n}\n\n" +
    `export class Store {\n  open(): void {\n${body("open")}\n  }\n\n` +
    `  close(): void {\n${body("close")}\n  }\n}\n`;
  const chunks = await cut("src/lock.ts", source);
  const lock = chunks.find((c) => c.symbol === "IndexLock")!;
  const close = chunks.find((c) => c.symbol === "Store.close")!;
  const index = makeIndex(
    chunks,
    chunks.map((c) => c === lock || c === close ? [1, 0, 0] : [0, 1, 0]),
  );
  const { matches } = await expandingSearcher(
    indexSearcher(index, { mode: "dense", embedQuery }),
    index,
    () => source,
  ).search({ query: "q", limit: 2 });
  const byId = new Map(matches.map((m) => [m.chunk.id, m]));
  const own = byId.get(lock.id)!;
  assert.deepEqual([own.parent?.lineStart, own.parent?.lineEnd], [lock.lineStart, lock.lineEnd]);
  assert.equal(parentIsWider(own), false);
  assert.equal(describeParent(own), undefined, "not 'IndexLock in interface IndexLock'");
  // A member is shown in its wider class, and says so.
  const member = byId.get(close.id)!;
  assert.equal(parentIsWider(member), true);
  assert.equal(describeParent(member), "in class Store");
});
