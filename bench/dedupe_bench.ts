/**
 * Embedding dedupe on the Python standard library's sources (its `*.py`
 * files without site-packages, about 1,800 files and 31 MB): walks, chunks
 * and fits them as `index` does with those include and exclude globs,
 * fitting with the real model's tokenizer, and counts the embedding
 * inputs against the distinct ones, which are all `index` embeds in one run.
 * An input starts with its path and symbol, so copies in two files differ;
 * the passages alone, without that line, show what the copies are. Nothing
 * is embedded.
 *
 *   deno bench -A bench/dedupe_bench.ts
 */
import { createCodeChunker } from "../src/chunk/mod.ts";
import { LlamaEmbedder } from "../src/embed/mod.ts";
import { embeddingInput, INPUT_FORMAT } from "../src/pipeline/mod.ts";
import { chunkSource, walkSources } from "../src/pipeline/chunk_source.ts";
import { report, skipSuite } from "./_report.ts";
import { requireModel } from "./_model.ts";
import { pythonStdlib } from "./_python_stdlib.ts";

const stdlib = await pythonStdlib();
if ("skip" in stdlib) skipSuite(stdlib.skip);
const embedder = await LlamaEmbedder.create({
  modelPath: requireModel(),
  threads: 1,
  inputFormat: INPUT_FORMAT,
});
try {
  const { files } = await walkSources({
    root: stdlib.root,
    include: ["**/*.py"],
    exclude: ["site-packages/**"],
  });
  const chunker = await createCodeChunker();
  let chunks = 0;
  let inputs = 0;
  const distinct = new Set<string>();
  const passages = new Set<string>();
  for (const file of files) {
    for (const { fragments } of await chunkSource(file, { chunker, embedder })) {
      chunks++;
      inputs += fragments.length;
      for (const fragment of fragments) {
        distinct.add(embeddingInput(fragment));
        // The same input without the path and symbol line: the passage alone.
        passages.add(embeddingInput({ ...fragment, sourcePath: "", symbol: undefined }));
      }
    }
  }
  const target = `embedding dedupe, Python stdlib (${files.length.toLocaleString("en")} files, ` +
    `${chunks.toLocaleString("en")} chunks)`;
  const all = { label: "embedding inputs", amount: inputs };
  const saving = (kept: number) => {
    const saved = inputs - kept;
    return `${saved.toLocaleString("en")} embeddings, ${(100 * saved / inputs).toFixed(1)}%`;
  };
  report(
    target,
    { label: "distinct inputs (embedded by index)", amount: distinct.size, unit: "inputs" },
    all,
    `saves ${saving(distinct.size)}`,
  );
  report(
    target,
    { label: "distinct passages (without the path line)", amount: passages.size, unit: "inputs" },
    all,
    `a key without the path would save ${saving(passages.size)}`,
  );
} finally {
  await embedder.close();
}
