/**
 * Escapes what a terminal would act on rather than show: control
 * characters (an ESC starts a colour, a cursor move or a title change), C1
 * controls and bidirectional overrides (text that reads otherwise than it
 * runs). Text output only; JSON is escaped by JSON itself.
 */

// C0 except tab and newline, DEL, C1, and the bidi embeddings, overrides and isolates.
// deno-lint-ignore no-control-regex
const IN_TEXT = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;
// In a path or a one-line field, tab and newline too.
// deno-lint-ignore no-control-regex
const IN_LINE = /[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

function code(char: string): string {
  const n = char.charCodeAt(0);
  return n <= 0xff ? `\\x${n.toString(16).padStart(2, "0")}` : `\\u${n.toString(16)}`;
}

/** A passage for display: CRLF shown as a line break, other controls as `\xNN`. */
export function escapeText(text: string): string {
  return text.replace(/\r\n/g, "\n").replace(IN_TEXT, code);
}

/** A path, symbol or message for one line of display: every control as `\xNN`. */
export function escapeLine(text: string): string {
  return text.replace(IN_LINE, code);
}
