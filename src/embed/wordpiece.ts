/**
 * llama.cpp's WordPiece tokenizer, over a vocabulary in llama.cpp's form
 * (a word's first piece starts with "▁", continuations carry no "##"), so a
 * static model splits text exactly as the GGUF model it came from: split on
 * whitespace, punctuation, ASCII symbols and CJK ideographs, lowercase,
 * then take the longest vocabulary piece at each position; a word with a
 * part no piece covers becomes the unknown token. The static embedder also
 * cuts identifiers into their parts first (`splitIdentifiers`).
 */

const WORD_START = "\u2581";
/** Words remembered with their pieces; code repeats its identifiers a great deal. */
const CACHE_LIMIT = 200_000;

/** Options for {@linkcode WordPieceTokenizer}. */
export interface WordPieceOptions {
  /**
   * Cut words at identifier boundaries too (`parseConfigFile` → parse, config,
   * file; `HTTPServer` → http, server) before looking up pieces. A transformer
   * reads a joined identifier's pieces in context; an average of them does
   * not, so the static embedder splits. @default {false}
   */
  splitIdentifiers?: boolean;
}

/** Splits text into vocabulary ids. */
export class WordPieceTokenizer {
  readonly #ids = new Map<string, number>();
  readonly #longest: number;
  readonly #unk: number;
  readonly #split: boolean;
  readonly #cache = new Map<string, readonly number[]>();

