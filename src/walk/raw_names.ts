/**
 * File names that are not UTF-8. Deno hands a directory's names over
 * decoded lossily (U+FFFD for each bad sequence), and a path built from such
 * a name opens nothing: the file cannot be read through Deno at all. To name
 * it truthfully the bytes come from `find -print0`, shown with `\xNN` escapes.
 */

/**
 * A name's bytes for display: UTF-8 as text, every other byte as `\xNN`,
 * and a backslash as `\\`, so the bytes can be told back exactly.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { escapeName } from "./raw_names.ts";
 *
 * assert.equal(escapeName(new Uint8Array([0x63, 0x61, 0x66, 0xe9])), "caf\\xe9");
 * assert.equal(escapeName(new TextEncoder().encode("日\\")), "日\\\\");
 * ```
 */
export function escapeName(bytes: Uint8Array): string {
  const strict = new TextDecoder("utf-8", { fatal: true });
  let shown = "";
  for (let i = 0; i < bytes.length;) {
    const lead = bytes[i]!;
    const length = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 0;
    let text: string | null = null;
    try {
      if (length > 0 && i + length <= bytes.length) {
        text = strict.decode(bytes.subarray(i, i + length));
      }
    } catch {
      // Not a valid sequence: the lead byte is shown escaped, the rest judged on its own.
    }
    if (text === null) {
      shown += `\\x${lead.toString(16).padStart(2, "0")}`;
      i++;
    } else {
      shown += text === "\\" ? "\\\\" : text;
      i += length;
    }
  }
  return shown;
}

/**
 * The names in `dir` that are not UTF-8, escaped, keyed by the lossy form
 * Deno gives them (several byte names can share one). Empty when `find` is
 * not there to ask.
 */
export async function rawNames(dir: string): Promise<Map<string, string[]>> {
  try {
    return namesIn((await listing(dir).output()).stdout);
  } catch {
    return new Map();
  }
}

/** {@link rawNames} for synchronous callers (validate lists a bundle synchronously). */
export function rawNamesSync(dir: string): Map<string, string[]> {
  try {
    return namesIn(listing(dir).outputSync().stdout);
  } catch {
    return new Map();
  }
}

/** `find` listing the names in `dir` as raw bytes, NUL-separated. */
function listing(dir: string): Deno.Command {
  return new Deno.Command("find", {
    args: [dir, "-mindepth", "1", "-maxdepth", "1", "-print0"],
    stdout: "piped",
    stderr: "null",
  });
}

function namesIn(output: Uint8Array): Map<string, string[]> {
  const names = new Map<string, string[]>();
  const lossy = new TextDecoder();
  const strict = new TextDecoder("utf-8", { fatal: true });
  let start = 0;
  for (let end = output.indexOf(0); end >= 0; start = end + 1, end = output.indexOf(0, start)) {
    const path = output.subarray(start, end);
    const name = path.subarray(path.lastIndexOf(0x2f) + 1);
    try {
      strict.decode(name);
    } catch {
      const key = lossy.decode(name);
      names.set(key, [...names.get(key) ?? [], escapeName(name)]);
    }
  }
  return names;
}
