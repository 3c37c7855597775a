/** Strict UTF-8 decoding that says where the first bad byte is. */

const decoder = new TextDecoder("utf-8", { fatal: true });

/** Decoded text (without a byte-order mark), or the 1-based line and byte column of the first invalid byte. */
export type Decoded = { ok: true; text: string } | { ok: false; line: number; column: number };

/** Decodes `bytes` as UTF-8, refusing invalid sequences rather than replacing them. */
export function decodeText(bytes: Uint8Array): Decoded {
  try {
    const text = decoder.decode(bytes);
    return { ok: true, text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
  } catch {
    return { ok: false, ...positionOf(bytes, firstInvalidByte(bytes)) };
  }
}

/** Offset of the first byte that does not start or continue a valid UTF-8 sequence. */
function firstInvalidByte(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const need = b < 0x80 ? 0 : b < 0xc2 ? -1 : b < 0xe0 ? 1 : b < 0xf0 ? 2 : b < 0xf5 ? 3 : -1;
    if (need < 0 || i + need >= bytes.length) return i;
    // A strict decode also rejects overlong forms and surrogates; re-decode the sequence to be sure.
    try {
      decoder.decode(bytes.subarray(i, i + need + 1));
    } catch {
      return i;
    }
    i += need + 1;
  }
  return i;
}

function positionOf(bytes: Uint8Array, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
