/**
 * Tokenizes passages for the index builder straight into term numbers. The
 * tokens are `tokenizeCode`'s, but a run of ASCII is split, lowercased and
 * stemmed in a scratch buffer and looked up by hash, so only a term seen for
 * the first time becomes a string: tokenizing 100k passages otherwise makes
 * millions of short-lived strings, and V8's heap grows with them before it
 * collects. Runs with other characters go through `tokenizeCode` itself.
 */
import { pluralEnding, STOPWORDS, tokenizeCode } from "./code_tokenizer.ts";
import { TypedList } from "./growable.ts";

const [UPPER, LOWER, DIGIT, JOINER, HYPHEN] = [1, 2, 3, 4, 5];
const [FNV_BASIS, FNV_PRIME] = [0x811c9dc5, 0x01000193];
/** Kinds of ASCII characters; 0 separates words, `tokenizeCode` then included. */
const KIND = new Uint8Array(128);
const code = (char: string) => char.charCodeAt(0);
KIND.fill(UPPER, code("A"), code("Z") + 1);
KIND.fill(LOWER, code("a"), code("z") + 1);
KIND.fill(DIGIT, code("0"), code("9") + 1);
KIND[code("_")] = KIND[code("$")] = JOINER;
KIND[code("-")] = HYPHEN;
const [S, Y] = [code("s"), code("y")];

/** FNV-1a over the code units of a string. */
function hashString(text: string): number {
  let hash = FNV_BASIS;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), FNV_PRIME);
  return hash >>> 0;
}

/** The same hash over `units[0, length)`. */
function hashUnits(units: Uint8Array, length: number): number {
  let hash = FNV_BASIS;
  for (let i = 0; i < length; i++) hash = Math.imul(hash ^ units[i]!, FNV_PRIME);
  return hash >>> 0;
}

/** The kind of `text`'s unit `at` of a word ending at `end`: 0 past it. */
function kindAt(text: string, at: number, end: number): number {
  return at < end ? KIND[text.charCodeAt(at)]! : 0;
}

/** Strings by number, found by their code units without making a string first. */
class Interner {
  readonly strings: string[] = [];
  #hashes = new TypedList(Uint32Array);
  /** Open addressing: each slot holds a string's number plus one, or 0. */
  #slots = new Uint32Array(1 << 10);

