import {
  type AnyIndexStore,
  components,
  create,
  type IIndex,
  insertMultiple,
  load,
  type RawData,
  save,
  search,
  type Tokenizer,
} from "@orama/orama";
import type { Chunk } from "../types.ts";
import { tokenizeCode } from "./code_tokenizer.ts";

/** A lexical hit: the chunk's row in the generation and its BM25 score. */
export interface LexicalHit {
  index: number;
  score: number;
}

const SCHEMA = { content: "string", symbol: "string", sourcePath: "string" } as const;
const PROPERTIES: ("content" | "symbol" | "sourcePath")[] = ["content", "symbol", "sourcePath"];

// Orama's own index layout, as far as we touch it (pinned to @orama/orama 3.1).
interface RadixJson {
  w: string;
  e: boolean;
  d: number[];
  c?: [string, RadixJson][];
  /** Ours: occurrences of `w` in each document of `d`, when any is not 1. */
  f?: number[];
}
interface IndexJson {
  indexes: Record<string, { type: string; node: RadixJson }>;
  frequencies: Record<string, Record<number, Record<string, number>>>;
  tokenOccurrences: Record<string, Record<string, number>>;
  fieldLengths: Record<string, Record<number, number>>;
}
interface SavedJson {
  index: IndexJson;
  docs: { docs: Record<string, unknown>; count: number };
}
type Store = AnyIndexStore & IndexJson & { sharedInternalDocumentStore: unknown };

/**
 * Orama tokenizer component around `tokenizeCode`. Passages keep repeated
 * tokens so BM25 sees term frequencies; queries (no property) are
 * deduplicated so a repeated query word does not count twice.
 */
function codeTokenizer(): Tokenizer {
  return {
    language: "english",
    normalizationCache: new Map(),
    tokenize: (raw: string, _language?: string, prop?: string) => {
      const tokens = tokenizeCode(raw);
      return prop === undefined ? [...new Set(tokens)] : tokens;
    },
  };
}

/**
 * Orama's default index, except for per-token scoring on insert. The default
 * recounts the token in the whole passage at every occurrence (quadratic) and
 * counts a token once per occurrence in document frequency (skewing IDF when
 * tokens repeat); this counts once per passage, and uses own-property checks
 * so tokens such as `constructor` do not hit `Object.prototype`.
 */
function bm25Index(): IIndex<AnyIndexStore> {
  const base = components.index.createIndex();
  // Orama calls this once per token occurrence with the passage's token array;
  // the first call scores every distinct token of that array, the rest return.
  const done = new WeakSet<string[]>();
  return {
    ...base,
    insertTokenScoreParameters(
      index: AnyIndexStore,
      prop: string,
      id: string | number,
      tokens: string[],
    ) {
      if (done.has(tokens)) return;
      done.add(tokens);
      const store = index as Store;
      const counts = new Map<string, number>();
      for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
      // Orama passes the internal id here; resolve it as its default does.
      const internalId = components.internalDocumentIDStore.getInternalDocumentId(
        store.sharedInternalDocumentStore as never,
        id,
      );
      const frequencies = store.frequencies[prop]![internalId]!;
      const occurrences = store.tokenOccurrences[prop]!;
      for (const [token, count] of counts) {
        frequencies[token] = count / tokens.length;
        occurrences[token] = (Object.hasOwn(occurrences, token) ? occurrences[token]! : 0) + 1;
      }
    },
  } as IIndex<AnyIndexStore>;
}

/** Creates an empty full-text database with our tokenizer and scoring. */
export function _createDb() {
  return create({
    schema: SCHEMA,
    // Results are ranked by score only; sort indexes of long passages would cost time and space.
    sort: { enabled: false },
    components: { tokenizer: codeTokenizer(), index: bm25Index() },
  });
}

/** Calls `visit` on every word node of a saved radix tree. */
function eachWord(root: RadixJson, visit: (node: RadixJson) => void): void {
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.e) visit(node);
    if (node.c) { for (const [, child] of node.c) stack.push(child); }
  }
}

/**
 * Builds the full-text index of a generation's chunks and serialises it.
 * Document ids are row numbers. Two things Orama saves are left out, to
 * shrink the file by about 60%: the documents (chunks are stored beside the
 * index; hits only need ids) and the per-document term-frequency maps, which
 * are replaced by occurrence counts on the tree's postings (`f`, only where
 * a count is not 1) and rebuilt on load.
 */
export function buildLexical(chunks: Chunk[]): string {
  const db = _createDb();
  insertMultiple(
    db,
    chunks.map((chunk, i) => ({
      id: String(i),
      content: chunk.content,
      symbol: chunk.symbol ?? "",
      sourcePath: chunk.sourcePath,
    })),
  );
  const raw = save(db) as unknown as SavedJson;
  const { indexes, frequencies, fieldLengths } = raw.index;
  for (const [prop, { type, node }] of Object.entries(indexes)) {
    if (type !== "Radix") continue;
    eachWord(node, (word) => {
      const counts = word.d.map((id) =>
        Math.round(frequencies[prop]![id]![word.w]! * fieldLengths[prop]![id]!)
      );
      if (counts.some((n) => n !== 1)) word.f = counts;
    });
  }
  raw.docs = { docs: {}, count: raw.docs.count };
  raw.index.frequencies = {};
  return JSON.stringify(raw);
}

/** Rebuilds the term-frequency maps `buildLexical` left out. */
function restoreFrequencies(index: IndexJson): void {
  index.frequencies = {};
  for (const [prop, { type, node }] of Object.entries(index.indexes)) {
    if (type !== "Radix") continue;
    const lengths = index.fieldLengths[prop] ?? {};
    const perDoc: Record<number, Record<string, number>> = {};
    for (const id of Object.keys(lengths)) perDoc[Number(id)] = {};
    eachWord(node, (word) => {
      word.d.forEach((id, j) => {
        (perDoc[id] ??= {})[word.w] = (word.f?.[j] ?? 1) / (lengths[id] ?? 1);
      });
      delete word.f;
    });
    index.frequencies[prop] = perDoc;
  }
}

/**
 * Loads a serialised lexical index and returns its search function: BM25
 * over content, symbol and path with the code tokenizer. Query tokens are
 * OR-ed (Orama's `threshold: 1`; `threshold: 0` would keep only documents
 * matching every token) and each also matches the indexed words it prefixes
 * (Orama's non-exact mode with `tolerance: 0`: `token` finds `tokens`;
 * Orama's `exact` mode would compare case-sensitively against the raw text
 * and reject `refresh` in `refreshAuthToken`).
 */
export function loadLexical(json: string): (query: string, limit: number) => LexicalHit[] {
  const raw = JSON.parse(json) as SavedJson;
  restoreFrequencies(raw.index);
  const db = _createDb();
  load(db, raw as unknown as RawData);
  return (query, limit) => {
    // An empty term would match every document.
    if (limit <= 0 || tokenizeCode(query).length === 0) return [];
    const result = search(db, {
      term: query,
      properties: PROPERTIES,
      limit,
      threshold: 1,
      tolerance: 0,
    });
    if (result instanceof Promise) throw new Error("Orama search unexpectedly went async");
    return result.hits.map((hit) => ({ index: Number(hit.id), score: hit.score }));
  };
}
