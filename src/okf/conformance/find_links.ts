/** Markdown link targets of a document body, with their positions. */
import { bodyLines } from "./body_lines.ts";

/** One link target as written. */
export interface LinkTarget {
  target: string;
  line: number;
  column: number;
}

const INLINE = /!?\[(?:[^\]\\]|\\.)*\]\(\s*(<[^>\n]*>|[^)\s]+)/g;
const DEFINITION = /^ {0,3}\[(?!\^)(?:[^\]\\]|\\.)+\]:[ \t]*(<[^>\n]*>|\S+)/;

/** Inline links, images and reference definitions outside code. */
export function findLinks(body: string, firstLine: number): LinkTarget[] {
  const links: LinkTarget[] = [];
  for (const l of bodyLines(body, firstLine)) {
    if (l.inFence || !l.text.includes("](") && !l.text.includes("]:")) continue;
    // Inline code spans are blanked, keeping columns, so `[a](b)` in code is not a link.
    const text = l.text.replace(/(`+)[^`]*?\1/g, (m) => " ".repeat(m.length));
    const add = (raw: string, index: number) => {
      const target = raw.startsWith("<") ? raw.slice(1, -1) : raw;
      links.push({ target, line: l.line, column: index + 1 });
    };
    for (const m of text.matchAll(INLINE)) add(m[1]!, m.index! + m[0].length - m[1]!.length);
    const def = DEFINITION.exec(text);
    if (def) add(def[1]!, def[0].length - def[1]!.length);
  }
  return links;
}

/**
 * Where a link points inside the bundle: a bundle-relative posix path
 * ("" for the root), `null` when it escapes the root, or `undefined` for
 * external targets (URLs, mailto:, in-page anchors).
 */
export function resolveLink(target: string, fromPath: string): string | null | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("#") || target.startsWith("//")) {
    return undefined;
  }
  const path = target.replace(/[?#].*$/, "");
  const base = path.startsWith("/") ? [] : fromPath.split("/").slice(0, -1);
  const parts = [...base];
  // Each segment decoded whole (%23 is '#', %25 is '%'), as --fix's linkPath encodes names.
  for (const part of path.split("/").map(decodeSegment)) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join("/");
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // a stray '%' is kept as written
  }
}