  constructor(tokens: readonly string[], unk: number, options: WordPieceOptions = {}) {
    this.#split = options.splitIdentifiers ?? false;
    let longest = 1;
    for (const [id, text] of tokens.entries()) {
      // The first id of a text wins, as in llama.cpp's map.
      if (!this.#ids.has(text)) this.#ids.set(text, id);
      longest = Math.max(longest, text.length);
    }
    this.#longest = longest;
    this.#unk = unk;
  }

  /** The ids of a text's pieces, no special tokens added; appended to `out` when given. */
  tokenize(text: string, out: number[] = []): number[] {
    if (isPlainAscii(text)) this.#asciiWords(text, out);
    else for (const word of words(text, this.#split)) this.#push(word, word, out);
    return out;
  }

  /** ASCII text cut in place: each word is a slice, lowercased only when first seen. */
  #asciiWords(text: string, out: number[]): void {
    let start = -1;
    for (let i = 0; i < text.length; i++) {
      const kind = ASCII_KIND[text.charCodeAt(i)];
      if (kind === LETTER) {
        if (start < 0) start = i;
        continue;
      }
      if (start >= 0) {
        const raw = text.slice(start, i);
        this.#push(raw, null, out);
        start = -1;
      }
      if (kind === ALONE) this.#push(text[i], null, out);
    }
    if (start >= 0) this.#push(text.slice(start), null, out);
  }

  /** Appends a word's pieces, from the cache when the same raw word was seen before. */
  #push(raw: string, lowered: string | null, out: number[]): void {
    let pieces = this.#cache.get(raw);
    if (pieces === undefined) {
      pieces = lowered === null && this.#split
        ? identifierParts(raw).flatMap((part) => this.#pieces(part.toLowerCase()))
        : this.#pieces(lowered ?? raw.toLowerCase());
      if (this.#cache.size >= CACHE_LIMIT) this.#cache.clear();
      this.#cache.set(raw, pieces);
    }
    for (let k = 0; k < pieces.length; k++) out.push(pieces[k]);
  }

  #pieces(word: string): number[] {
    const marked = WORD_START + word;
    const n = marked.length;
    const pieces: number[] = [];
    for (let i = 0; i < n;) {
      let found = -1;
      let j = Math.min(n, i + this.#longest);
      for (; j > i; j--) {
        const id = this.#ids.get(marked.slice(i, j));
        if (id !== undefined) {
          found = id;
          break;
        }
      }
      if (found < 0) return [this.#unk];
      pieces.push(found);
      i = j;
    }
    return pieces.length > 0 ? pieces : [this.#unk];
  }
}

const WHITESPACE = /[\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;
const CONTROL = /[\p{Cc}\p{Cf}\p{Co}\p{Cs}]/u;
const PUNCTUATION = /\p{P}/u;
const SYMBOL = /\p{S}/u;
const ACCENT = /\p{Mn}/u;

/**
 * A word's identifier parts: cut before a capital that follows a lower-case
 * letter or a digit, and before the last capital of a run that a lower-case
 * letter follows (`XMLHttpRequest` → XML, Http, Request).
 */
function identifierParts(word: string): string[] {
  return word.split(/(?<=[\p{Ll}\p{Nd}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u);
}

/**
 * Words as llama.cpp's WordPiece pre-tokenizer cuts them, lowercased; with
 * `splitIdentifiers`, each further cut into its identifier parts.
 */
export function* words(text: string, splitIdentifiers = false): Generator<string> {
  // Fast path: most code is ASCII; each character class is one table lookup.
  const normalized = isAscii(text) ? text : text.normalize("NFD");
  let word = "";
  // The word as written, before lowercasing, where its case changes show.
  let raw = "";
  const finish = (): string[] => {
    const done = !word ? [] : splitIdentifiers ? identifierParts(raw).map(lowerEach) : [word];
    word = raw = "";
    return done;
  };
  for (let i = 0; i < normalized.length; i++) {
    const unit = normalized.charCodeAt(i);
    if (unit < 128) {
      const kind = ASCII_KIND[unit];
      if (kind === LETTER) {
        word += unit >= 65 && unit <= 90 ? String.fromCharCode(unit + 32) : normalized[i];
        if (splitIdentifiers) raw += normalized[i];
      } else if (kind === SPACE) {
        yield* finish();
      } else if (kind === ALONE) {
        yield* finish();
        yield normalized[i];
      }
      continue;
    }
    const cp = normalized.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    if (cp > 0xffff) i++;
    if (WHITESPACE.test(ch)) {
      yield* finish();
      continue;
    }
    if (cp === 0xfffd || CONTROL.test(ch) || ACCENT.test(ch)) continue;
    const lower = ch.toLowerCase();
    if (PUNCTUATION.test(ch) || isCjk(cp)) {
      yield* finish();
      yield lower;
    } else {
      word += lower;
      if (splitIdentifiers) raw += ch;
    }
  }
  yield* finish();
}

/** Lowercased a character at a time, as the words above are. */
function lowerEach(text: string): string {
  return Array.from(text, (ch) => ch.toLowerCase()).join("");
}

const LETTER = 0;
const SPACE = 1;
const ALONE = 2;
const SKIP = 3;
/** What each ASCII character does: joins a word, ends one, stands alone, or is dropped. */
const ASCII_KIND = Uint8Array.from({ length: 128 }, (_, c) => {
  if ((c >= 9 && c <= 13) || c === 32) return SPACE;
  if (c < 32 || c === 127) return SKIP;
  const ch = String.fromCharCode(c);
  return PUNCTUATION.test(ch) || SYMBOL.test(ch) ? ALONE : LETTER;
});

function isAscii(text: string): boolean {
  // deno-lint-ignore no-control-regex
  return !/[^\x00-\x7f]/.test(text);
}

/** Printable ASCII and whitespace only: no character is dropped, so words are plain slices. */
function isPlainAscii(text: string): boolean {
  return !/[^\t-\r\x20-\x7e]/.test(text);
}

/** CJK ideographs, which BERT's tokenizer splits one by one. */
function isCjk(cp: number): boolean {
  return (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x20000 && cp <= 0x2a6df) || (cp >= 0x2a700 && cp <= 0x2b73f) ||
    (cp >= 0x2b740 && cp <= 0x2b81f) || (cp >= 0x2b820 && cp <= 0x2ceaf) ||
    (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0x2f800 && cp <= 0x2fa1f);
}
