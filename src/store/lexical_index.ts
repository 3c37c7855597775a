import type { Chunk } from "../types.ts";
import { lowerBound } from "../sorted_search.ts";
import { tokenizeQuery } from "./code_tokenizer.ts";
import { compileFilter, type LexicalFilter } from "./lexical_filter.ts";
import {
  type Column,
  COLUMNS,
  decodeLexical,
  type Dictionary,
  FIELDS,
  type LexicalData,
  lexicalParts,
  readPostings,
} from "./lexical_format.ts";
import { concatBytes, TypedList } from "./growable.ts";
import { PostingsPool } from "./postings_pool.ts";
import { TermTable } from "./term_table.ts";
import { topRows } from "./top_rows.ts";

const F = FIELDS.length;

/** A lexical hit: the chunk's row in the generation and its BM25F score. */
export interface LexicalHit {
  index: number;
  score: number;
}

/** Searches a loaded lexical index; see `loadLexical`. */
export type LexicalSearch = (
  query: string,
  limit: number,
  filter?: LexicalFilter,
) => LexicalHit[];

// BM25F parameters. Symbols name what a passage is, so a word there counts
// thrice; names and paths vary little in length, so they are normalised less
// than bodies. On the judged queries (fixtures/eval) a sweep of k1 0.9–1.5,
// b and weights gained at most .006 nDCG@10, within the noise of 65 queries;
// prefix matches (`user` → `username`) ranked worse and are gone.
const K1 = 1.2;
const B = [0.75, 0.5, 0.5];
const WEIGHTS = [1, 3, 1];

/**
 * Builds the full-text index of a generation's chunks, fed one at a time so
 * a writer can stream passages past it: each passage's content, symbol and
 * path tokenized by `tokenizeCode`, postings with occurrence counts per
 * field, field lengths, and each row's type, language and path for filters.
 * Rows are the order of `add` calls. Each distinct term is one string, kept
 * once for all fields (see `TermTable`); everything else is typed arrays.
 */
