/** Numbered lines of a markdown body, with fenced code marked so checks can skip it. */

/** One line of a document body. */
export interface BodyLine {
  text: string;
  /** 1-based line in the file. */
  line: number;
  /** True inside a fenced code block, delimiters included. */
  inFence: boolean;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Splits `body` (which starts at file line `firstLine`) into lines and marks fenced code. */
export function bodyLines(body: string, firstLine: number): BodyLine[] {
  const lines: BodyLine[] = [];
  let fence: string | null = null;
  body.split("\n").forEach((raw, i) => {
    const text = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const marker = FENCE.exec(text)?.[1];
    if (fence === null && marker) {
      fence = marker;
      lines.push({ text, line: firstLine + i, inFence: true });
    } else if (fence !== null) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = null;
      lines.push({ text, line: firstLine + i, inFence: true });
    } else lines.push({ text, line: firstLine + i, inFence: false });
  });
  return lines;
}

/** Markdown list item marker at the start of a line. */
export const LIST_ITEM = /^[*+-][ \t]+/;
/** A list item whose content starts with a link: `* [Title](target)`. */
export const LINKED_ITEM = /^[*+-][ \t]+\[(?:[^\]\\]|\\.)+\]\([^)\s]+(?:[ \t]+"[^"]*")?\)/;
/** An HTML comment on one line, tolerated anywhere. */
export const COMMENT = /^<!--.*-->\s*$/;
