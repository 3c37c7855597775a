/**
 * Where a passage may be cut, coarsest first: after a line break (tables,
 * code), after a run of whitespace, between two code points.
 */
export type CutLevel = "line" | "word" | "codePoint";

const SPACE = /\s/;

function isSpace(text: string, i: number): boolean {
  return SPACE.test(text[i]!);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Index of the last non-whitespace code unit, or -1 for a blank text. */
export function lastInk(text: string): number {
  let i = text.length - 1;
  while (i >= 0 && isSpace(text, i)) i--;
  return i;
}

/** Index of the first non-whitespace code unit at or after `from`, or the text's length. */
export function firstInk(text: string, from: number): number {
  let i = from;
  while (i < text.length && isSpace(text, i)) i++;
  return i;
}

function isCut(text: string, i: number, level: CutLevel): boolean {
  switch (level) {
    case "line":
      return text[i - 1] === "\n";
    case "word":
      // After the whole run, so whitespace stays on the fragment before the cut.
      return isSpace(text, i - 1) && !isSpace(text, i);
    case "codePoint":
      return !(isLowSurrogate(text.charCodeAt(i)) && isHighSurrogate(text.charCodeAt(i - 1)));
  }
}

/**
 * The offsets where a fragment of `text` may end at `level`, ascending. Each
 * leaves non-whitespace after it (trailing whitespace stays on the last
 * fragment, never alone), and the text's end is always one of them.
 */
export function cutPoints(text: string, level: CutLevel): number[] {
  const ends: number[] = [];
  const last = lastInk(text);
  for (let i = 1; i <= last; i++) if (isCut(text, i, level)) ends.push(i);
  if (text.length > 0) ends.push(text.length);
  return ends;
}
