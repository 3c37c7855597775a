import {
  type AnyIndexStore,
  components,
  create,
  type IIndex,
  insertMultiple,
  save,
  type Tokenizer,
} from "@orama/orama";
import type { Chunk } from "../types.ts";
import { tokenizeCode, tokenizeQuery } from "./code_tokenizer.ts";

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
  tokenOccurrences?: Record<string, Record<string, number>>;
  avgFieldLength?: Record<string, number>;
  fieldLengths: Record<string, Record<number, number>>;
}
interface SavedJson {
  /** Ours: the layout and tokenizer version; files without it predate BM25F. */
  wayfinderLexical?: number;
  internalDocumentIDStore: { internalIdToId: string[] };
  index: IndexJson;
  docs: { docs: Record<string, unknown>; count: number };
}

/**
 * Version of the lexical file: bumped whenever tokens or the saved layout
 * change, so `loadLexical` rejects older files instead of misreading them.
 */
export const LEXICAL_FORMAT = 2;
// Symbols name what a passage is, so a word there counts thrice; names and
// paths vary little in length, so they are normalised less than bodies.
const DEFAULT_B: Record<Field, number> = { content: 0.75, symbol: 0.5, sourcePath: 0.5 };
const DEFAULT_WEIGHTS: Record<Field, number> = { content: 1, symbol: 3, sourcePath: 1 };
type Store = AnyIndexStore & IndexJson & { sharedInternalDocumentStore: unknown };

/** Orama tokenizer component around `tokenizeCode`; passages keep repeated tokens. */
function codeTokenizer(): Tokenizer {
  return {
    language: "english",
    normalizationCache: new Map(),
    tokenize: (raw: string) => tokenizeCode(raw),
  };
}

/**
 * Orama's default index, except that on insert it records each token's
 * occurrence count in the passage, which `buildLexical` moves onto the
 * postings. The default recounts the token in the whole passage at every
 * occurrence (quadratic) and keeps statistics we compute on load instead;
 * own-property checks keep tokens such as `constructor` off `Object.prototype`.
 */
function countingIndex(): IIndex<AnyIndexStore> {
  const base = components.index.createIndex();
  // Orama calls this once per token occurrence with the passage's token array;
  // the first call counts every distinct token of that array, the rest return.
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
      // Orama passes the internal id here; resolve it as its default does.
      const internalId = components.internalDocumentIDStore.getInternalDocumentId(
        store.sharedInternalDocumentStore as never,
        id,
      );
      const counts = store.frequencies[prop]![internalId]!;
      for (const t of tokens) counts[t] = (Object.hasOwn(counts, t) ? counts[t]! : 0) + 1;
    },
  } as IIndex<AnyIndexStore>;
}

