import assert from "node:assert/strict";
import { join } from "node:path";
import { WayfinderError } from "../error.ts";
import {
  distillStaticModel,
  encodeStaticModel,
  manifestPathFor,
  readStaticModel,
  sha256File,
  writeTinyModel,
} from "../model/mod.ts";
import { LlamaEmbedder } from "./llama.ts";
import { openLlamaTokenOutputs } from "./llama_token_outputs.ts";
import { NO_TOKEN_LIMIT, StaticEmbedder } from "./static.ts";
import { WordPieceTokenizer, words } from "./wordpiece.ts";

/** The tiny generated GGUF, and a static model distilled from it, in a temp dir. */
async function tinyStatic(dims = 16) {
  const dir = await Deno.makeTempDir({ prefix: "wayfinder-static-" });
  const gguf = join(dir, "tiny.gguf");
  await writeTinyModel(gguf);
  const to = join(dir, "tiny.static");
  const source = await openLlamaTokenOutputs(gguf, 1);
  try {
    await distillStaticModel(source, { to, dims, sourcePath: gguf });
  } finally {
    await source.close();
  }
  return {
    dir,
    gguf,
    to,
    async [Symbol.asyncDispose]() {
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("distilling the tiny model twice gives the same bytes", async () => {
  await using a = await tinyStatic();
  await using b = await tinyStatic();
  const [first, second] = [await Deno.readFile(a.to), await Deno.readFile(b.to)];
  assert.ok(first.length > 0);
  assert.deepEqual(first, second);
  const manifest = JSON.parse(await Deno.readTextFile(manifestPathFor(a.to)));
  assert.equal(manifest.kind, "static");
  assert.equal(manifest.bytes, first.length);
  assert.equal(manifest.dimensions, 16);
});

Deno.test("distillation leaves out the strongest components where the source has dimensions to spare", async () => {
  await using spare = await tinyStatic(16);
  await using none = await tinyStatic(32);
  const dropped = (await readStaticModel(spare.to)).model.header.method;
  const kept = (await readStaticModel(none.to)).model.header.method;
  // The tiny model has 32 dimensions: 16 kept leaves room to drop 16, 32 kept leaves none.
  assert.equal(dropped.droppedComponents, 16);
  assert.equal(kept.droppedComponents, 0);
  assert.ok(kept.explainedVariance > 0.999, `${kept.explainedVariance}`);
  // The weaker half of 32 components never explains more than half the variance.
  assert.ok(dropped.explainedVariance <= 0.5, `${dropped.explainedVariance}`);
});

Deno.test("the static tokenizer splits text as llama.cpp's WordPiece does", async () => {
  await using t = await tinyStatic();
  const { model } = await readStaticModel(t.to);
  const tokenizer = new WordPieceTokenizer(
    model.header.tokenizer.tokens,
    model.header.tokenizer.unk,
  );
  const llama = await LlamaEmbedder.create({ modelPath: t.gguf, threads: 1 });
  try {
    const texts = [
      "hello world",
      "function getEmbeddingFor(text) { return this.model.embed(text); }",
      "  Über naïve café\tZÜRICH 日本語 x+=1; a->b // TODO: fix_me!!  ",
      "def __init__(self, path='~/x.json'):\n    self.path = path",
      "",
    ];
    for (const text of texts) {
      // The llama embedder wraps inputs in CLS and SEP; the static model adds neither.
      const expected = await llama.countTokens(text, "document") - 2;
      assert.equal(tokenizer.tokenize(text).length, expected, text);
    }
  } finally {
    await llama.close();
  }
});

Deno.test("the static tokenizer cuts identifiers into their parts, on both of its paths", async () => {
  await using t = await tinyStatic();
  const { tokens, unk } = (await readStaticModel(t.to)).model.header.tokenizer;
  const plain = new WordPieceTokenizer(tokens, unk);
  const split = new WordPieceTokenizer(tokens, unk, { splitIdentifiers: true });
  const cases: [string, string][] = [
    ["parseConfigFile(path)", "parse Config File(path)"],
    ["HTTPServer.listen", "HTTP Server.listen"],
    ["utf8Decode base64Encoder", "utf8 Decode base64 Encoder"],
    ["snake_case_name MAX_SIZE", "snake_case_name MAX_SIZE"],
    ["XMLHttpRequest getURL", "XML Http Request get URL"],
  ];
  for (const [identifier, spaced] of cases) {
    assert.deepEqual(split.tokenize(identifier), plain.tokenize(spaced), identifier);
    // A non-ASCII space sends the text down the Unicode path; it must cut the same way.
    assert.deepEqual(split.tokenize(`${identifier}\u00a0`), plain.tokenize(spaced), identifier);
  }
  assert.deepEqual([...words("ÜberSchallGeschwindigkeit", true)], [
    "uber",
    "schall",
    "geschwindigkeit",
  ]);
  assert.notDeepEqual(split.tokenize("parseConfigFile"), plain.tokenize("parseConfigFile"));
  // Off by default: the tokenizer then cuts exactly as llama.cpp does (the test above).
  assert.deepEqual(plain.tokenize("parseConfig"), plain.tokenize("parseconfig"));
});

Deno.test("the static embedder embeds without a context window: unit vectors, a bag of pieces", async () => {
  await using t = await tinyStatic();
  const embedder = await StaticEmbedder.open({ modelPath: t.to });
  assert.equal(embedder.identity.provider, "static");
  assert.equal(embedder.identity.dimensions, 16);
  assert.equal(embedder.identity.maxTokens, NO_TOKEN_LIMIT);
  const long = "search the index for a file ".repeat(5000);
  assert.equal(await embedder.countTokens(long, "document"), 6 * 5000);
  const [a, b, c, empty] = await embedder.embedDocuments([
    "search the index",
    "index the search",
    "jumps lazy dog cat",
    "",
  ]);
  for (const v of [a, b, c, empty]) assert.ok(Math.abs(Math.hypot(...v) - 1) < 1e-5);
  // Word order does not matter to an average; the words do.
  assert.deepEqual(a, b);
  assert.notDeepEqual(a, c);
  assert.deepEqual(
    await embedder.embedQuery("search the index"),
    await embedder.embedQuery("search the index"),
  );
  await embedder.close();
  await assert.rejects(() => embedder.embedQuery("x"), WayfinderError);
});

Deno.test("a static model's vectors read back row by row as they were written", async () => {
  await using t = await tinyStatic();
  const { model } = await readStaticModel(t.to);
  const { vocabSize, dimensions } = model.header;
  // A ramp every float16 holds exactly: a read that starts anywhere but at the first row shows.
  const ramp = Float32Array.from({ length: vocabSize * dimensions }, (_, i) => (i % 2048) / 4);
  const bytes = encodeStaticModel(model.header, ramp);
  await Deno.writeFile(t.to, bytes);
  const manifestPath = manifestPathFor(t.to);
  const manifest = JSON.parse(await Deno.readTextFile(manifestPath));
  manifest.sha256 = await sha256File(t.to);
  manifest.bytes = bytes.length;
  await Deno.writeTextFile(manifestPath, JSON.stringify(manifest));
  assert.deepEqual((await readStaticModel(t.to)).model.vectors, ramp);
  // The embedder averages exactly those rows: one known piece is its own row, normalised.
  const embedder = await StaticEmbedder.open({ modelPath: t.to });
  const tokenizer = new WordPieceTokenizer(
    model.header.tokenizer.tokens,
    model.header.tokenizer.unk,
  );
  const [id] = tokenizer.tokenize("index");
  const row = ramp.slice(id! * dimensions, (id! + 1) * dimensions);
  const norm = Math.hypot(...row);
  const [vector] = await embedder.embedDocuments(["index"]);
  for (let k = 0; k < dimensions; k++) assert.ok(Math.abs(vector![k]! - row[k]! / norm) < 1e-6);
  await embedder.close();
});

Deno.test("a static model that is truncated or does not match its manifest is refused", async () => {
  await using t = await tinyStatic();
  const bytes = await Deno.readFile(t.to);
  await Deno.writeFile(t.to, bytes.subarray(0, bytes.length - 10));
  await assert.rejects(() => StaticEmbedder.open({ modelPath: t.to }), /truncated/);
  const flipped = bytes.slice();
  flipped[flipped.length - 1] ^= 1;
  await Deno.writeFile(t.to, flipped);
  await assert.rejects(
    () => StaticEmbedder.open({ modelPath: t.to }),
    /does not match its manifest/,
  );
  await assert.rejects(
    () => StaticEmbedder.open({ modelPath: join(t.dir, "missing.static") }),
    (error: WayfinderError) => error.code === "no_model",
  );
});

Deno.test("distilling refuses a file that is not a GGUF embedding model, writing nothing", async () => {
  await using t = await tinyStatic();
  const notGguf = join(t.dir, "notes.gguf");
  await Deno.writeTextFile(notGguf, "not a model");
  await assert.rejects(
    () => openLlamaTokenOutputs(notGguf, 1),
    (error: WayfinderError) => error.code === "model",
  );
  await assert.rejects(
    () => openLlamaTokenOutputs(join(t.dir, "missing.gguf"), 1),
    (error: WayfinderError) => error.code === "no_model",
  );
  await assert.rejects(() => openLlamaTokenOutputs(t.to, 1), /already a static model|not|Cannot/);
});

Deno.test("a distillation stopped midway publishes nothing", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wayfinder-static-" });
  const gguf = join(dir, "tiny.gguf");
  await writeTinyModel(gguf);
  const source = await openLlamaTokenOutputs(gguf, 1);
  const controller = new AbortController();
  try {
    await assert.rejects(() =>
      distillStaticModel(source, {
        to: join(dir, "tiny.static"),
        sourcePath: gguf,
        signal: controller.signal,
        // Stop once the first tokens are through.
        onProgress: (done) => done > 1 && controller.abort(),
      })
    );
  } finally {
    await source.close();
  }
  assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
    "tiny.gguf",
    "tiny.manifest.json",
  ]);
  await Deno.remove(dir, { recursive: true });
});