export class LexicalBuilder {
  #rows = 0;
  #lengths = FIELDS.map(() => new TypedList(Uint32Array));
  #terms = new TermTable();
  /** Term t's list in the pool for field f, plus one (0: none yet), at `F · t + f`. */
  #lists = new TypedList(Uint32Array);
  #pool = new PostingsPool();
  /** Scratch for the field being added: its tokens, each term's count, the terms counted. */
  #tokens = new TypedList(Uint32Array);
  #counts = new TypedList(Uint32Array);
  #seen = new TypedList(Uint32Array);
  #columns = COLUMNS.map(() => ({
    index: new Map<string, number>(),
    ids: new TypedList(Uint32Array),
  }));

  /** Adds the next row; `content` may be passed when the caller already holds it. */
  add(chunk: Chunk, content = chunk.content): void {
    const row = this.#rows++;
    const [tokens, seen] = [this.#tokens, this.#seen];
    [content, chunk.symbol ?? "", chunk.sourcePath].forEach((text, field) => {
      this.#terms.tokenize(text, tokens);
      this.#lengths[field]!.push(tokens.length);
      const terms = this.#terms.terms.length;
      this.#lists.extend(F * terms);
      this.#counts.extend(terms);
      const counts = this.#counts.array;
      seen.length = 0;
      for (let i = 0; i < tokens.length; i++) {
        const term = tokens.array[i]!;
        if (counts[term]!++ === 0) seen.push(term);
      }
      const lists = this.#lists.array;
      for (let i = 0; i < seen.length; i++) {
        const term = seen.array[i]!;
        let list = lists[F * term + field]! - 1;
        if (list < 0) lists[F * term + field] = (list = this.#pool.list()) + 1;
        this.#pool.add(list, row, counts[term]!);
        counts[term] = 0;
      }
    });
    COLUMNS.forEach((column, c) => {
      const { index, ids } = this.#columns[c]!;
      let id = index.get(chunk[column]);
      if (id === undefined) index.set(chunk[column], id = index.size);
      ids.push(id);
    });
  }

  /** The lexical file, as pieces to write in order (see `lexicalParts`). */
  encode(): Uint8Array[] {
    const rows = this.#rows;
    const lengths = new Uint32Array(F * rows);
    this.#lengths.forEach((column, field) => lengths.set(column.values(), field * rows));
    const byId = this.#terms.terms;
    // Sorted as JS `<` sorts: by UTF-16 code unit, the order `loadLexical` searches.
    const order = Uint32Array.from(byId.keys()).sort((a, b) => byId[a]! < byId[b]! ? -1 : 1);
    const terms = Array.from(order, (id) => byId[id]!);
    const lists = this.#lists.array;
    const pool = this.#pool;
    const starts = new Uint32Array(F * terms.length + 1);
    order.forEach((id, t) => {
      for (let f = 0; f < F; f++) {
        const list = lists[F * id + f]!;
        starts[t * F + f + 1] = starts[t * F + f]! + (list === 0 ? 0 : pool.size(list - 1));
      }
    });
    const postings = new Uint8Array(starts[starts.length - 1]!);
    order.forEach((id, t) => {
      for (let f = 0; f < F; f++) {
        const list = lists[F * id + f]!;
        if (list !== 0) pool.copy(list - 1, postings, starts[t * F + f]!);
      }
    });
    const columns = {} as Record<Column, Dictionary>;
    COLUMNS.forEach((column, c) => {
      const { index, ids } = this.#columns[c]!;
      columns[column] = { values: [...index.keys()], ids: ids.values() };
    });
    return lexicalParts({ rows, lengths, terms, columns, starts, postings });
  }
}

/** The full-text index of `chunks` (see `LexicalBuilder`). */
export function buildLexical(chunks: Chunk[]): Uint8Array {
  const builder = new LexicalBuilder();
  for (const chunk of chunks) builder.add(chunk);
  return concatBytes(builder.encode());
}

/** Per field, each row's factor on an occurrence: weight / (1 − b + b · len / avglen). */
function fieldNorms({ rows, lengths }: LexicalData): Float64Array[] {
  return FIELDS.map((_, field) => {
    const own = lengths.subarray(field * rows, (field + 1) * rows);
    let total = 0;
    for (let row = 0; row < rows; row++) total += own[row]!;
    const average = total / Math.max(1, rows) || 1;
    const b = B[field]!;
    // Indexed loops: `Float64Array.from` with a map function is ten times slower here.
    const norm = new Float64Array(rows);
    for (let row = 0; row < rows; row++) {
      norm[row] = WEIGHTS[field]! / (1 - b + (b * own[row]!) / average);
    }
    return norm;
  });
}

/**
 * Loads a lexical file and returns its search function: BM25F (Robertson &
 * Zaragoza) over content, symbol and path. Per query token t and passage d:
 *
 *   tf(t, d) = Σ_field weight · count(t, d, field) / (1 − b + b · len(d, field) / avglen(field))
 *   score(d) = Σ_t idf(t) · tf / (k1 + tf),  idf(t) = ln(1 + (N − df + 0.5) / (df + 0.5))
 *
 * where df counts passages holding t in any field. Fields are combined
 * before saturation, so a token in both symbol and body is not counted as
 * two independent matches, and a short passage does not win by length
 * alone. Query tokens come from `tokenizeQuery` (adjacent words also
 * joined, to meet identifiers), match whole indexed tokens, and are OR-ed.
 * A filter restricts the hits, not the statistics: scores do not depend on it.
 *
 * @throws {Error} When the file is of another format or damaged; the search
 *   function throws when a postings list is damaged.
 */
export function loadLexical(bytes: Uint8Array): LexicalSearch {
  const data = decodeLexical(bytes);
  const { rows, terms } = data;
  const norms = fieldNorms(data);
  // Scratch space reused by every search; all zero between searches.
  const tf = new Float64Array(rows);
  const seen = new Uint8Array(rows);
  const scores = new Float64Array(rows);
  const postingRows = new Uint32Array(rows);
  const postingCounts = new Uint32Array(rows);

  return (query, limit, filter) => {
    if (limit <= 0) return [];
    const keep = compileFilter(filter, data.columns);
    // Rows in order of first match; every score is positive, so 0 means unscored.
    const matched: number[] = [];
    try {
      for (const token of tokenizeQuery(query)) {
        const term = lowerBound(terms, token);
        if (terms[term] !== token) continue;
        const touched: number[] = [];
        for (let field = 0; field < FIELDS.length; field++) {
          const norm = norms[field]!;
          const n = readPostings(data, term, field, postingRows, postingCounts);
          for (let i = 0; i < n; i++) {
            const row = postingRows[i]!;
            if (seen[row] === 0) {
              seen[row] = 1;
              touched.push(row);
            }
            tf[row]! += postingCounts[i]! * norm[row]!;
          }
        }
        const idf = Math.log(1 + (rows - touched.length + 0.5) / (touched.length + 0.5));
        for (const row of touched) {
          if (scores[row] === 0) matched.push(row);
          scores[row]! += idf * tf[row]! / (K1 + tf[row]!);
        }
        for (const row of touched) tf[row] = seen[row] = 0;
      }
      const kept = keep ? matched.filter(keep) : matched;
      return topRows(kept, scores, limit).map((index) => ({ index, score: scores[index]! }));
    } finally {
      for (const row of matched) scores[row] = 0;
      tf.fill(0);
      seen.fill(0);
    }
  };
}

/** One segment's full-text index within a generation of several. */
export interface LexicalPart {
  data: LexicalData;
  /** Segment row → the generation's row, or -1 for a deleted row. */
  global: Int32Array;
}

/**
 * `loadLexical` over several segments as one index of their live rows:
 * document frequencies are counted over live rows of every segment at query
 * time and average field lengths over live rows, so scores equal those of
 * one index holding the same rows, whatever the segments and deletions.
 * Hits name the generation's rows.
 *
 * @param rows The generation's live rows (every `global` value is below it).
 */
export function searchParts(parts: readonly LexicalPart[], rows: number): LexicalSearch {
  const totals = FIELDS.map(() => 0);
  for (const { data, global } of parts) {
    for (let field = 0; field < F; field++) {
      const own = data.lengths.subarray(field * data.rows, (field + 1) * data.rows);
      for (let row = 0; row < data.rows; row++) if (global[row]! >= 0) totals[field]! += own[row]!;
    }
  }
  const norms = parts.map(({ data }) =>
    FIELDS.map((_, field) => {
      const own = data.lengths.subarray(field * data.rows, (field + 1) * data.rows);
      const average = totals[field]! / Math.max(1, rows) || 1;
      const b = B[field]!;
      const norm = new Float64Array(data.rows);
      for (let row = 0; row < data.rows; row++) {
        norm[row] = WEIGHTS[field]! / (1 - b + (b * own[row]!) / average);
      }
      return norm;
    })
  );
  const most = Math.max(0, ...parts.map(({ data }) => data.rows));
  const tf = new Float64Array(rows);
  const seen = new Uint8Array(rows);
  const scores = new Float64Array(rows);
  // Where each scored row came from, for filters on the segment's columns.
  const fromPart = new Int32Array(rows);
  const fromRow = new Int32Array(rows);
  const postingRows = new Uint32Array(most);
  const postingCounts = new Uint32Array(most);

  return (query, limit, filter) => {
    if (limit <= 0) return [];
    const { rows: rowRule, ...categories } = filter ?? {};
    const keeps = parts.map(({ data }) => compileFilter(categories, data.columns));
    const matched: number[] = [];
    try {
      for (const token of tokenizeQuery(query)) {
        const touched: number[] = [];
        parts.forEach(({ data, global }, p) => {
          const term = lowerBound(data.terms, token);
          if (data.terms[term] !== token) return;
          for (let field = 0; field < F; field++) {
            const norm = norms[p]![field]!;
            const n = readPostings(data, term, field, postingRows, postingCounts);
            for (let i = 0; i < n; i++) {
              const local = postingRows[i]!;
              const row = global[local]!;
              if (row < 0) continue;
              if (seen[row] === 0) {
                seen[row] = 1;
                touched.push(row);
                fromPart[row] = p;
                fromRow[row] = local;
              }
              tf[row]! += postingCounts[i]! * norm[local]!;
            }
          }
        });
        const idf = Math.log(1 + (rows - touched.length + 0.5) / (touched.length + 0.5));
        for (const row of touched) {
          if (scores[row] === 0) matched.push(row);
          scores[row]! += idf * tf[row]! / (K1 + tf[row]!);
        }
        for (const row of touched) tf[row] = seen[row] = 0;
      }
      const filtered = keeps.some(Boolean) || rowRule;
      const kept = filtered
        ? matched.filter((row) =>
          (keeps[fromPart[row]!]?.(fromRow[row]!) ?? true) && (!rowRule || rowRule(row))
        )
        : matched;
      return topRows(kept, scores, limit).map((index) => ({ index, score: scores[index]! }));
    } catch (error) {
      tf.fill(0);
      seen.fill(0);
      throw error;
    } finally {
      for (const row of matched) scores[row] = 0;
    }
  };
}
