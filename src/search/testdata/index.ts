import { chunkFile, type CodeChunker, createCodeChunker } from "../../chunk/mod.ts";
import type { Chunk } from "../../types.ts";
import { detectLanguage } from "../../walk/mod.ts";
import type { SearchableIndex } from "../search_types.ts";
import { fromText } from "../../testdata/source_files.ts";

/** A one-line chunk whose content is its id. */
export function chunk(
  id: string,
  sourcePath: string,
  type = "function",
  language = "typescript",
): Chunk {
  return {
    id,
    sourcePath,
    lineStart: 1,
    lineEnd: 1,
    startOffset: 0,
    endOffset: id.length,
    type,
    language,
    content: id,
    metadata: {},
  };
}

function normalise(v: number[]): number[] {
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

/** An in-memory index over `chunks`, row i normalised from `rows[i]`. */
export function makeIndex(chunks: Chunk[], rows: number[][], lexical?: SearchableIndex["lexical"]) {
  const dimensions = rows[0].length;
  const vectors = new Float32Array(rows.flatMap(normalise));
  return { chunks, vectors, dimensions, lexical } satisfies SearchableIndex;
}

/** One code chunker for the file, loaded when first needed: its grammars load once. */
let chunker: Promise<CodeChunker> | undefined;

/** `source` as the indexer cuts it: code by its syntax, Markdown by headings, the rest as text. */
export async function cut(path: string, source: string): Promise<Chunk[]> {
  chunker ??= createCodeChunker();
  return chunkFile(fromText(path, source), detectLanguage(path), await chunker);
}
