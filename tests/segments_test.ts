/**
 * The segmented index seen through index runs: an edit shares the segments
 * of unchanged files, ranking does not depend on how rows are split into
 * segments, and merging keeps every answer.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join, relative } from "node:path";
import { FakeEmbedder, openCorpus } from "../src/mod.ts";
import { liveIndex } from "../src/corpus/open_corpus.ts";
import { reclaim, type StoredIndex } from "../src/store/mod.ts";

const CORPUS = new URL("../fixtures/corpus", import.meta.url).pathname;
const QUERIES: Record<string, string> = JSON.parse(
  Deno.readTextFileSync(new URL("../fixtures/eval/retrieval_queries.json", import.meta.url)),
);

async function files(dir: string, base = dir): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) out.push(...await files(path, base));
    else out.push(relative(base, path));
  }
  return out.sort();
}

async function copy(paths: string[], into: string): Promise<void> {
  for (const path of paths) {
    await Deno.mkdir(join(into, path, ".."), { recursive: true });
    await Deno.copyFile(join(CORPUS, path), join(into, path));
  }
}

/** Every lexical hit of every judged query as `score id`, ranked; ties in id order. */
function rankings(index: StoredIndex): string[][] {
  return Object.values(QUERIES).map((query) =>
    index.lexical(query, 100_000)
      .map((hit) => ({ score: hit.score.toFixed(10), id: index.chunks[hit.index]!.id }))
      .sort((a, b) => Number(b.score) - Number(a.score) || (a.id < b.id ? -1 : 1))
      .map(({ score, id }) => `${score} ${id}`)
  );
}

function segmentNames(index: StoredIndex): string[] {
  return index.manifest.segments.map((segment) => segment.name);
}

Deno.test("an index built one file per run ranks the peer corpus exactly as one built at once", async () => {
  const all = await files(CORPUS);
  const [whole, pieces, data] = await Promise.all([1, 2, 3].map(() => Deno.makeTempDir()));
  try {
    await copy(all, whole);
    const once = await openCorpus(whole, {
      dataDir: join(data, "a"),
      embedder: new FakeEmbedder(),
    });
    await once.index();
    const expected = rankings(await liveIndex(once));
    await once.close();

    await copy(all.slice(0, 4), pieces);
    const grown = await openCorpus(pieces, {
      dataDir: join(data, "b"),
      embedder: new FakeEmbedder(),
    });
    await grown.index();
    let merged = false;
    let segments = 1;
    for (const path of all.slice(4)) {
      await copy([path], pieces);
      await grown.index();
      const index = await liveIndex(grown);
      const now = index.manifest.segments.length;
      if (now < segments + 1) merged = true;
      segments = now;
    }
    // One file more edited in place: its old rows are deleted, not rewritten.
    const edited = join(pieces, all[0]!);
    await Deno.writeTextFile(edited, (await Deno.readTextFile(edited)) + "\n// token refresh\n");
    await Deno.writeTextFile(join(whole, all[0]!), await Deno.readTextFile(edited));
    await grown.index();
    const index = await liveIndex(grown);
    ok(index.manifest.segments.some((segment) => segment.deleted?.length), "rows marked deleted");
    ok(merged, "more than eight segments were merged");

    const again = await openCorpus(whole, {
      dataDir: join(data, "a"),
      embedder: new FakeEmbedder(),
    });
    await again.index();
    const fresh = await liveIndex(again);
    equal(index.chunks.length, fresh.chunks.length);
    deepEqual(rankings(index), rankings(fresh));
    ok(expected.some((hits) => hits.length > 0), "the queries find something");
    await again.close();
    await grown.close();
  } finally {
    for (const dir of [whole, pieces, data]) await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a one-file edit writes one small segment and shares the rest by reference", async () => {
  const [root, data] = await Promise.all([1, 2].map(() => Deno.makeTempDir()));
  try {
    await copy(await files(CORPUS), root);
    const corpus = await openCorpus(root, { dataDir: data, embedder: new FakeEmbedder() });
    await corpus.index();
    const before = await liveIndex(corpus);
    const [base] = segmentNames(before);
    const vectors = join(corpus.indexDir, base!, "vectors.f32");
    const inode = (await Deno.stat(vectors)).ino;
    const path = "services/auth_service.dart";
    const text = await Deno.readTextFile(join(root, path));
    await Deno.writeTextFile(join(root, path), text.replace("class", "/// edited\nclass"));
    const summary = await corpus.index();
    equal(summary.files.changed, 1);
    const after = await liveIndex(corpus);
    const names = segmentNames(after);
    equal(names.length, 2);
    equal(names[0], base, "the unchanged rows' segment is shared");
    equal((await Deno.stat(vectors)).ino, inode, "and not rewritten");
    const [shared, added] = after.manifest.segments;
    const fileRows = after.manifest.files[path]!.chunkIds.length;
    equal(added!.rows, fileRows);
    const oldRows = before.manifest.files[path]!.chunkIds.length;
    equal(after.chunks.length, before.chunks.length - oldRows + fileRows);
    ok(shared!.deleted?.length, "the edited file's old rows are deleted");
    // Every live chunk is readable and where its id says.
    for (const [row, chunk] of after.chunks.entries()) equal(after.rowOf(chunk.id), row);
    ok(after.chunks.some((chunk) => chunk.content.includes("/// edited")));
    // Once readers let go, the next writer leaves only the live generation and its two segments.
    await corpus.close();
    await reclaim(corpus.indexDir);
    const left = (await Array.fromAsync(Deno.readDir(corpus.indexDir))).map((e) => e.name);
    equal(left.filter((name) => name.startsWith("gen-")).length, 1, left.join(" "));
    deepEqual(left.filter((name) => name.startsWith("seg-")).sort(), [...names].sort());
  } finally {
    for (const dir of [root, data]) await Deno.remove(dir, { recursive: true });
  }
});