/** Creates an empty full-text database with our tokenizer and token counting. */
function createDb() {
  return create({
    schema: SCHEMA,
    // Results are ranked by score only; sort indexes of long passages would cost time and space.
    sort: { enabled: false },
    components: { tokenizer: codeTokenizer(), index: countingIndex() },
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
 * Builds the full-text index of a generation's chunks in Orama and
 * serialises it. Document ids are row numbers. Of what Orama saves, the
 * documents are left out (chunks are stored beside the index; hits only
 * need rows), and so are the per-document token maps and the statistics
 * `loadLexical` derives: occurrence counts go onto the tree's postings
 * instead (`f`, only where a count is not 1).
 */
export function buildLexical(chunks: Chunk[]): string {
  const db = createDb();
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
  const { indexes, frequencies } = raw.index;
  for (const [prop, { type, node }] of Object.entries(indexes)) {
    if (type !== "Radix") continue;
    eachWord(node, (word) => {
      const counts = word.d.map((id) => frequencies[prop]![id]![word.w]!);
      if (counts.some((n) => n !== 1)) word.f = counts;
    });
  }
  raw.docs = { docs: {}, count: raw.docs.count };
  raw.index.frequencies = {};
  delete raw.index.tokenOccurrences;
  delete raw.index.avgFieldLength;
  raw.wayfinderLexical = LEXICAL_FORMAT;
  return JSON.stringify(raw);
}

/** BM25F parameters of `loadLexical`. */
export interface LexicalOptions {
  /** Term-frequency saturation. @default 1.2 */
  k1?: number;
  /** Length normalisation per field, 0 (none) to 1 (full). @default { content: 0.75, symbol: 0.5, sourcePath: 0.5 } */
  b?: Partial<Record<Field, number>>;
  /** Weight of an occurrence in each field. @default { content: 1, symbol: 3, sourcePath: 1 } */
  weights?: Partial<Record<Field, number>>;
  /**
   * Weight of an occurrence of a longer word the query token begins
   * (`encrypt` in `encryption`), relative to an exact occurrence; 0 matches
   * exact tokens only, which ranks best on our judged queries: prefixes
   * let `user` reach `username`, `userrole`, … and drown rarer words. @default 0
   */
  prefixWeight?: number;
}

type Field = (typeof PROPERTIES)[number];

/** One field's postings: for each word, the rows holding it and its count in each. */
type Postings = Map<string, { rows: Int32Array; counts: Int32Array }>;

/** Reads a field's postings off a saved radix tree, mapping Orama's internal ids to rows. */
function readPostings(root: RadixJson, rowOf: (internalId: number) => number): Postings {
  const postings: Postings = new Map();
  eachWord(root, (word) => {
    postings.set(word.w, {
      rows: Int32Array.from(word.d, rowOf),
      counts: Int32Array.from(word.d, (_, j) => word.f?.[j] ?? 1),
    });
  });
  return postings;
}

/** Index of the first element of sorted `words` that is not below `key`. */
function lowerBound(words: string[], key: string): number {
  let lo = 0;
  let hi = words.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (words[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Loads a serialised lexical index and returns its search function: BM25F
 * (Robertson & Zaragoza) over content, symbol and path with the code
 * tokenizer. Per query token t and passage d:
 *
 *   tf(t, d) = Σ_field weight · count(t, d, field) / (1 − b + b · len(d, field) / avglen(field))
 *   score(d) = Σ_t idf(t) · tf / (k1 + tf),  idf(t) = ln(1 + (N − df + 0.5) / (df + 0.5))
 *
 * where df counts passages holding t in any field. Fields are combined
 * before saturation, so a token in both symbol and body is not counted as
 * two independent matches, and a short passage does not win by length
 * alone. Query tokens come from `tokenizeQuery` (adjacent words also
 * joined, to meet identifiers) and are OR-ed. With `prefixWeight` > 0 a
 * query token also matches the longer indexed words it begins (`encrypt` →
 * `encryption`), at that weight per occurrence, as part of the same term.
 *
 * @throws {Error} When the file was written in another format.
 */
export function loadLexical(
  json: string,
  options: LexicalOptions = {},
): (query: string, limit: number) => LexicalHit[] {
  const raw = JSON.parse(json) as SavedJson;
  if (raw.wayfinderLexical !== LEXICAL_FORMAT) {
    throw new Error(
      `written in lexical format ${
        raw.wayfinderLexical ?? 1
      }, this wayfinder reads ${LEXICAL_FORMAT}`,
    );
  }
  const k1 = options.k1 ?? 1.2;
  const b = { ...DEFAULT_B, ...options.b };
  const weights = { ...DEFAULT_WEIGHTS, ...options.weights };
  const prefixWeight = options.prefixWeight ?? 0;

  const ids = raw.internalDocumentIDStore.internalIdToId;
  const rowOf = (internalId: number) => Number(ids[internalId - 1]);
  const n = raw.docs.count;
  const fields = PROPERTIES.map((field) => {
    // Per row: weight / (1 − b + b · len / avglen), the factor on each occurrence.
    const lengths = raw.index.fieldLengths[field] ?? {};
    const norm = new Float64Array(n);
    let total = 0;
    for (const length of Object.values(lengths)) total += length;
    const average = total / Math.max(1, n) || 1;
    for (let row = 0; row < n; row++) norm[row] = 1;
    for (const [id, length] of Object.entries(lengths)) {
      norm[rowOf(Number(id))] = 1 - b[field] + (b[field] * length) / average;
    }
    for (let row = 0; row < n; row++) norm[row] = weights[field] / norm[row]!;
    return { postings: readPostings(raw.index.indexes[field]!.node, rowOf), norm };
  });
  // Sorted words, for prefix ranges; only built when prefixes count.
  let vocabulary: string[] | undefined;
  const wordsFor = (token: string): string[] => {
    if (prefixWeight === 0) return [token];
    vocabulary ??= [...new Set(fields.flatMap((f) => [...f.postings.keys()]))].sort();
    const words: string[] = [];
    for (let i = lowerBound(vocabulary, token); vocabulary[i]?.startsWith(token); i++) {
      words.push(vocabulary[i]!);
    }
    return words;
  };

  const tf = new Float64Array(n);
  const seen = new Uint8Array(n);
  return (query, limit) => {
    if (limit <= 0) return [];
    const scores = new Map<number, number>();
    for (const token of tokenizeQuery(query)) {
      const touched: number[] = [];
      for (const word of wordsFor(token)) {
        const scale = word === token ? 1 : prefixWeight;
        for (const { postings, norm } of fields) {
          const hit = postings.get(word);
          if (!hit) continue;
          for (let j = 0; j < hit.rows.length; j++) {
            const row = hit.rows[j]!;
            if (seen[row] === 0) {
              seen[row] = 1;
              touched.push(row);
            }
            tf[row]! += scale * hit.counts[j]! * norm[row]!;
          }
        }
      }
      const idf = Math.log(1 + (n - touched.length + 0.5) / (touched.length + 0.5));
      for (const row of touched) {
        scores.set(row, (scores.get(row) ?? 0) + idf * tf[row]! / (k1 + tf[row]!));
        tf[row] = 0;
        seen[row] = 0;
      }
    }
    return [...scores]
      .sort(([rowA, a], [rowB, b]) => b - a || rowA - rowB)
      .slice(0, limit)
      .map(([index, score]) => ({ index, score }));
  };
}