  /** The number of the string of `units[0, length)` whose hash is `hash`, or -1. */
  find(units: Uint8Array, length: number, hash: number): number {
    const mask = this.#slots.length - 1;
    for (let slot = hash & mask;; slot = (slot + 1) & mask) {
      const id = this.#slots[slot]! - 1;
      if (id < 0) return -1;
      if (this.#hashes.array[id] === hash && same(this.strings[id]!, units, length)) return id;
    }
  }

  /** Adds `text`, which is not yet here; returns its number. */
  add(text: string, hash = hashString(text)): number {
    const id = this.strings.length;
    this.strings.push(text);
    this.#hashes.push(hash);
    if (2 * this.strings.length > this.#slots.length) {
      this.#slots = new Uint32Array(2 * this.#slots.length);
      this.strings.forEach((_, id) => this.#place(id));
    } else {
      this.#place(id);
    }
    return id;
  }

  /** The number of `text`, added if new. */
  intern(text: string): number {
    const hash = hashString(text);
    const mask = this.#slots.length - 1;
    for (let slot = hash & mask;; slot = (slot + 1) & mask) {
      const id = this.#slots[slot]! - 1;
      if (id < 0) return this.add(text, hash);
      if (this.#hashes.array[id] === hash && this.strings[id] === text) return id;
    }
  }

  #place(id: number): void {
    const mask = this.#slots.length - 1;
    let slot = this.#hashes.array[id]! & mask;
    while (this.#slots[slot] !== 0) slot = (slot + 1) & mask;
    this.#slots[slot] = id + 1;
  }
}

function same(text: string, units: Uint8Array, length: number): boolean {
  if (text.length !== length) return false;
  for (let i = 0; i < length; i++) if (text.charCodeAt(i) !== units[i]) return false;
  return true;
}

const stopwords = new Interner();
for (const word of STOPWORDS) stopwords.add(word);
const LONGEST_STOPWORD = Math.max(...[...STOPWORDS].map((word) => word.length));

/** The distinct terms of a generation's passages, numbered in order of first appearance. */
export class TermTable {
  #terms = new Interner();
  /** The token being built, and the joined form of the word being read. */
  #token: Uint8Array = new Uint8Array(64);
  #joined: Uint8Array = new Uint8Array(64);
  #decoder = new TextDecoder();
  #unit = (i: number) => this.#token[i]!;

  /** Terms by number. */
  get terms(): string[] {
    return this.#terms.strings;
  }

  /**
   * Appends to `out` the number of each token `tokenizeCode(text)` gives, in
   * order, adding new terms. `out` is emptied first.
   */
  tokenize(text: string, out: TypedList<Uint32Array>): void {
    out.length = 0;
    for (let i = 0; i < text.length;) {
      const c = text.charCodeAt(i);
      if (c < 128 && KIND[c] === 0) {
        i++;
        continue;
      }
      // A span no word crosses: up to the next ASCII separator.
      let end = i;
      let ascii = true;
      for (; end < text.length; end++) {
        const d = text.charCodeAt(end);
        if (d >= 128) ascii = false;
        else if (KIND[d] === 0) break;
      }
      if (ascii) {
        this.#words(text, i, end, out);
      } else {
        for (const token of tokenizeCode(text.slice(i, end))) out.push(this.#terms.intern(token));
      }
      i = end;
    }
  }

  /** The words of an ASCII span: runs of letters, digits, `_` and `$` with single inner hyphens. */
  #words(text: string, start: number, end: number, out: TypedList<Uint32Array>): void {
    let i = start;
    while (i < end) {
      while (i < end && KIND[text.charCodeAt(i)] === HYPHEN) i++;
      const word = i;
      for (; i < end; i++) {
        if (KIND[text.charCodeAt(i)] !== HYPHEN) continue;
        if (i + 1 < end && KIND[text.charCodeAt(i + 1)] !== HYPHEN) continue;
        break;
      }
      if (i > word) this.#parts(text, word, i, out);
    }
  }

  /** `tokenizeCode`'s parts of one ASCII word, and their joined form when there are several. */
  #parts(text: string, start: number, end: number, out: TypedList<Uint32Array>): void {
    let parts = 0;
    let joined = 0;
    for (let i = start; i < end;) {
      const k = kindAt(text, i, end);
      let partEnd = i + 1;
      if (k === UPPER) {
        let upper = i;
        while (kindAt(text, upper, end) === UPPER) upper++;
        if (upper - i >= 2 && kindAt(text, upper, end) === LOWER) {
          partEnd = upper - 1; // the `HTTP` of `HTTPServer`
        } else if (kindAt(text, i + 1, end) === LOWER) {
          while (kindAt(text, partEnd, end) === LOWER) partEnd++; // `Server`
        } else {
          partEnd = upper; // `HTTP` alone
        }
      } else if (k === LOWER || k === DIGIT) {
        while (kindAt(text, partEnd, end) === k) partEnd++;
      } else {
        i++; // `_`, `$` and `-` belong to no part
        continue;
      }
      const length = partEnd - i;
      const token = this.#reserve(length);
      this.#joined = grown(this.#joined, joined + length);
      for (let j = 0; j < length; j++) {
        const unit = text.charCodeAt(i + j) | 0x20; // lowercase: only letters and digits here
        token[j] = unit;
        this.#joined[joined + j] = unit;
      }
      joined += length;
      parts++;
      if ((length > 1 || k === DIGIT) && !this.#isStopword(length)) out.push(this.#term(length));
      i = partEnd;
    }
    if (parts > 1) {
      this.#reserve(joined).set(this.#joined.subarray(0, joined));
      out.push(this.#term(joined));
    }
  }

  /** The number of the token in `#token[0, length)`, stemmed, adding it if new. */
  #term(length: number): number {
    if (length > 3 && this.#token[length - 1] === S) {
      const ending = pluralEnding(length, this.#unit);
      length -= Math.abs(ending);
      if (ending < 0) this.#token[length - 1] = Y;
    }
    const h = hashUnits(this.#token, length);
    const id = this.#terms.find(this.#token, length, h);
    return id >= 0 ? id : this.#terms.add(this.#decoder.decode(this.#token.subarray(0, length)), h);
  }

  #isStopword(length: number): boolean {
    if (length > LONGEST_STOPWORD) return false;
    return stopwords.find(this.#token, length, hashUnits(this.#token, length)) >= 0;
  }

  #reserve(length: number): Uint8Array {
    return this.#token = grown(this.#token, length);
  }
}

/** `buffer`, or a larger copy when it cannot hold `length` bytes. */
function grown(buffer: Uint8Array, length: number): Uint8Array {
  if (length <= buffer.length) return buffer;
  const larger = new Uint8Array(Math.max(length, 2 * buffer.length));
  larger.set(buffer);
  return larger;
}
