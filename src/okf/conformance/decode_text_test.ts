import assert from "node:assert/strict";
import { decodeText } from "./decode_text.ts";

Deno.test("decodeText() strips a byte-order mark and keeps valid UTF-8", () => {
  const decoded = decodeText(new TextEncoder().encode("\ufeffcafé ✓ 𝄞"));
  assert.deepEqual(decoded, { ok: true, text: "café ✓ 𝄞" });
});

Deno.test("decodeText() points at the first invalid byte: stray, truncated, overlong", () => {
  const bytes = (...parts: (string | number[])[]) =>
    new Uint8Array(
      parts.flatMap((p) => typeof p === "string" ? [...new TextEncoder().encode(p)] : p),
    );
  assert.deepEqual(decodeText(bytes("ab\ncd", [0xe9], "x")), { ok: false, line: 2, column: 3 });
  assert.deepEqual(decodeText(bytes("é", [0xe2, 0x82])), { ok: false, line: 1, column: 3 });
  assert.deepEqual(decodeText(bytes([0xc0, 0xaf])), { ok: false, line: 1, column: 1 });
  assert.deepEqual(decodeText(bytes([0xed, 0xa0, 0x80])), { ok: false, line: 1, column: 1 });
});
