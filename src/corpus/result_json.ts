import type { ParentContext, SearchHit, SearchScores } from "../search/mod.ts";
import type { Chunk } from "../types.ts";
import type { ConfiguredSearchResult } from "./corpus.ts";

/** One match as `search --output json` and the MCP `search` tool print it. */
export interface HitJson {
  chunk: Omit<Chunk, "symbol" | "parent"> & { symbol: string | null };
  score: number;
  /** The former name of `score`, kept for one format version. */
  similarity: number;
  scores: SearchScores;
  parent?: ParentContext;
}

/** A knowledge context entry as JSON. */
export interface ContextEntryJson {
  reason: "match" | "governing" | "relationship";
  path: string;
  viaPath?: string;
  passage: HitJson;
}

/** A search as JSON. */
export interface ResultJson {
  query: string;
  matches: HitJson[];
  context?: ContextEntryJson[];
  contextText?: string;
  notices: string[];
}

/**
 * A hit as JSON, the one shape the CLI and the MCP server print. `score` is
 * what the hit was ranked by (cosine, BM25, fused or rerank score);
 * `similarity` is its former name, kept for one format version.
 */
export function hitJson(hit: SearchHit): HitJson {
  const c = hit.chunk;
  const score = Number(hit.score.toFixed(6));
  return {
    chunk: {
      id: c.id,
      sourcePath: c.sourcePath,
      lineStart: c.lineStart,
      lineEnd: c.lineEnd,
      startOffset: c.startOffset,
      endOffset: c.endOffset,
      type: c.type,
      language: c.language,
      symbol: c.symbol ?? null,
      content: c.content,
      metadata: c.metadata,
    },
    score,
    similarity: score,
    scores: hit.scores,
    ...(hit.parent ? { parent: hit.parent } : {}),
  };
}

/** A whole search result as JSON: `{query, matches, context?, contextText?, notices}`. */
export function resultJson(result: ConfiguredSearchResult): ResultJson {
  const { context, ...rest } = result;
  const json: ResultJson = { ...rest, matches: result.matches.map(hitJson) };
  if (context) {
    json.context = context.map((entry) => ({ ...entry, passage: hitJson(entry.passage) }));
  }
  return json;
}
