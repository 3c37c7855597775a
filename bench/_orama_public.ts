/**
 * The lexical index built on Orama's documented public surface only, for
 * `lexical_probe.ts` to measure against our own postings: `create` with a
 * schema and a tokenizer component, `insertMultiple`, `search` with term,
 * properties, boost, relevance, threshold, limit and where, and `save`/`load`.
 */
import {
  type AnyOrama,
  create,
  insertMultiple,
  load,
  type RawData,
  save,
  search,
  type Tokenizer,
} from "@orama/orama";
import { tokenizeCode, tokenizeQuery } from "../src/store/code_tokenizer.ts";
import type { LexicalHit } from "../src/store/lexical_index.ts";
import type { Chunk } from "../src/types.ts";

/** Knobs of Orama's public search. */
export interface OramaConfig {
  boost: { content: number; symbol: number; sourcePath: number };
  relevance: { k: number; b: number; d: number };
  /**
   * Orama's search always matches the words a query token begins (`exact`
   * instead compares raw text case-sensitively); a sentinel ending every
   * token makes a prefix match a whole-word match.
   */
  wholeWords: boolean;
}

const SCHEMA = {
  content: "string",
  symbol: "string",
  sourcePath: "string",
  type: "enum",
  language: "enum",
} as const;

const END = "\u0001";

/**
 * Our code tokenizer as an Orama component. Orama passes the property name
 * when indexing and none when tokenizing a search term, so queries get
 * `tokenizeQuery`'s compounds.
 */
function codeTokenizer(wholeWords: boolean): Tokenizer {
  const mark = (tokens: string[]) => wholeWords ? tokens.map((t) => t + END) : tokens;
  return {
    language: "english",
    normalizationCache: new Map(),
    tokenize: (raw, _language, prop) => mark(prop ? tokenizeCode(raw) : tokenizeQuery(raw)),
  };
}

function createDb(config: OramaConfig): AnyOrama {
  return create({
    schema: SCHEMA,
    sort: { enabled: false },
    components: { tokenizer: codeTokenizer(config.wholeWords) },
  });
}

/** Builds the Orama database of `chunks` (ids are row numbers) and saves it as JSON. */
export function buildOrama(chunks: Chunk[], config: OramaConfig): string {
  const db = createDb(config);
  insertMultiple(
    db,
    chunks.map((chunk, i) => ({
      id: String(i),
      content: chunk.content,
      symbol: chunk.symbol ?? "",
      sourcePath: chunk.sourcePath,
      type: chunk.type,
      language: chunk.language,
    })),
    10_000,
  );
  return JSON.stringify(save(db));
}

/** Loads a saved database and returns its search function, optionally filtered by type and language. */
export function loadOrama(
  json: string,
  config: OramaConfig,
): (
  query: string,
  limit: number,
  filter?: { types?: string[]; languages?: string[] },
) => LexicalHit[] {
  const db = createDb(config);
  load(db, JSON.parse(json) as RawData);
  return (query, limit, filter = {}) => {
    const where: Record<string, { in: string[] }> = {};
    if (filter.types) where.type = { in: filter.types };
    if (filter.languages) where.language = { in: filter.languages };
    const result = search(db, {
      term: query,
      properties: ["content", "symbol", "sourcePath"],
      boost: config.boost,
      relevance: config.relevance,
      threshold: 1,
      limit,
      where,
    }) as { hits: { id: string; score: number }[] };
    return result.hits.map((hit) => ({ index: Number(hit.id), score: hit.score }));
  };
}
